-- conformance/scenarios/build3d/regions-maps.lua
-- The three partitions (build3d-regions.md sections 2 to 5) on hand-made compact
-- heightfields (SPAN-170 bytes, links by SPAN-142): a few drawn maps that put ties where
-- the spec orders them, a deck overlapping the floor in row 0 only, two maps with links of
-- one side only (SPAN-143) between regions that must merge, then maps drawn by a fixed generator (floors, holes, other areas,
-- unwalkable patches, steps over and under the climb, bridges that put two spans in a
-- column). Each is partitioned with several borders, MinRegionArea and MergeRegionArea
-- values, so the watershed's distance field, levels, floods and expansion (REG-021 ..
-- REG-044), the monotone sweep (REG-051 .. REG-055), the layers (REG-070 .. REG-083),
-- island removal and merging (REG-100 .. REG-116) and the numbering (REG-150) meet
-- plateaus, equal sizes and equal distances. One table checkpoint per map and partition
-- holds the REG-160 bytes of every run, in order.

local maps = require("chfmaps")

local PARTS = { "watershed", "monotone", "layers" }
-- border, MinRegionArea, MergeRegionArea
local RUNS = { { 0, 0, 0 }, { 0, 4, 10 }, { 1, 1, 1 }, { 2, 6, 0 }, { 3, 12, 30 }, { 0, 9, 400 } }

-- Drawn maps (ASCII, '.' no span, '#' area 0, digits areas; row 1 is z = 0).
local DRAWN = {
  -- two rooms of equal size joined by a one-span door: equal distances, equal sizes
  { "1111.1111", "1111.1111", "111111111", "1111.1111", "1111.1111" },
  -- a plus: four arms of one size around a centre (merge targets of one size: least id)
  { "...111...", "...111...", "111111111", "111111111", "...111...", "...111..." },
  -- a ring of one area around an island of another (kept by REG-102) and a 1-span island
  { "1111111", "1222221", "1211121", "1222221", "1111111", "..1....", "....1.." },
  -- stripes of two areas: every run ties
  { "1212121", "1212121", "2121212", "2121212", "1111111" },
  -- a long corridor with side pockets of 1, 2 and 3 spans
  { "1.11.111.1", "1111111111", "1.1..1...1" },
  -- a diagonal staircase of unwalkable spans cutting a square
  { "11111#", "1111#1", "111#11", "11#111", "1#1111", "#11111" },
}

-- A deck over the floor in row z = 0 only, joined to the floor by a ramp in that row
-- (heights 46, 37, 28, 19 then the floor at 10): the deck's sweep overlaps the floor's
-- sweep only in row 0 (REG-073), the row above is plain floor linked to both, so the layer
-- sweep must read the overlaps of row 0 to keep deck and floor in two layers (REG-074).
local function deck_row0()
  local g = maps.grid(10, 3)
  local function col(x, z) return g.cols[z * g.w + x + 1] end
  for x = 2, 4 do col(x, 0)[1].top = 43; col(x, 0)[2] = { y = 46, area = 1 } end
  for k, y in ipairs({ 37, 28, 19 }) do
    local c = col(4 + k, 0)
    c[1].top = y - 3
    c[2] = { y = y, area = 1 }
  end
  return g
end

-- Two runs of one area side by side, 6 + 2 columns by 3 rows, where column 6 has no -x
-- link while column 5 links +x to it: the regions are neighbours only through links of
-- one side (REG-003, REG-111 "a span of one is linked to a span of the other"), so the
-- 2-span-wide region must still find the larger one as its merge target (REG-113).
local function one_way()
  local g = maps.grid(8, 3)
  g.cut = function(x, _, d) return x == 6 and d == 0 end
  return g
end

-- Two blocks of one area, 3 x 3 (A) and 4 x 3 (C), not linked to each other, and a row
-- above both whose sweep meets both below (a conflict: its own region B, REG-054). A has
-- no +z links into that row, the row has -z links into A: A and B are neighbours through
-- B's links only, so merging (REG-111, REG-113) must read the -z direction of B's spans to
-- merge A (9 spans, below 10) into B, and B into the least neighbour.
local function one_way_z()
  local g = maps.grid(7, 4)
  g.cut = function(x, z, d)
    return (z <= 2 and ((x == 2 and d == 2) or (x == 3 and d == 0))) or (z == 2 and x <= 2 and d == 1)
  end
  return g
end

local function run_all(t, tag, chf)
  for _, p in ipairs(PARTS) do
    local b = t:table()
    for _, r in ipairs(RUNS) do
      local a = t:call("regions.build", { chf = chf, partition = p, border = r[1],
                                          min_region_area = r[2], merge_region_area = r[3] })
      b:bytes(a.bytes)
    end
    t:checkpoint(tag .. "-" .. p, "table", b:hex())
  end
  local l = t:call("regions.layers", { chf = chf })
  local b = t:table()
  b:u32(l.nlayers)
  for _, v in ipairs(l.layers) do b:u16(v) end
  t:checkpoint(tag .. "-layers-assign", "table", b:hex())
end

return {
  title = "Partitions of drawn and generated heightfields: plateaus, ties, bridges, merging",
  clauses = { "REG-021", "REG-022", "REG-025", "REG-031", "REG-033", "REG-034", "REG-040",
              "REG-041", "REG-052", "REG-054", "REG-055", "REG-071", "REG-074", "REG-077",
              "REG-078", "REG-080", "REG-102", "REG-104", "REG-112", "REG-113", "REG-114",
              "REG-150", "REG-160", "REG-180", "REG-182" },
  run = function(t)
    for i, rows in ipairs(DRAWN) do
      run_all(t, "drawn-" .. i, maps.chf(maps.ascii(rows), 20, 9))
    end
    run_all(t, "deck-row0", maps.chf(deck_row0(), 20, 9))
    run_all(t, "one-way", maps.chf(one_way(), 20, 9))
    run_all(t, "one-way-z", maps.chf(one_way_z(), 20, 9))
    local r = maps.rng(13)
    for i = 1, 24 do
      local w, d = r:int(6, 22), r:int(6, 22)
      local g = maps.random_map(r, { w = w, d = d, boxes = r:int(2, 9) })
      run_all(t, "map-" .. i, maps.chf(g, 20, 9))
    end
    -- larger maps, fewer kinds of box: wide plateaus where floods of two levels meet and the
    -- expansion weighs flood distances that differ by one step (REG-040, REG-044)
    -- (map 285 of this generator: a flood seed next to an unlabelled span whose other
    -- neighbour is a flooded span of another region, where the seed's flood distance 0
    -- (REG-033, REG-044) decides the offer)
    r = maps.rng(1001)
    for i = 1, 285 do
      local w, d = r:int(8, 40), r:int(8, 40)
      local g = maps.random_map(r, { w = w, d = d, boxes = r:int(1, 8), kinds = { 1, 1, 2, 3, 4, 5 } })
      if i <= 12 or i == 285 then run_all(t, "large-" .. i, maps.chf(g, 20, 9)) end
    end
  end,
}
