-- conformance/scenarios/build3d/regions-overlaps.lua
-- Merging among regions stacked in the same columns (build3d-regions.md REG-111 .. REG-114):
-- a deck of rough height over a floor, whose edge columns drop low enough to become ramps
-- joined to the floor within the climb, with three areas mixed in. A floor region then
-- shares columns with several decks at once and is a neighbour of some of them through the
-- ramps, so REG-112 ("overlapping regions never merge") must be read from an overlap set of
-- three or more regions. A port whose lookup in that set misses its last member (the
-- survivor regions_filter.c:73 '1' -> '2', a binary search stepping two places) merges a
-- floor region into the deck above it (map 9 here). Twelve maps of a fixed generator (the
-- kit's PRNG, seed 8), each partitioned by watershed and monotone with four (border,
-- MinRegionArea, MergeRegionArea) runs; one table checkpoint per map and partition holds the
-- REG-160 bytes of every run, in order.

local maps = require("chfmaps")

local RUNS = { { 0, 0, 20 }, { 0, 0, 60 }, { 0, 0, 400 }, { 1, 4, 60 } }

-- One map: a w x d floor at y = 10 (area 1), a deck over a random box: each column of the
-- box (4 in 5) gets a height base +- 8; on the box's low-x and low-z edges it may drop by up
-- to 25, and a column below 34 raises the floor instead (a ramp column, area 1 or 2) where
-- a higher one stacks a deck span (area 1 to 3) over the floor. 1 column in 8 gets area 2.
local function deck_map(r)
  local w, d = r:int(5, 12), r:int(5, 12)
  local g = maps.grid(w, d)
  local x0, z0 = r:int(0, w - 3), r:int(0, d - 3)
  local x1, z1 = r:int(x0 + 1, w - 1), r:int(z0 + 1, d - 1)
  local base = r:int(30, 45)
  for z = z0, z1 do
    for x = x0, x1 do
      local col = g.cols[z * w + x + 1]
      if r:int(1, 5) > 1 then
        local y = base + r:int(-8, 8) - ((x == x0 or z == z0) and r:int(0, 25) or 0)
        if y >= 34 then
          col[1].top = y - 3
          col[2] = { y = y, area = r:int(1, 3) }
        else
          col[1].y = math.max(10, y)
          col[1].area = r:int(1, 2)
        end
      end
    end
  end
  for _, c in ipairs(g.cols) do if r:int(1, 8) == 1 then c[1].area = 2 end end
  return g
end

return {
  title = "Merging among stacked regions: overlap sets of three and more (REG-112)",
  clauses = { "REG-110", "REG-111", "REG-112", "REG-113", "REG-114", "REG-116", "REG-150",
              "REG-160" },
  run = function(t)
    local r = maps.rng(8)
    for i = 1, 12 do
      local chf = maps.chf(deck_map(r), 20, 9)
      for _, p in ipairs({ "watershed", "monotone" }) do
        local b = t:table()
        for _, run in ipairs(RUNS) do
          local a = t:call("regions.build", { chf = chf, partition = p, border = run[1],
                                              min_region_area = run[2], merge_region_area = run[3] })
          b:bytes(a.bytes)
        end
        t:checkpoint("map-" .. i .. "-" .. p, "table", b:hex())
      end
    end
  end,
}
