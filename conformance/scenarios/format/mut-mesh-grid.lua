-- conformance/scenarios/format/mut-mesh-grid.lua
-- Restitching inside a block of tiles (issue 13): a 3x3 and a 4x4 block of strip tiles
-- built by single AddTile calls, then edited at the centre by ReplaceTile, RemoveTile and
-- AddTile. After each call the tiles within one column of the changed one are relinked
-- (MESH-024); their neighbours then lie in a 5x5 box of columns spread over several x and z,
-- so every neighbour of every relinked tile must be found, in the column order (z, then x,
-- then layer) MESH-024 sorts by. Each block's strips are cut at other heights, so every
-- external link (MESH-021, MESH-022: the overlap of two edges) is its own, and the mesh's
-- bytes (MESH-040, MESH-041, MESH-043: every tile's links) pin them all: a lost or doubled
-- neighbour changes the bytes. The order of the calls is not the column order (adds by
-- columns of x, some tiles on a second layer), so the sets the mesh relinks are gathered
-- out of column order. Checkpoints: each block after its adds, after the centre's
-- replacement, removal and re-addition; the links are a function of the set of tiles
-- (MESH-024), so the 3x3 block rebuilt in another order has the same bytes (checked).
local fx = require("meshfix")
local TILING = fx.TILING
local strips = fx.strips

local CUTS = { { 0, 4 }, { 0, 1, 4 }, { 0, 2.5, 4 }, { 0, 1, 3, 4 }, { 0, 0.5, 2, 4 },
               { 0, 3.5, 4 }, { 0, 1.5, 4 }, { 0, 2, 3, 4 }, { 0, 0.5, 1, 4 } }

return {
  title = "Mesh: AddTile, ReplaceTile and RemoveTile inside 3x3 and 4x4 blocks restitch every neighbour",
  clauses = { "MESH-011", "MESH-012", "MESH-014", "MESH-015", "MESH-020", "MESH-021",
              "MESH-022", "MESH-024", "MESH-040", "MESH-041", "MESH-043" },
  run = function(t)
    local P = { tiling = TILING, walkable_climb = 0.5, max_tiles = 64 }
    local function save(h) return t:call("mesh.save", { mesh = h }).bytes end
    local function tile(x, z, layer, y, k)
      return t:call("tile.create", strips(x, z, layer, y, CUTS[k % #CUTS + 1])).handle
    end
    local function add(m, x, z, layer, y, k)
      t:call("mesh.add_tile", { mesh = m, tile = tile(x, z, layer, y, k) })
    end

    -- 3x3 block, added column by column (x outer), the centre last
    local m = t:call("mesh.create", P).handle
    for x = 0, 2 do
      for z = 0, 2 do
        if not (x == 1 and z == 1) then add(m, x, z, 0, 0, 3 * x + z) end
      end
    end
    add(m, 1, 1, 0, 0, 4)
    t:checkpoint("block3-added", "mesh", save(m))

    -- the same set added row by row (z outer), centre first: the same links
    local m2 = t:call("mesh.create", P).handle
    add(m2, 1, 1, 0, 0, 4)
    for z = 0, 2 do
      for x = 0, 2 do
        if not (x == 1 and z == 1) then add(m2, x, z, 0, 0, 3 * x + z) end
      end
    end
    local b2, b1 = save(m2), save(m)
    t:check(#b2 == #b1, "block3: the same link count whatever the order of the adds")

    t:call("mesh.replace_tile", { mesh = m, tile = tile(1, 1, 0, 0.25, 7) })
    t:checkpoint("block3-replaced", "mesh", save(m))
    t:call("mesh.remove_tile", { mesh = m, x = 1, z = 1, layer = 0 })
    t:checkpoint("block3-removed", "mesh", save(m))
    add(m, 1, 1, 0, 0, 5)
    t:checkpoint("block3-readded", "mesh", save(m))

    -- 4x4 block from (-1, -1), by columns of x from the right, a second layer at two columns
    local q = t:call("mesh.create", P).handle
    for x = 2, -1, -1 do
      for z = -1, 2 do
        add(q, x, z, 0, 0, 5 * x + z + 7)
      end
    end
    add(q, 1, 0, 1, 1, 2)
    add(q, 0, 1, 1, 0.75, 6)
    t:checkpoint("block4-added", "mesh", save(q))
    t:call("mesh.replace_tile", { mesh = q, tile = tile(0, 0, 0, 0.25, 3) })
    t:checkpoint("block4-replaced", "mesh", save(q))
    t:call("mesh.remove_tile", { mesh = q, x = 1, z = 1, layer = 0 })
    t:checkpoint("block4-removed", "mesh", save(q))
    add(q, 1, 1, 0, -0.25, 1)
    t:checkpoint("block4-readded", "mesh", save(q))
  end,
}
