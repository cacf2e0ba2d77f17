-- conformance/scenarios/build3d/polys-levels.lua
-- The polygon stage (build3d-polys.md section 3) on every tile of every levels.md
-- generator, for each partition and preset (Humanoid, Small, Large): the polygon mesh of
-- each tile in cells (POLY-090) is a checkpoint, one per level, preset, partition and tile.

local each_level_tile = require("soups3d").each_level_tile -- levels x presets x partitions

return {
  title = "Polygon meshes of generated levels per partition, preset and tile",
  clauses = { "POLY-020", "POLY-021", "POLY-022", "POLY-023", "POLY-024", "POLY-025",
              "POLY-026", "POLY-027", "POLY-030", "POLY-031", "POLY-040", "POLY-041",
              "POLY-042", "POLY-043", "POLY-044", "POLY-045", "POLY-060", "POLY-061",
              "POLY-062", "POLY-070", "POLY-071", "POLY-076", "POLY-090", "POLY-091" },
  run = function(t)
    each_level_tile(t, "polys.build_tile", function(tag, r)
      if r.built then
        -- POLY-090: 16 header bytes, 12 per vertex, 4 * 6 + 5 per polygon.
        t:check(#r.bytes // 2 == 16 + 12 * r.nverts + 29 * r.npolys, tag .. ": bytes")
        t:check(r.links % 2 == 0 and r.untriangulated == 0, tag .. ": links, triangulation")
        t:checkpoint(tag, "table", r.bytes, "polys")
      else
        t:check(r.npolys == 0 and r.bytes == "", tag .. ": not built, empty")
      end
      return r.built
    end)
  end,
}
