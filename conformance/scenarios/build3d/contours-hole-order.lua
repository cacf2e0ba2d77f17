-- conformance/scenarios/build3d/contours-hole-order.lua
-- The order in which holes are joined (build3d-regions.md REG-216: by region, then the
-- leftmost vertex's x, then its z, then loop number) where that order decides the result:
-- a hole joined later may take a vertex of a hole joined earlier as its candidate
-- (REG-217), so two holes joined in the other order give other contours.
--   * hook maps: an 18 x 18 m floor with a square pillar B and, above it, a hook-shaped
--     pillar A whose left bar has B's leftmost x. A reaches lower than B (its right bar),
--     so A's loop starts first (smaller start key, REG-208), while B's leftmost vertex has
--     the smaller z: REG-216 joins B first (to the outline) and then A to a vertex of B.
--     A port that breaks the x tie by loop number instead of z joins A first, to the
--     outline's top side (the issue-13 survivor contours_simplify.c:318).
--   * two floors: the same pair (B now strictly left of A) on a floor of region 1 and a
--     pillar on a second floor (region 2) whose hole's loop starts between A's and B's.
--     REG-216's region key keeps region 1's holes together; a port that does not sort by
--     region first (the survivor at :316, a comparator ignoring the region) takes the
--     holes in loop order, A before B.
-- Only the layers partition leaves these floors one region with two holes (watershed and
-- monotone cut them into regions around the pillars); all three partitions are built.
-- One checkpoint per map and partition: the REG-222 bytes (layout "contours").

local maps = require("chfmaps")

local PARTS = { "watershed", "monotone", "layers" }

local function box(s, x0, z0, x1, z1)
  maps.prism(s, { { x0, z0 }, { x0, z1 }, { x1, z1 }, { x1, z0 } }, 0, 4)
end

-- A's right bar starts at z = 5 + v (v = 0, 1, 2).
local function hook_map(t, v)
  local s = maps.soup_new()
  maps.floor_quad(s, 0, 0, 18, 18, 0)
  box(s, 8.2, 11.5, 9.2, 12.5); box(s, 8.2, 11.5, 14, 12.5); box(s, 13, 5 + v, 14, 12.5) -- A
  box(s, 8.2, 8.2, 9.2, 9.2) -- B
  return maps.soup_bytes(t, s)
end

-- A's right bar starts at z = 5 + v / 2 (v = 0, 1, 2).
local function two_floors(t, v)
  local s = maps.soup_new()
  maps.floor_quad(s, 0, 0, 12.5, 18, 0)
  maps.floor_quad(s, 13.5, 0, 22, 18, 0)
  box(s, 5.7, 11.5, 6.7, 12.5); box(s, 5.7, 11.5, 10.5, 12.5); box(s, 9.5, 5 + v / 2, 10.5, 12.5) -- A
  box(s, 5.2, 8.2, 6.2, 9.2) -- B
  box(s, 16, 6.5, 17, 7.5) -- the second floor's pillar
  return maps.soup_bytes(t, s)
end

return {
  title = "Hole join order decides the contours: leftmost-x ties and holes of two regions",
  clauses = { "REG-208", "REG-216", "REG-217", "REG-219", "REG-220", "REG-222", "REG-223" },
  run = function(t)
    local maps_ = {}
    for v = 0, 2 do maps_[#maps_ + 1] = { "hook-" .. v, hook_map(t, v), 2 } end
    for v = 0, 2 do maps_[#maps_ + 1] = { "two-floors-" .. v, two_floors(t, v), 3 } end
    for _, m in ipairs(maps_) do
      for _, part in ipairs(PARTS) do
        local c = t:call("contours.build_tile", { preset = "Humanoid", partition = part,
                                                  soup = m[2], tile = { 0, 0 } })
        t:check(c.built, m[1] .. " " .. part .. ": built")
        if part == "layers" then
          t:check(c.ncontours + m[3] == c.nloops and c.unjoined == 0,
                  m[1] .. ": " .. m[3] .. " holes, all joined (" .. c.nloops .. " loops, " .. c.ncontours .. " contours)")
        end
        t:checkpoint(m[1] .. "-" .. part, "table", c.bytes, "contours")
      end
    end
  end,
}
