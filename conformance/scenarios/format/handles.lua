-- CONF-040, CONF-042 over several kinds of object (moved from conformance/handles, which
-- keeps the PRNG-only part): one handle counter for PRNGs, meshes and tiles; a live handle
-- of another kind is refused naming the argument, with the handle as value.
local TILING = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
                 max_verts_per_poly = 6 }

return {
  title = "one handle counter over all kinds of object; a handle of the wrong kind is refused",
  clauses = { "CONF-040", "CONF-042" },
  run = function(t)
    local a = t:call("prng.new", { seed = "0000000000000001" }).handle
    local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    local tl = t:call("tile.create", {
      x = 0, z = 0, layer = 0, tiling = TILING, origin_y = 0,
      verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
      polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 }, area = 0, flags = 1 } } }).handle
    t:check(a == 1 and m == 2 and tl == 3, "handles count over all kinds of objects: 1, 2, 3")
    -- a live handle of another kind is refused, naming the argument (CONF-042)
    t:expect_error("prng.next_u64", { prng = m, count = 1 }, { kind = "argument", field = "prng", value = "2" })
    t:expect_error("tile.view", { tile = a }, { kind = "argument", field = "tile", value = "1" })
    t:expect_error("mesh.save", { mesh = tl }, { kind = "argument", field = "mesh", value = "3" })
    t:expect_error("mesh.add_tile", { mesh = m, tile = m }, { kind = "argument", field = "tile", value = "2" })
    t:call("drop", { handle = m })
    t:expect_error("mesh.save", { mesh = m }, { kind = "argument", field = "mesh", value = "2" })
    t:expect_error("drop", { handle = m }, { kind = "argument", field = "handle", value = "2" })
    t:call("drop", { handle = tl })
    t:call("drop", { handle = a })
    t:check(t:call("prng.new", { seed = "0000000000000002" }).handle == 4, "the next handle is 4")
  end,
}
