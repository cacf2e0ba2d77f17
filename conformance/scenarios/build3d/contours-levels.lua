-- conformance/scenarios/build3d/contours-levels.lua
-- The contour stage (build3d-regions.md section 6) on every tile of every levels.md
-- generator, for each partition and preset (Humanoid, Small, Large): the contour set of
-- each tile (raw loops, edge keys, simplified forms, joined contours; REG-222) is a
-- checkpoint, one per level, preset, partition and tile.

local each_level_tile = require("soups3d").each_level_tile -- levels x presets x partitions

return {
  title = "Contours of generated levels per partition, preset and tile",
  clauses = { "REG-201", "REG-203", "REG-204", "REG-205", "REG-206", "REG-207", "REG-208",
              "REG-209", "REG-210", "REG-211", "REG-212", "REG-213", "REG-215", "REG-216",
              "REG-217", "REG-218", "REG-219", "REG-220", "REG-222", "REG-223" },
  run = function(t)
    each_level_tile(t, "contours.build_tile", function(tag, r)
      if r.built then
        t:check(r.ncontours <= r.nloops, tag .. ": at most one contour per loop")
        t:check(#r.bytes // 2 >= 44, tag .. ": a contour set (REG-222)")
        t:checkpoint(tag, "table", r.bytes, "contours")
      else
        t:check(r.nloops == 0 and r.bytes == "", tag .. ": not built, empty")
      end
      return r.built
    end)
  end,
}
