-- conformance/scenarios/build3d/spans-tile.lua
-- One tile of the span stages on hand-made soups, every expected count derived by hand
-- from build3d-spans.md: a 3 x 3 floor with the Humanoid preset (100 spans, the outer
-- ring a ledge, 64 open spans, 16 left after erosion), a tile with no triangle (not
-- built), a wall alone (not built), an area volume and an area-0 volume (no growing).

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

return {
  title = "Span stages of one tile: ledges, erosion, volumes, tiles not built",
  clauses = { "SPAN-102", "SPAN-104", "SPAN-108", "SPAN-122", "SPAN-131", "SPAN-151",
              "SPAN-155", "SPAN-162", "SPAN-163", "SPAN-170", "SPAN-180", "SPAN-181",
              "SPAN-182", "SPAN-190" },
  run = function(t)
    -- A 3 x 3 floor at y = 0: cells 0..9 (X(10) = fl(10 * 0.3) = 3), 100 spans [0, 1].
    -- Ledge (SPAN-122): next to an empty column the drop is to -9 from 1: the ring of 36
    -- spans gets area 0 and is not compacted: 64 open spans; erosion radius 2 keeps the
    -- 4 x 4 centre (distance 2 * min(i, j, 7 - i, 7 - j) >= 4).
    local floor = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 } },
                       { { 0, 1, 2 }, { 0, 2, 3 } })
    local r = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 } })
    t:check(r.built == true, "the floor's tile is built")
    t:check(r.nspans == 64, "64 open spans")
    t:check(r.walkable == 16, "16 walkable after erosion")
    t:checkpoint("floor-humanoid", "table", r.bytes, "chf")

    -- Small (cs 0.15, radius 2, climb 8): 20 x 20 cells, ring of 76 removed, 18 x 18 = 324
    -- open spans, erosion keeps 2 * min(...) >= 4 on 18 x 18: 14 x 14 = 196.
    local s = t:call("spans.build_tile", { preset = "Small", soup = floor, tile = { 0, 0 } })
    t:check(s.nspans == 324 and s.walkable == 196, "Small: 324 open, 196 walkable")
    t:checkpoint("floor-small", "table", s.bytes, "chf")

    -- A tile far away has no triangle: not built (SPAN-182).
    local far = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 5, 5 } })
    t:check(far.built == false and far.nspans == 0 and far.bytes == "", "far tile not built")
    -- Tile (-1, 0): its grid is global columns -69..4, so it holds floor cells x 0..4,
    -- z 0..9 (50 spans). Column 4 is on the grid's edge (a neighbour outside the grid with
    -- bot = 1 > 0: a ledge), x = 0, z = 0 and z = 9 are next to empty columns: 3 x 8 = 24
    -- open spans (x 1..3, z 1..8); all are within distance 2 of a boundary: 0 walkable.
    local neg = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { -1, 0 } })
    t:check(neg.built == true and neg.nspans == 24 and neg.walkable == 0, "tile -1: 24 open, 0 walkable")

    -- A wall alone: no walkable triangle, not built.
    local wall = soup(t, { { 0, 0, 0 }, { 0, 3, 0 }, { 0, 0, 3 } }, { { 0, 1, 2 } })
    local w = t:call("spans.build_tile", { preset = "Humanoid", soup = wall, tile = { 0, 0 } })
    t:check(w.built == false, "a wall alone builds no tile")

    -- Volumes (SPAN-162, SPAN-163): area 5 over everything, then area 0 over the cells of
    -- x in [1.2, 1.5] (global column 4, centre 1.35): of the 4 x 4 walkable centre (global
    -- cells 3..6), column 4 loses its 4 spans: 12 walkable, none grown.
    local vols = { { points = { { -1, -1 }, { 4, -1 }, { 4, 4 }, { -1, 4 } }, ymin = -1, ymax = 1, area = 5 },
                   { points = { { 1.2, -1 }, { 1.5, -1 }, { 1.5, 4 }, { 1.2, 4 } }, ymin = 0, ymax = 0.1, area = 0 } }
    local v = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 }, volumes = vols })
    t:check(v.nspans == 64 and v.walkable == 12, "area-0 volume removes one column of 4, no growing")
    t:checkpoint("floor-volumes", "table", v.bytes, "chf")
  end,
}
