-- conformance/scenarios/build3d/contours-tile.lua
-- The contour stage (build3d-regions.md section 6) on hand-made soups, with the three
-- partitions: a square floor (one region, one loop, four corners) and the same floor
-- with a tall hollow pillar in the middle (a hole in the floor's region, or regions
-- around it, depending on the partition).

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

local floor = require("soups3d").floor -- a 6 x 6 floor, optionally with a hollow pillar

return {
  title = "Contours of one tile: a square floor, a floor with a pillar, three partitions",
  clauses = { "REG-200", "REG-204", "REG-205", "REG-207", "REG-208", "REG-209", "REG-210",
              "REG-211", "REG-212", "REG-215", "REG-216", "REG-219", "REG-220", "REG-222", "REG-223" },
  run = function(t)
    local plain, pillar = floor(t, false), floor(t, true)
    for _, part in ipairs({ "watershed", "monotone", "layers" }) do
      -- Humanoid, cs 0.3: floor cells 0..19; the outer ring is a ledge (SPAN-122), 18 x 18
      -- open spans; erosion radius 2 keeps the 14 x 14 centre (196 spans >= 64): one
      -- region. Its loop has 4 * 14 = 56 raw edges, all facing no region; simplification
      -- keeps the extremes (lowest x, z and highest x, z) and the two other corners, at
      -- 14 / sqrt(2) > 1.3 cells from the diagonal; sides of 14 cells <= 40: no split.
      local r = t:call("contours.build_tile", { preset = "Humanoid", partition = part,
                                                soup = plain, tile = { 0, 0 } })
      t:check(r.built == true and r.nregions == 1, part .. ": one region")
      t:check(r.nloops == 1 and r.ncontours == 1 and r.nverts == 4, part .. ": one square loop")
      t:checkpoint("floor-" .. part, "table", r.bytes, "contours")
      local p = t:call("contours.build_tile", { preset = "Humanoid", partition = part,
                                                soup = pillar, tile = { 0, 0 } })
      t:check(p.built == true and p.nloops >= 2 and p.unjoined == 0, part .. ": pillar, holes joined")
      t:checkpoint("pillar-" .. part, "table", p.bytes, "contours")
    end
    -- An open floor 60 x 60 m: tile (1, 1) is walkable everywhere (grid 74 x 74, border 5),
    -- so its regions touch the border region on all four sides. REG-209: each side of the
    -- tile border is its own side key, so the tile's corners (5,5), (5,69), (69,69),
    -- (69,5) are change points and the contour is the tile's square, not cut at a corner.
    local open = soup(t, { { 0, 0, 0 }, { 0, 0, 60 }, { 60, 0, 60 }, { 60, 0, 0 } },
                      { { 0, 1, 2 }, { 0, 2, 3 } })
    for _, part in ipairs({ "monotone", "layers" }) do
      local r = t:call("contours.build_tile", { preset = "Humanoid", partition = part,
                                                soup = open, tile = { 1, 1 } })
      -- one region (every row adopts the row below; one layer, one area), one loop of
      -- 4 * 64 raw edges facing the border, four kept corners
      t:check(r.built == true and r.nregions == 1 and r.nloops == 1 and r.ncontours == 1 and
              r.nverts == 4, part .. ": open tile, one square contour")
      t:checkpoint("open-" .. part, "table", r.bytes, "contours")
    end
    local w = t:call("contours.build_tile", { preset = "Humanoid", partition = "watershed",
                                              soup = open, tile = { 1, 1 } })
    t:check(w.built == true and w.ncontours == w.nregions and w.unjoined == 0,
            "watershed: open tile, one contour per region")
    t:checkpoint("open-watershed", "table", w.bytes, "contours")
    -- A tile with no triangle is not built: no regions, no loops, empty bytes.
    local far = t:call("contours.build_tile", { preset = "Humanoid", soup = plain, tile = { 4, 4 } })
    t:check(far.built == false and far.nloops == 0 and far.bytes == "", "far tile not built")
  end,
}
