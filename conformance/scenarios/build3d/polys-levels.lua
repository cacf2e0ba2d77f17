-- conformance/scenarios/build3d/polys-levels.lua
-- The polygon stage (build3d-polys.md section 3) on every tile of every levels.md
-- generator, for each partition and preset (Humanoid, Small, Large): the polygon mesh of
-- each tile in cells (POLY-090) is a checkpoint, one per level, preset, partition and tile.

local LEVELS = {
  { name = "terrain", seed = "00000000000000a1", size = 16 },
  { name = "city", seed = "0000000000000007", size = 2 },
  { name = "stairs", seed = "00000000000000a1", size = 8 },
  { name = "dungeon", seed = "0000000000000003", size = 12 },
}

return {
  title = "Polygon meshes of generated levels per partition, preset and tile",
  clauses = { "POLY-020", "POLY-021", "POLY-022", "POLY-023", "POLY-024", "POLY-025",
              "POLY-026", "POLY-027", "POLY-030", "POLY-031", "POLY-040", "POLY-041",
              "POLY-042", "POLY-043", "POLY-044", "POLY-045", "POLY-060", "POLY-061",
              "POLY-062", "POLY-070", "POLY-071", "POLY-076", "POLY-090", "POLY-091" },
  run = function(t)
    for _, lv in ipairs(LEVELS) do
      for _, preset in ipairs({ "Humanoid", "Small", "Large" }) do
        local level = { name = lv.name, seed = lv.seed, size = lv.size }
        local all = t:call("spans.build", { preset = preset, level = level })
        for _, part in ipairs({ "watershed", "monotone", "layers" }) do
          local built = 0
          for tz = 0, all.ntz - 1 do
            for tx = 0, all.ntx - 1 do
              local r = t:call("polys.build_tile", {
                preset = preset, partition = part, tile = { tx, tz }, level = level })
              local tag = lv.name .. "-" .. preset .. "-" .. part .. "-" .. tx .. "-" .. tz
              if r.built then
                built = built + 1
                -- POLY-090: 16 header bytes, 12 per vertex, 4 * 6 + 5 per polygon.
                t:check(#r.bytes // 2 == 16 + 12 * r.nverts + 29 * r.npolys, tag .. ": bytes")
                t:check(r.links % 2 == 0 and r.untriangulated == 0, tag .. ": links, triangulation")
                t:checkpoint(tag, "table", r.bytes)
              else
                t:check(r.npolys == 0 and r.bytes == "", tag .. ": not built, empty")
              end
            end
          end
          t:check(built == all.built, lv.name .. "/" .. preset .. "/" .. part .. ": every built tile")
        end
      end
    end
  end,
}
