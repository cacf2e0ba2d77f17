-- CONF-014: a failed call changes nothing, over every kind of object (the session and math
-- ops alone: conformance/failed-calls). A session with a PRNG, a mesh holding one tile
-- (with a polygon edit) and a spare tile is saved; then failing calls of every kind of op
-- are made; then the same objects must save to the same bytes, the PRNG must continue its
-- stream as an untouched twin does, and the next handle must be the next number (no
-- failed call used one up).
local TILING = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
                 max_verts_per_poly = 6 }

local function square(x, z, layer, tiling, area)
  return { x = x, z = z, layer = layer, tiling = tiling or TILING, origin_y = 0,
           verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },
                       area = area or 0, flags = 1 } } }
end

return {
  title = "A failed call changes nothing: the same objects, contents and handle numbers after every error",
  clauses = { "CONF-014" },
  run = function(t)
    local p = t:call("prng.new", { seed = "0000000000000007" }).handle
    local twin = t:call("prng.new", { seed = "0000000000000007" }).handle
    local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 2 }).handle
    local a = t:call("tile.create", square(0, 0, 0)).handle
    local b = t:call("tile.create", square(1, 0, 0)).handle
    t:check(p == 1 and twin == 2 and m == 3 and a == 4 and b == 5, "handles 1 .. 5 in creation order")
    local r = t:call("mesh.add_tile", { mesh = m, tile = a }).ref
    t:call("mesh.set_poly_flags", { mesh = m, ref = r, flags = 5 })
    t:call("prng.next_u64", { prng = p, count = 3 })
    t:call("prng.next_u64", { prng = twin, count = 3 })

    local mesh0 = t:call("mesh.save", { mesh = m }).bytes
    local snap0 = t:call("mesh.snapshot_save", { mesh = m }).bytes
    local tile0 = t:call("tile.save", { tile = b }).bytes
    t:checkpoint("mesh before", "mesh", mesh0)
    t:checkpoint("snapshot before", "snapshot", snap0)

    -- failing creations
    t:expect_error("tile.create", square(0, 0, 0, nil, 64), { kind = "out_of_range", field = "polys[0].area", value = "64" })
    t:expect_error("tile.load", { bytes = "00" }, { kind = "format", field = "header", value = "1" })
    t:expect_error("mesh.create", { tiling = TILING, walkable_climb = -1, max_tiles = 2 },
                   { kind = "out_of_range", field = "walkable_climb", value = "-1" })
    t:expect_error("prng.new", { seed = "xyz" }, { kind = "argument", field = "seed", value = "" })
    -- failing edits of the mesh
    t:expect_error("mesh.add_tile", { mesh = m, tile = a }, { kind = "argument", field = "tile", value = "0,0,0" })
    t:expect_error("mesh.replace_tile", { mesh = m, tile = b }, { kind = "argument", field = "tile", value = "1,0,0" })
    t:expect_error("mesh.remove_tile", { mesh = m, x = 5, z = 0, layer = 0 },
                   { kind = "argument", field = "tile", value = "5,0,0" })
    t:expect_error("mesh.set_poly_area", { mesh = m, ref = r, area = 64 }, { kind = "out_of_range", field = "area", value = "64" })
    t:expect_error("mesh.set_poly_flags", { mesh = m, ref = r, flags = 65536 }, { kind = "argument", field = "flags", value = "" })
    -- a snapshot that fails at its very last byte (SNAP-013 step 5: the edit's pad is 0)
    t:expect_error("mesh.snapshot_load", { mesh = m, bytes = snap0:sub(1, -3) .. "01" },
                   { kind = "format", field = "tiles[0].edits[0].pad", value = "1" })
    t:expect_error("mesh.snapshot_load", { mesh = m, bytes = "00000000" .. snap0:sub(9) },
                   { kind = "format", field = "magic", value = "00000000" })
    -- failing PRNG requests
    t:expect_error("prng.next_u64", { prng = p, count = 65537 }, { kind = "out_of_range", field = "count", value = "65537" })
    t:expect_error("prng.below", { prng = p, count = 2, n = "0000000000000000" },
                   { kind = "out_of_range", field = "n", value = "0000000000000000" })
    t:expect_error("prng.unit", { prng = m, count = 1 }, { kind = "argument", field = "prng", value = "3" })
    -- failing session ops
    t:expect_error("drop", { handle = 99 }, { kind = "argument", field = "handle", value = "99" })
    t:expect_error("tile.view", { tile = m }, { kind = "argument", field = "tile", value = "3" })

    local mesh1 = t:call("mesh.save", { mesh = m }).bytes
    local snap1 = t:call("mesh.snapshot_save", { mesh = m }).bytes
    t:check(mesh1 == mesh0, "the mesh saves to the same bytes")
    t:check(snap1 == snap0, "the mesh snapshots to the same bytes")
    t:check(t:call("tile.save", { tile = b }).bytes == tile0, "the spare tile is unchanged")
    t:check(t:call("mesh.get_poly", { mesh = m, ref = r }).flags == 5, "the polygon edit is kept")
    t:checkpoint("mesh after", "mesh", mesh1)
    t:checkpoint("snapshot after", "snapshot", snap1)

    -- the PRNG continues exactly as its twin
    local v1 = t:call("prng.next_u64", { prng = p, count = 4 }).values
    local v2 = t:call("prng.next_u64", { prng = twin, count = 4 }).values
    local same = #v1 == 4 and #v2 == 4
    for i = 1, 4 do same = same and v1[i] == v2[i] end
    t:check(same, "the PRNG's stream is where it was")
    local tb = t:table()
    for i = 1, #v1 do tb:u64hex(v1[i]) end
    t:checkpoint("prng after", "table", tb:hex())

    -- no handle number was used up by the failed requests
    t:check(t:call("prng.new", { seed = "0000000000000000" }).handle == 6, "the next handle is 6")
  end,
}
