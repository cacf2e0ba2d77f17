-- Errors of the tiled mesh, each leaving the mesh unchanged.
local fx = require("meshfix")
local TILING = fx.TILING

local function square(x, z, layer, tiling)
  return { x = x, z = z, layer = layer, tiling = tiling or TILING, origin_y = 0,
           verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },
                       area = 0, flags = 1 } } }
end

local ref = fx.ref

return {
  title = "Mesh errors: parameters, tiling mismatch, occupied position, no free slot, stale and bad references",
  clauses = { "MESH-001", "MESH-002", "MESH-003", "MESH-004", "MESH-005", "MESH-012", "MESH-014",
              "MESH-015", "MESH-016", "MESH-017", "MESH-030", "MESH-050" },
  run = function(t)
    local function params(climb, max_tiles, tiling)
      return { tiling = tiling or TILING, walkable_climb = climb, max_tiles = max_tiles }
    end
    t:expect_error("mesh.create", params(0 / 0, 4), { kind = "out_of_range", field = "walkable_climb", value = "NaN" })
    t:expect_error("mesh.create", params(-0.25, 4), { kind = "out_of_range", field = "walkable_climb", value = "-0.25" })
    t:expect_error("mesh.create", params(0.5, 0), { kind = "out_of_range", field = "max_tiles", value = "0" })
    t:expect_error("mesh.create", params(0.5, 4194305), { kind = "out_of_range", field = "max_tiles", value = "4194305" })
    t:expect_error("mesh.create", params(0.5, 4, { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25,
                                                   tile_cells = 8193, max_verts_per_poly = 6 }),
                   { kind = "out_of_range", field = "tiling.tile_cells", value = "8193" })
    t:expect_error("mesh.create", { tiling = TILING, walkable_climb = 0.5 },
                   { kind = "argument", field = "max_tiles" })

    local m = t:call("mesh.create", params(0.5, 2)).handle
    local a = t:call("tile.create", square(0, 0, 0)).handle
    t:call("mesh.add_tile", { mesh = m, tile = a })
    local saved = t:call("mesh.save", { mesh = m }).bytes
    t:checkpoint("one-tile", "mesh", saved)

    t:expect_error("mesh.add_tile", { mesh = m, tile = a }, { kind = "argument", field = "tile", value = "0,0,0" })
    local other = t:call("tile.create", square(1, 0, 0, { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.5,
                                                       tile_cells = 8, max_verts_per_poly = 6 })).handle
    t:expect_error("mesh.add_tile", { mesh = m, tile = other },
                   { kind = "argument", field = "tiling.cell_height", value = "0.5" })
    t:expect_error("mesh.replace_tile", { mesh = m, tile = t:call("tile.create", square(5, 5, 0)).handle },
                   { kind = "argument", field = "tile", value = "5,5,0" })
    t:expect_error("mesh.remove_tile", { mesh = m, x = 0, z = 0, layer = 1 },
                   { kind = "argument", field = "tile", value = "0,0,1" })
    t:expect_error("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 1 },
                   { kind = "out_of_range", field = "poly", value = "1" })
    t:expect_error("mesh.get_poly", { mesh = m, ref = "0000000000000000" },
                   { kind = "argument", field = "ref", value = "0000000000000000" })
    t:expect_error("mesh.get_poly", { mesh = m, ref = ref(2, 0, 0) },
                   { kind = "argument", field = "ref", value = ref(2, 0, 0) })
    t:expect_error("mesh.get_poly", { mesh = m, ref = ref(1, 0, 1) },
                   { kind = "argument", field = "ref", value = ref(1, 0, 1) })
    t:expect_error("mesh.get_poly", { mesh = m, ref = ref(1, 1, 0) },
                   { kind = "argument", field = "ref", value = ref(1, 1, 0) })
    t:expect_error("mesh.set_poly_area", { mesh = m, ref = ref(1, 0, 0), area = 64 },
                   { kind = "out_of_range", field = "area", value = "64" })
    -- a reference that resolves to no polygon is refused before the area or flags are read
    t:expect_error("mesh.set_poly_area", { mesh = m, ref = ref(1, 1, 0), area = 3 },
                   { kind = "argument", field = "ref", value = ref(1, 1, 0) })
    t:expect_error("mesh.set_poly_flags", { mesh = m, ref = ref(2, 0, 0), flags = 3 },
                   { kind = "argument", field = "ref", value = ref(2, 0, 0) })
    t:expect_error("mesh.set_poly_flags", { mesh = m, ref = ref(1, 0, 0), flags = 65536 },
                   { kind = "argument", field = "flags" })
    t:expect_error("mesh.get_poly", { mesh = m, ref = "xyz" }, { kind = "argument", field = "ref" })
    t:check(t:call("mesh.save", { mesh = m }).bytes == saved, "failed calls change nothing")

    -- no free slot: max_tiles = 2
    t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", square(3, 0, 0)).handle })
    local full = t:call("mesh.save", { mesh = m }).bytes
    t:expect_error("mesh.add_tile", { mesh = m, tile = t:call("tile.create", square(6, 0, 0)).handle },
                   { kind = "limit", field = "max_tiles", value = "2" })
    t:check(t:call("mesh.save", { mesh = m }).bytes == full, "a full mesh is unchanged")
    t:checkpoint("full", "mesh", full)
  end,
}
