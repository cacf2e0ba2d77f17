-- MESH-051: argument decoding of the mesh ops. Every expected error is written from the
-- clause: an absent or malformed argument (wrong JSON type, not integral, outside its
-- integer type: x, z, layer i32; poly, max_tiles, tile_cells, max_verts_per_poly u32;
-- flags u16; area u8) is an argument error naming it with the empty value; a handle that
-- names no live object of the right kind is an argument error with the handle as value;
-- arguments are read in the order of MESH-050's args column, a handle resolved as it is
-- read; the op's own checks (MESH-002, MESH-030, ...) come after all decoding.
local fx = require("meshfix")
local TILING = fx.TILING

local function tiling(over)
  local t = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
              max_verts_per_poly = 6 }
  for k, v in pairs(over) do t[k] = v end
  return t
end

local function square(x, z, layer)
  return { x = x, z = z, layer = layer, tiling = TILING, origin_y = 0,
           verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },
                       area = 0, flags = 1 } } }
end

local ref = fx.ref

return {
  title = "Mesh op arguments: forms, integer types, handles, decoding order before the mesh's own checks",
  clauses = { "MESH-051" },
  run = function(t)
    local function arg_err(op, args, field, value)
      t:expect_error(op, args, { kind = "argument", field = field, value = value or "" })
    end
    local P = function(over) -- mesh.create arguments
      local a = { tiling = TILING, walkable_climb = 0.5, max_tiles = 4 }
      for k, v in pairs(over) do a[k] = v end
      return a
    end

    -- mesh.create: tiling and its members in order, then walkable_climb, max_tiles
    arg_err("mesh.create", { walkable_climb = 0.5, max_tiles = 4 }, "tiling")
    arg_err("mesh.create", P { tiling = t:array({}) }, "tiling")
    arg_err("mesh.create", P { tiling = tiling { origin = { 0, 0 } } }, "tiling.origin")
    arg_err("mesh.create", P { tiling = tiling { origin = { 0, "a", 0 } } }, "tiling.origin[1]")
    arg_err("mesh.create", P { tiling = tiling { cell_size = "0.5" } }, "tiling.cell_size")
    arg_err("mesh.create", P { tiling = tiling { cell_height = true } }, "tiling.cell_height")
    arg_err("mesh.create", P { tiling = tiling { tile_cells = 1.5 } }, "tiling.tile_cells")
    arg_err("mesh.create", P { tiling = tiling { tile_cells = 4294967296 } }, "tiling.tile_cells")
    arg_err("mesh.create", P { tiling = tiling { max_verts_per_poly = -1 } }, "tiling.max_verts_per_poly")
    arg_err("mesh.create", P { walkable_climb = "0.5" }, "walkable_climb")
    arg_err("mesh.create", P { max_tiles = 4294967296 }, "max_tiles")
    arg_err("mesh.create", P { max_tiles = 2.5 }, "max_tiles")
    -- the first malformed argument in reading order wins; decoding precedes the range rules
    arg_err("mesh.create", P { tiling = tiling { cell_size = "x" }, max_tiles = -1 }, "tiling.cell_size")
    arg_err("mesh.create", P { walkable_climb = "x", max_tiles = -1 }, "walkable_climb")
    arg_err("mesh.create", P { tiling = tiling { tile_cells = 0 }, max_tiles = 4294967296 }, "max_tiles")
    -- well-formed values: now the mesh's own rules (MESH-002)
    t:expect_error("mesh.create", P { tiling = tiling { tile_cells = 0 } },
                   { kind = "out_of_range", field = "tiling.tile_cells", value = "0" })
    t:expect_error("mesh.create", P { tiling = tiling { max_verts_per_poly = 4294967295 } },
                   { kind = "out_of_range", field = "tiling.max_verts_per_poly", value = "4294967295" })

    local m = t:call("mesh.create", P {}).handle
    local a = t:call("tile.create", square(0, 0, 0)).handle
    local r = t:call("mesh.add_tile", { mesh = m, tile = a }).ref
    t:check(r == ref(1, 0, 0), "the first tile's polygon 0 has reference 1/0/0")

    -- handles: resolved as they are read, before the next argument is decoded
    arg_err("mesh.add_tile", { tile = a }, "mesh")
    arg_err("mesh.add_tile", { mesh = "1", tile = a }, "mesh")
    arg_err("mesh.add_tile", { mesh = 1.5, tile = a }, "mesh")
    arg_err("mesh.add_tile", { mesh = 99, tile = "x" }, "mesh", "99")
    arg_err("mesh.add_tile", { mesh = a, tile = a }, "mesh", tostring(a))
    arg_err("mesh.add_tile", { mesh = m, tile = m }, "tile", tostring(m))
    arg_err("mesh.add_tile", { mesh = m }, "tile")
    arg_err("mesh.save", { mesh = 0 }, "mesh", "0")
    arg_err("mesh.save", { mesh = -7 }, "mesh", "-7")

    -- positions: x, z, layer are i32, read in that order
    arg_err("mesh.remove_tile", { mesh = m, x = 2147483648, z = 0, layer = 0 }, "x")
    arg_err("mesh.remove_tile", { mesh = m, x = 0, z = -2147483649, layer = 0 }, "z")
    arg_err("mesh.remove_tile", { mesh = m, x = 0, z = 0, layer = "0" }, "layer")
    arg_err("mesh.remove_tile", { mesh = m, x = 0.5, z = "a" }, "x")
    arg_err("mesh.remove_tile", { mesh = 99, x = "a" }, "mesh", "99")
    -- in range of i32 but no such tile: the mesh's own error, after decoding
    t:expect_error("mesh.remove_tile", { mesh = m, x = 2147483647, z = -2147483648, layer = 0 },
                   { kind = "argument", field = "tile", value = "2147483647,-2147483648,0" })

    -- poly is u32
    arg_err("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = -1 }, "poly")
    arg_err("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 4294967296 }, "poly")
    arg_err("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0 }, "poly")
    arg_err("mesh.poly_ref", { mesh = m, x = "a", z = 0, layer = 0, poly = "b" }, "x")
    t:expect_error("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 4294967295 },
                   { kind = "out_of_range", field = "poly", value = "4294967295" })

    -- references are 16 lower-case hex digits
    arg_err("mesh.get_poly", { mesh = m, ref = 5 }, "ref")
    arg_err("mesh.get_poly", { mesh = m, ref = "00000400000000AB" }, "ref")
    t:expect_error("mesh.get_poly", { mesh = m, ref = "00000400000000ab" },
                   { kind = "argument", field = "ref", value = "00000400000000ab" })
    arg_err("mesh.get_poly", { mesh = m, ref = "0x" .. ref(1, 0, 0):sub(3) }, "ref")
    arg_err("mesh.get_poly", { mesh = m }, "ref")

    -- flags is u16
    arg_err("mesh.set_poly_flags", { mesh = m, ref = r, flags = 65536 }, "flags")
    arg_err("mesh.set_poly_flags", { mesh = m, ref = r, flags = -1 }, "flags")
    arg_err("mesh.set_poly_flags", { mesh = m, ref = r, flags = 0.5 }, "flags")
    arg_err("mesh.set_poly_flags", { mesh = m, ref = r }, "flags")
    -- a stale reference with a malformed flags: decoding first
    arg_err("mesh.set_poly_flags", { mesh = m, ref = ref(2, 0, 0), flags = "1" }, "flags")
    t:call("mesh.set_poly_flags", { mesh = m, ref = r, flags = 65535 })

    -- area is u8; 64 .. 255 are well-formed and get MESH-030's out_of_range
    arg_err("mesh.set_poly_area", { mesh = m, ref = r, area = 256 }, "area")
    arg_err("mesh.set_poly_area", { mesh = m, ref = r, area = -1 }, "area")
    arg_err("mesh.set_poly_area", { mesh = m, ref = r, area = 1.25 }, "area")
    arg_err("mesh.set_poly_area", { mesh = m, ref = ref(2, 0, 0), area = 256 }, "area")
    t:expect_error("mesh.set_poly_area", { mesh = m, ref = r, area = 64 },
                   { kind = "out_of_range", field = "area", value = "64" })
    t:expect_error("mesh.set_poly_area", { mesh = m, ref = r, area = 255 },
                   { kind = "out_of_range", field = "area", value = "255" })
    t:call("mesh.set_poly_area", { mesh = m, ref = r, area = 63 })
    local got = t:call("mesh.get_poly", { mesh = m, ref = r })
    t:check(got.flags == 65535 and got.area == 63, "edits of the largest values: flags 65535, area 63")

    -- snapshot ops: mesh then bytes
    arg_err("mesh.snapshot_load", { mesh = m, bytes = "0" }, "bytes")
    arg_err("mesh.snapshot_load", { mesh = m, bytes = "ZZ" }, "bytes")
    arg_err("mesh.snapshot_load", { mesh = a, bytes = "zz" }, "mesh", tostring(a))
    arg_err("mesh.snapshot_save", { mesh = "m" }, "mesh")

    t:checkpoint("mesh", "mesh", t:call("mesh.save", { mesh = m }).bytes)
  end,
}
