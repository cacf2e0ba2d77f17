-- conformance/scenarios/build3d/regions-floor.lua
-- Region partitions (build3d-regions.md) on the hand-made 3 x 3 floor of spans-tile.lua
-- with the Humanoid preset: its 4 x 4 walkable centre (grid columns 8..11, rows 8..11 of
-- tile (0, 0), whose border is 5) at the edges of island removal, the border ring, a
-- floor cut in two by an area-0 volume and a floor of two areas. Every count by hand.

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

-- How many spans carry region value v.
local function count(r, v)
  local n = 0
  for _, x in ipairs(r.regions) do if x == v then n = n + 1 end end
  return n
end

local PARTS = { "watershed", "monotone", "layers" }

return {
  title = "Regions of a small floor: MinRegionArea edges, border ring, volumes, two areas",
  clauses = { "REG-001", "REG-012", "REG-005", "REG-102", "REG-103", "REG-104", "REG-150",
              "REG-160", "REG-180", "REG-181" },
  run = function(t)
    local floor = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 } },
                       { { 0, 1, 2 }, { 0, 2, 3 } })
    local c = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 } })
    t:check(c.nspans == 64 and c.walkable == 16, "the floor: 64 open spans, 16 walkable")
    for _, p in ipairs(PARTS) do
      -- One island of 16 spans of one area, away from the ring (REG-104): kept with
      -- MinRegionArea 16, removed with 17.
      local a = t:call("regions.build", { chf = c.bytes, partition = p, border = 5,
                                          min_region_area = 16, merge_region_area = 400 })
      t:check(a.nregions == 1 and a.removed == 0 and count(a, 1) == 16 and a.border_spans == 0,
              p .. ": 16 spans, MinRegionArea 16: one region")
      t:checkpoint("floor-" .. p, "table", a.bytes, "regions")
      local b = t:call("regions.build", { chf = c.bytes, partition = p, border = 5,
                                          min_region_area = 17, merge_region_area = 400 })
      t:check(b.nregions == 0 and b.removed == 16, p .. ": MinRegionArea 17 removes it")
      -- Border 9 (REG-011, REG-012): columns x < 9 or z < 9 are the ring: 7 walkable ring
      -- spans (x = 8: 4, z = 8: 3 more); the 3 x 3 rest touches the ring and is kept
      -- (REG-103) although 9 < 64.
      local d = t:call("regions.build", { chf = c.bytes, partition = p, border = 9,
                                          min_region_area = 64, merge_region_area = 400 })
      t:check(d.border_spans == 7 and d.nregions == 1 and d.removed == 0 and count(d, 1) == 9 and
              count(d, 32769) == 7, p .. ": border 9: 7 ring spans, 9 kept by the ring")
      t:checkpoint("floor-border9-" .. p, "table", d.bytes, "regions")
    end

    -- Area 5 everywhere, then area 0 on global column 4 (spans-tile.lua): walkable are
    -- column 3 (4 spans) and columns 5..6 (8 spans), two islands of area 5. Numbering
    -- (REG-150): column 3 comes first in each row: region 1 (4 spans), region 2 (8).
    local vols = { { points = { { -1, -1 }, { 4, -1 }, { 4, 4 }, { -1, 4 } }, ymin = -1, ymax = 1, area = 5 },
                   { points = { { 1.2, -1 }, { 1.5, -1 }, { 1.5, 4 }, { 1.2, 4 } }, ymin = 0, ymax = 0.1, area = 0 } }
    local v = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 }, volumes = vols })
    t:check(v.walkable == 12, "cut floor: 12 walkable")
    for _, p in ipairs(PARTS) do
      local a = t:call("regions.build", { chf = v.bytes, partition = p, border = 5,
                                          min_region_area = 4, merge_region_area = 0 })
      t:check(a.nregions == 2 and count(a, 1) == 4 and count(a, 2) == 8,
              p .. ": cut in two, MinRegionArea 4 keeps both")
      t:checkpoint("cut-" .. p, "table", a.bytes, "regions")
      local b = t:call("regions.build", { chf = v.bytes, partition = p, border = 5,
                                          min_region_area = 5, merge_region_area = 0 })
      t:check(b.nregions == 1 and count(b, 1) == 8 and b.removed == 4,
              p .. ": MinRegionArea 5 removes the 4-span part; the 8-span part is region 1")
      local e = t:call("regions.build", { chf = v.bytes, partition = p, border = 5,
                                          min_region_area = 9, merge_region_area = 0 })
      t:check(e.nregions == 0 and e.removed == 12, p .. ": MinRegionArea 9 removes both")
    end

    -- Area 5 on global column 4 only: three islands (63 | 5 | 63), each linked to a
    -- walkable span of another area: all kept with MinRegionArea 64 (REG-102). Regions in
    -- order of first span along row 8: column 3 -> 1 (4), column 4 -> 2 (4), 5..6 -> 3 (8).
    local two = { { points = { { 1.2, -1 }, { 1.5, -1 }, { 1.5, 4 }, { 1.2, 4 } }, ymin = -1, ymax = 1, area = 5 } }
    local w = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 }, volumes = two })
    t:check(w.walkable == 16, "two areas: 16 walkable")
    for _, p in ipairs(PARTS) do
      local a = t:call("regions.build", { chf = w.bytes, partition = p, border = 5,
                                          min_region_area = 64, merge_region_area = 400 })
      t:check(a.nregions == 3 and count(a, 1) == 4 and count(a, 2) == 4 and count(a, 3) == 8,
              p .. ": three islands of two areas, all kept")
      t:checkpoint("areas-" .. p, "table", a.bytes, "regions")
    end

    -- Errors (REG-004, REG-005, REG-181).
    t:expect_error("regions.build", { chf = c.bytes, partition = "watershed", border = -1,
                                      min_region_area = 0 }, { kind = "out_of_range", field = "border" })
    t:expect_error("regions.build", { chf = c.bytes, partition = "voronoi", border = 0,
                                      min_region_area = 0 }, { kind = "argument", field = "partition" })
    t:expect_error("regions.build", { chf = "00", partition = "monotone", border = 0,
                                      min_region_area = 0 }, { kind = "format", field = "chf.magic" })
    t:expect_error("regions.build", { partition = "monotone", border = 0,
                                      min_region_area = 0 }, { kind = "argument", field = "chf" })
  end,
}
