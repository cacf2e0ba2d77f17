-- Malformed snapshots are format errors naming the field, and leave the mesh unchanged.
local fx = require("meshfix")
local TILING = fx.TILING

local function square(x, z, layer, origin_y)
  return { x = x, z = z, layer = layer, tiling = TILING, origin_y = origin_y,
           verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },
                       area = 0, flags = 1 } } }
end

-- hex text helpers: byte i (0-based) of a hex string, and a replacement
local function put(hex, i, bytes) return hex:sub(1, 2 * i) .. bytes .. hex:sub(2 * (i + #bytes / 2) + 1) end

return {
  title = "Snapshot errors: truncation, magic, version, parameters, unknown section, bad records; mesh unchanged",
  clauses = { "SNAP-003", "SNAP-004", "SNAP-005", "SNAP-006", "SNAP-008", "SNAP-012", "SNAP-013",
              "SNAP-014", "SNAP-015" },
  run = function(t)
    local P = { tiling = TILING, walkable_climb = 0.5, max_tiles = 8 }
    local src = t:call("mesh.create", P).handle
    local function add(mesh, d)
      return t:call("mesh.add_tile", { mesh = mesh, tile = t:call("tile.create", d).handle }).ref
    end
    add(src, square(0, 0, 0, 0))
    add(src, square(3, 3, 0, 0))
    add(src, square(1, 0, 0, 0.25))
    t:call("mesh.remove_tile", { mesh = src, x = 3, z = 3, layer = 0 })
    local snap = t:call("mesh.snapshot_save", { mesh = src }).bytes
    t:checkpoint("source", "snapshot", snap)
    -- layout (SNAP-010): 88 nfree = 1, 92 free[0] = (slot 1, generation 2), 100 ntiles = 2,
    -- 104 tiles[0].slot, 108 .generation, 112 .x, 116 .z, 120 .layer, 124 .tile_length,
    -- 128 the tile's bytes
    t:check(snap:sub(2 * 88 + 1, 2 * 104) == "01000000" .. "01000000" .. "02000000" .. "02000000",
            "free list and tile count where SNAP-010 puts them")

    local m = t:call("mesh.create", P).handle
    add(m, square(5, 5, 0, 0))
    local before = t:call("mesh.save", { mesh = m }).bytes
    t:checkpoint("target-before", "mesh", before)
    local function bad(bytes, field, value)
      t:expect_error("mesh.snapshot_load", { mesh = m, bytes = bytes },
                     { kind = "format", field = field, value = value })
    end
    bad("", "magic", "0")
    bad(snap:sub(1, 2 * 70), "nsections", "70")
    bad(snap:sub(1, 2 * 98), "sections[0].length")
    bad(put(snap, 0, "58"), "magic", "5850534e")
    bad(put(snap, 4, "02"), "version", "2")
    bad(put(snap, 68, "00"), "nsections", "0")
    bad(put(snap, 72, "54434143"), "sections[0].tag", tostring(0x43414354))
    bad(put(snap, 76, "02"), "sections[0].version", "2")
    bad(put(snap, 96, "01"), "free[0].generation", "1")
    bad(put(snap, 88, "09"), "nfree", "9") -- more records than max_tiles (8)
    bad(put(snap, 100, "09"), "ntiles", "9")
    bad(put(snap, 104, "08"), "tiles[0].slot", "8")
    bad(put(snap, 104, "01"), "tiles[0].slot", "1")
    bad(put(snap, 108, "00"), "tiles[0].generation", "0")
    bad(put(snap, 112, "ffffffff"), "tiles[0].x", "-1")
    bad(put(snap, 128, "00"), "tiles[0].tile.header.magic")
    bad(snap .. "00", "length", tostring(#snap // 2 + 1))
    -- parameters must equal the mesh's (SNAP-006)
    local other = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.75, max_tiles = 8 }).handle
    t:expect_error("mesh.snapshot_load", { mesh = other, bytes = snap },
                   { kind = "format", field = "params.walkable_climb", value = "0.5" })
    -- every tiling field in MESH-005's order, each differing alone: the snapshot names it
    -- (SNAP-006: params.tiling.<field>, the snapshot's value), and AddTile of the source's
    -- tile names it too (MESH-005: argument tiling.<field>, the tile's value)
    local function tiling_with(k, v)
      local ti = { origin = { TILING.origin[1], TILING.origin[2], TILING.origin[3] } }
      for key, val in pairs(TILING) do if key ~= "origin" then ti[key] = val end end
      if k:sub(1, 6) == "origin" then ti.origin[tonumber(k:sub(8, 8)) + 1] = v else ti[k] = v end
      return ti
    end
    local tile00 = t:call("tile.create", square(0, 0, 0, 0)).handle
    for _, f in ipairs({ { "origin[0]", 1, "0" }, { "origin[1]", 1, "0" }, { "origin[2]", 1, "0" },
                         { "cell_size", 0.25, "0.5" }, { "cell_height", 0.5, "0.25" },
                         { "tile_cells", 16, "8" }, { "max_verts_per_poly", 5, "6" } }) do
      local o = t:call("mesh.create", { tiling = tiling_with(f[1], f[2]), walkable_climb = 0.5, max_tiles = 8 }).handle
      t:expect_error("mesh.snapshot_load", { mesh = o, bytes = snap },
                     { kind = "format", field = "params.tiling." .. f[1], value = f[3] })
      t:expect_error("mesh.add_tile", { mesh = o, tile = tile00 },
                     { kind = "argument", field = "tiling." .. f[1], value = f[3] })
      t:call("drop", { handle = o })
    end
    t:check(t:call("mesh.save", { mesh = m }).bytes == before, "failed loads change nothing")
    t:checkpoint("target-after", "mesh", t:call("mesh.save", { mesh = m }).bytes)
    -- and the good snapshot still loads
    t:call("mesh.snapshot_load", { mesh = m, bytes = snap })
    t:check(t:call("mesh.snapshot_save", { mesh = m }).bytes == snap, "restored")
  end,
}
