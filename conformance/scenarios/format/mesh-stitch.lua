-- Tiles stitched into a mesh: two, then four in a 2x2 block, then a second layer.
-- Tiling: origin 0, cell 0.5, 8 cells a side, so tile-local x and z run over [0, 4].
-- A "strip tile" is cut into strips [z_k, z_k+1] across x in [0, 4]; strip k is polygon k
-- with edges 0 bottom (z = z_k), 1 right (x = 4, portal +x), 2 top, 3 left (x = 0, -x).
local fx = require("meshfix")
local TILING = fx.TILING

local strips = fx.strips

local ref = fx.ref

return {
  title = "Stitching: two tiles, partial overlaps, a 2x2 block, layers within and beyond the reach",
  clauses = { "MESH-010", "MESH-012", "MESH-013", "MESH-017", "MESH-020", "MESH-021", "MESH-022",
              "MESH-023", "MESH-024", "MESH-040", "MESH-041", "MESH-043", "MESH-044", "MESH-050" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
    local function add(desc)
      local tile = t:call("tile.create", desc).handle
      return t:call("mesh.add_tile", { mesh = m, tile = tile }).ref
    end
    -- A: one square at (0,0); B: strips cut at z = 1 at (1,0): A's +x edge meets B's two
    -- strips on [0,1] and [1,4]
    t:check(add(strips(0, 0, 0, 0, { 0, 4 })) == ref(1, 0, 0), "A: slot 0, generation 1")
    t:check(add(strips(1, 0, 0, 0, { 0, 1, 4 })) == ref(1, 1, 0), "B: slot 1")
    t:checkpoint("two-tiles", "mesh", t:call("mesh.save", { mesh = m }).bytes)
    local r = t:call("mesh.poly_ref", { mesh = m, x = 1, z = 0, layer = 0, poly = 1 })
    t:check(r.ref == ref(1, 1, 1), "poly_ref of B's strip 1")

    -- C at (0,1): strips cut at 2.5 (overlaps with A's +z edge: none, its bottom edge is one
    -- polygon's); D at (1,1) cut at 1 and 3
    add(strips(0, 1, 0, 0, { 0, 2.5, 4 }))
    add(strips(1, 1, 0, 0.25, { 0, 1, 3, 4 }))
    t:checkpoint("block-2x2", "mesh", t:call("mesh.save", { mesh = m }).bytes)

    -- second and third layers at (2,0): 1 above B (gap = twice the climb, MESH-023's reach:
    -- linked) and 1.25 above (beyond the reach at both ends: not linked)
    add(strips(2, 0, 0, 1, { 0, 4 }))
    add(strips(2, 0, 1, 1.25, { 0, 2, 4 }))
    add(strips(2, 0, 2, -0.5, { 0, 3, 4 }))
    t:checkpoint("layers", "mesh", t:call("mesh.save", { mesh = m }).bytes)

    -- a diagonal neighbour only (3,1) touches (2,0) at a corner: no link, same bytes apart
    -- from its own record
    add(strips(3, 1, 0, 0, { 0, 4 }))
    t:checkpoint("diagonal", "mesh", t:call("mesh.save", { mesh = m }).bytes)
  end,
}
