-- One expected error per rule of the tile format, each on an otherwise valid tile, and
-- malformed bytes for Deserialize. Every error names its field (FMT-001, FMT-050, FMT-051).
local function deep(v)
  if type(v) ~= "table" then return v end
  local r = {}
  for k, x in pairs(v) do r[k] = deep(x) end
  return r
end

-- The two-triangle square (W = fW = 4, cell 0.5): see tile-square.lua.
local SQUARE = {
  x = 0, z = 0, layer = 0,
  tiling = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
             max_verts_per_poly = 6 },
  origin_y = 0,
  verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
  polys = {
    { verts = { 0, 1, 2 }, neis = { 0x8003, 0x8002, 2 }, area = 0, flags = 1 },
    { verts = { 0, 2, 3 }, neis = { 1, 0x8001, 0x8000 }, area = 0, flags = 1 },
  },
}

-- The square with detail (A: one detail vertex, three triangles; B: one triangle) and a link.
local function detailed()
  local a = deep(SQUARE)
  a.detail = { { vert_base = 0, vert_count = 1, tri_base = 0, tri_count = 3 },
               { vert_base = 1, vert_count = 0, tri_base = 3, tri_count = 1 } }
  a.detail_verts = { { 3, 0.5, 1 } }
  a.detail_tris = { { 0, 1, 3, 1 }, { 1, 2, 3, 1 }, { 2, 0, 3, 0 }, { 0, 1, 2, 0x14 } }
  a.offmesh = { { start = { 1, 0, 1 }, ["end"] = { -2, 1.5, 6 }, radius = 0.5, flags = 3, area = 2,
                  bidirectional = true, user_id = 77 } }
  return a
end

-- One polygon over the given (x, z) points, all edges walls.
local function one_poly(points, order)
  local a = deep(SQUARE)
  a.verts = {}
  for i, p in ipairs(points) do a.verts[i] = { p[1], 0, p[2] } end
  local neis = {}
  for i = 1, #order do neis[i] = 0 end
  a.polys = { { verts = order, neis = neis, area = 0, flags = 0 } }
  return a
end

local function with(f, base)
  local a = deep(base or SQUARE)
  f(a)
  return a
end

local ULP_ABOVE_4 = 4.000000476837158203125    -- the binary32 after 4 (4 + 2^-21)
local ULP_BELOW_4 = 3.999999761581420898437500 -- the binary32 before 4 (4 - 2^-22)
local ULP_ABOVE_8192 = 8192.0009765625         -- the binary32 after 8192 = 2^14 * 0.5

return {
  title = "Every rule of the tile format rejects its violation with the spec'd kind and field",
  clauses = { "FMT-001", "FMT-002", "FMT-003", "FMT-004", "FMT-006", "FMT-009", "FMT-010", "FMT-011",
              "FMT-012", "FMT-013", "FMT-014", "FMT-015", "FMT-016", "FMT-017", "FMT-018", "FMT-019",
              "FMT-020", "FMT-021", "FMT-022", "FMT-023", "FMT-024", "FMT-025", "FMT-026", "FMT-027",
              "FMT-028", "FMT-029", "FMT-030", "FMT-043", "FMT-050", "FMT-051", "FMT-070", "FMT-071",
              "FMT-052", "FMT-074", "CONF-013" },
  run = function(t)
    local function bad(args, kind, field, value)
      t:expect_error("tile.create", args, { kind = kind, field = field, value = value })
    end
    t:call("tile.create", SQUARE)
    t:call("tile.create", detailed())

    -- header and tiling (FMT-002 .. FMT-004)
    bad(with(function(a) a.layer = 256 end), "out_of_range", "header.layer", "256")
    bad(with(function(a) a.layer = -1 end), "out_of_range", "header.layer", "-1")
    bad(with(function(a) a.tiling.origin[2] = 0 / 0 end), "out_of_range", "header.tiling.origin[1]", "NaN")
    bad(with(function(a) a.tiling.origin[1] = 2097152.5 end), "out_of_range", "header.tiling.origin[0]")
    bad(with(function(a) a.tiling.cell_size = 0 end), "out_of_range", "header.tiling.cell_size", "0")
    -- FMT-012: -0.0 is replaced by +0.0 before any rule runs, so the error reports 0.
    bad(with(function(a) a.tiling.cell_size = -0.0 end), "out_of_range", "header.tiling.cell_size", "0")
    bad(with(function(a) a.tiling.cell_height = 1 / 0 end), "out_of_range", "header.tiling.cell_height",
      "Infinity")
    bad(with(function(a) a.tiling.tile_cells = 8193 end), "out_of_range", "header.tiling.tile_cells", "8193")
    bad(with(function(a) a.tiling.tile_cells = 0 end), "out_of_range", "header.tiling.tile_cells", "0")
    bad(with(function(a) a.tiling.max_verts_per_poly = 2 end), "out_of_range",
      "header.tiling.max_verts_per_poly", "2")
    bad(with(function(a) a.tiling.max_verts_per_poly = 13 end), "out_of_range",
      "header.tiling.max_verts_per_poly", "13")
    bad(with(function(a) a.origin_y = -2097153 end), "out_of_range", "header.origin_y", "-2097153")

    -- extent (FMT-006): cell 1, 8192 cells, W = 2^13; x = 255 ends at exactly 2^21
    local big = with(function(a)
      a.tiling.cell_size = 1
      a.tiling.tile_cells = 8192
      a.polys[1].neis = { 0x8003, 0, 0 }
      a.polys[2].neis = { 0, 0, 0x8000 }
    end)
    big.x = 255
    t:call("tile.create", big)
    big.x = 256
    bad(big, "out_of_range", "header.x", "256")
    big.x = -256
    t:call("tile.create", big)
    big.x = -257
    bad(big, "out_of_range", "header.x", "-257")
    big.x = 0
    big.z = 256
    bad(big, "out_of_range", "header.z", "256")

    -- vertices (FMT-009 .. FMT-011, FMT-013)
    bad(with(function(a) a.verts[4][3] = 0 / 0 end), "out_of_range", "verts[3].z", "NaN")
    bad(with(function(a) a.verts[3][1] = ULP_ABOVE_4 end), "out_of_range", "verts[2].x")
    bad(with(function(a) a.verts[2][3] = -1 end), "out_of_range", "verts[1].z", "-1")
    t:call("tile.create", with(function(a) a.verts[1][2] = 8192 end))
    bad(with(function(a) a.verts[1][2] = ULP_ABOVE_8192 end), "out_of_range", "verts[0].y")
    bad(with(function(a) a.verts[5] = { 1, 0, 1 } end), "argument", "verts[4]", "4")

    -- polygons (FMT-014 .. FMT-018)
    bad(with(function(a) a.polys[1].verts = { 0, 1 }; a.polys[1].neis = { 0, 0 } end),
      "out_of_range", "polys[0].nverts", "2")
    bad(with(function(a) a.polys[2].area = 64 end), "out_of_range", "polys[1].area", "64")
    bad(with(function(a) a.polys[2].verts[3] = 4 end), "out_of_range", "polys[1].verts[2]", "4")
    -- the first vertex is range-checked like the others (FMT-015), and an index far past nverts
    bad(with(function(a) a.polys[2].verts[1] = 4 end), "out_of_range", "polys[1].verts[0]", "4")
    bad(with(function(a) a.polys[1].verts[2] = 65535 end), "out_of_range", "polys[0].verts[1]", "65535")
    bad(with(function(a) a.polys[2].verts[3] = 0 end), "argument", "polys[1].verts[2]", "0")
    bad(one_poly({ { 0, 0 }, { 4, 0 }, { 4, 0 }, { 4, 4 } }, { 0, 1, 2, 3 }), "argument", "polys[0].verts[2]")
    -- collinear vertex allowed, the same vertex moved inwards by one binary32 step is a right turn
    t:call("tile.create", one_poly({ { 0, 0 }, { 2, 0 }, { 4, 0 }, { 4, 4 }, { 0, 4 } }, { 0, 1, 2, 3, 4 }))
    bad(one_poly({ { 0, 0 }, { 2, 2 ^ -149 }, { 4, 0 }, { 4, 4 }, { 0, 4 } }, { 0, 1, 2, 3, 4 }),
      "argument", "polys[0].verts[1]")
    bad(one_poly({ { 0, 0 }, { 4, 0 }, { 4, 4 } }, { 0, 2, 1 }), "argument", "polys[0].verts[0]")
    bad(one_poly({ { 0, 0 }, { 4, 0 }, { 2, 0 }, { 0, 4 } }, { 0, 1, 2, 3 }), "argument", "polys[0].verts[1]")
    -- a pentagram turns left everywhere but winds twice
    local pent = { { 2, 0 }, { 4, 1.5 }, { 3, 4 }, { 1, 4 }, { 0, 1.5 } }
    t:call("tile.create", one_poly(pent, { 0, 1, 2, 3, 4 }))
    bad(one_poly(pent, { 0, 2, 4, 1, 3 }), "argument", "polys[0].verts", "2")

    -- neighbour codes (FMT-019 .. FMT-021)
    bad(with(function(a) a.polys[1].neis[3] = 3 end), "out_of_range", "polys[0].neis[2]", "3")
    bad(with(function(a) a.polys[1].neis[1] = 0x8004 end), "out_of_range", "polys[0].neis[0]", "32772")
    bad(with(function(a) a.polys[2].neis[1] = 0 end), "argument", "polys[0].neis[2]", "2")
    bad(with(function(a) a.polys[1].neis[3] = 1 end), "argument", "polys[0].neis[2]", "1")
    bad(with(function(a) a.polys[1].neis[1] = 0x8001 end), "argument", "polys[0].neis[0]", "32769")
    bad(with(function(a) a.verts[2][1] = ULP_BELOW_4 end), "argument", "polys[0].neis[1]", "32770")

    -- detail (FMT-022 .. FMT-026)
    bad(with(function(a) a.detail[2] = nil end, detailed()), "argument", "header.ndetail", "1")
    bad(with(function(a) a.detail_tris = { { 0, 1, 2, 0 } } end), "argument", "header.ndetail_tris", "1")
    bad(with(function(a) a.detail[2].vert_base = 0 end, detailed()), "argument", "detail[1].vert_base", "0")
    bad(with(function(a) a.detail[2].tri_base = 4 end, detailed()), "argument", "detail[1].tri_base", "4")
    bad(with(function(a) a.detail[2].tri_count = 0; a.detail_tris[4] = nil end, detailed()),
      "argument", "detail[1].tri_count", "0")
    bad(with(function(a) a.detail_verts[2] = { 1, 0, 1 } end, detailed()), "argument",
      "header.ndetail_verts", "2")
    bad(with(function(a) a.detail_verts[1][3] = ULP_ABOVE_4 end, detailed()), "out_of_range",
      "detail_verts[0].z")
    bad(with(function(a) a.detail_tris[1][2] = 4 end, detailed()), "out_of_range", "detail_tris[0].v[1]", "4")
    bad(with(function(a) a.detail_tris[2][3] = 1 end, detailed()), "argument", "detail_tris[1].v[2]", "1")
    bad(with(function(a) a.detail_tris[1][4] = 2 end, detailed()), "out_of_range", "detail_tris[0].flags", "2")

    -- off-mesh links (FMT-027 .. FMT-029)
    bad(with(function(a) a.offmesh[1].start[1] = -1 end, detailed()), "out_of_range", "offmesh[0].start.x")
    t:call("tile.create", with(function(a) a.offmesh[1]["end"][1] = 2097152 end, detailed()))
    bad(with(function(a) a.offmesh[1]["end"][1] = 2097152.25 end, detailed()), "out_of_range",
      "offmesh[0].end.x")
    bad(with(function(a) a.offmesh[1].radius = 0 end, detailed()), "out_of_range", "offmesh[0].radius", "0")
    bad(with(function(a) a.offmesh[1].area = 64 end, detailed()), "out_of_range", "offmesh[0].area", "64")
    bad(with(function(a) a.offmesh[1].bidirectional = 2 end, detailed()), "out_of_range",
      "offmesh[0].bidirectional", "2")

    -- limits (FMT-030): 4096 links are fine, 4097 are not; 32767 polygons fine, 32768 not
    local links = detailed()
    for i = 2, 4096 do links.offmesh[i] = links.offmesh[1] end
    t:call("tile.create", links)
    links.offmesh[4097] = links.offmesh[1]
    bad(links, "limit", "header.noffmesh", "4097")
    local many = with(function(a) a.verts[4] = nil end)
    many.polys = {}
    for i = 1, 32767 do many.polys[i] = { verts = { 0, 1, 2 }, neis = { 0, 0, 0 }, area = 0, flags = 0 } end
    t:call("tile.create", many)
    many.polys[32768] = many.polys[1]
    bad(many, "limit", "header.npolys", "32768")

    -- order (FMT-050): a vertex error is reported before a polygon error
    bad(with(function(a) a.verts[1][1] = -1; a.polys[2].area = 99 end), "out_of_range", "verts[0].x")
    -- FMT-052: coordinate by coordinate (x fully before y); a detail triangle index by index
    bad(with(function(a) a.verts[1][1] = -1; a.verts[1][2] = 0 / 0 end), "out_of_range", "verts[0].x", "-1")
    bad(with(function(a) a.detail_tris[1] = { 0, 0, 9, 1 } end, detailed()), "argument", "detail_tris[0].v[1]", "0")
    bad(with(function(a) a.detail_tris[1] = { 0, 1, 3, 2 }; a.detail_tris[2] = { 9, 2, 3, 1 } end, detailed()),
      "out_of_range", "detail_tris[0].flags", "2")

    -- protocol decoding (FMT-070, FMT-071)
    bad(with(function(a) a.verts[3][3] = 0.1 end), "argument", "verts[2][2]")
    bad(with(function(a) a.polys[1].neis = { 0, 0 } end), "argument", "polys[0].neis")
    bad(with(function(a) a.tiling.cell_size = nil end), "argument", "tiling.cell_size")
    -- FMT-074: every argument is decoded, in FMT-070's order and each completely, before any
    -- rule runs; the first malformed one is reported, with the empty value (CONF-013).
    bad(with(function(a) a.layer = 999; a.verts[2] = { 1, 2 } end), "argument", "verts[1]", "")
    bad(with(function(a) a.verts[1][1] = "x"; a.polys = "no" end), "argument", "verts[0][0]", "")
    bad(with(function(a) a.polys[1].verts[3] = -1; a.polys[1].neis = "no" end),
      "argument", "polys[0].verts[2]", "")
    bad(with(function(a) a.polys[1].flags = "f"; a.polys[2].verts = "no" end),
      "argument", "polys[0].flags", "")
    bad(with(function(a) a.detail[1].vert_count = 256; a.detail[1].tri_base = -1 end, detailed()),
      "argument", "detail[0].vert_count", "")
    bad(with(function(a) a.detail_verts[1] = { 1 }; a.detail_tris[1] = { 0, 1, 2 } end, detailed()),
      "argument", "detail_verts[0]", "")
    bad(with(function(a) a.detail_tris[1][4] = 256; a.offmesh = "no" end, detailed()),
      "argument", "detail_tris[0][3]", "")
    bad(with(function(a) a.offmesh[1].start = { 0, 0 }; a.offmesh[1].bidirectional = 2.5 end, detailed()),
      "argument", "offmesh[0].start", "")
    bad(with(function(a) a.offmesh[1].area = 256; a.offmesh[1].bidirectional = "yes" end, detailed()),
      "argument", "offmesh[0].area", "")
    bad(with(function(a) a.tiling.cell_size = -0.0; a.origin_y = "x" end), "argument", "origin_y", "")

    -- malformed bytes (FMT-051)
    local ok = t:call("tile.create", SQUARE)
    local hex = t:call("tile.save", { tile = ok.handle }).bytes
    local function bad_bytes(h, kind, field, value)
      t:expect_error("tile.load", { bytes = h }, { kind = kind, field = field, value = value })
    end
    bad_bytes("", "format", "header", "0")
    bad_bytes(hex:sub(1, 222), "format", "header", "111")
    bad_bytes(hex:sub(1, -3), "format", "header.size", "192")
    bad_bytes(hex .. "00", "format", "header.size", "192")
    bad_bytes("58" .. hex:sub(3), "format", "header.magic", "5850544c")
    bad_bytes(hex:sub(1, 8) .. "02000000" .. hex:sub(17), "format", "header.version", "2")
    local last = hex:sub(-1)
    bad_bytes(hex:sub(1, -2) .. (last == "0" and "1" or "0"), "format", "content_id")
    -- polygon 0's vertex count byte (offset 152) set to 7 > max_verts_per_poly
    bad_bytes(hex:sub(1, 304) .. "07" .. hex:sub(307), "out_of_range", "polys[0].nverts", "7")
  end,
}
