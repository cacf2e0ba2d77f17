-- conformance/scenarios/build3d/contours-levels.lua
-- The contour stage (build3d-regions.md section 6) on every tile of every levels.md
-- generator, for each partition and preset (Humanoid, Small, Large): the contour set of
-- each tile (raw loops, edge keys, simplified forms, joined contours; REG-222) is a
-- checkpoint, one per level, preset, partition and tile.

local LEVELS = {
  { name = "terrain", seed = "00000000000000a1", size = 16 },
  { name = "city", seed = "0000000000000007", size = 2 },
  { name = "stairs", seed = "00000000000000a1", size = 8 },
  { name = "dungeon", seed = "0000000000000003", size = 12 },
}

return {
  title = "Contours of generated levels per partition, preset and tile",
  clauses = { "REG-201", "REG-203", "REG-204", "REG-205", "REG-206", "REG-207", "REG-208",
              "REG-209", "REG-210", "REG-211", "REG-212", "REG-213", "REG-215", "REG-216",
              "REG-217", "REG-218", "REG-219", "REG-220", "REG-222", "REG-223" },
  run = function(t)
    for _, lv in ipairs(LEVELS) do
      for _, preset in ipairs({ "Humanoid", "Small", "Large" }) do
        local level = { name = lv.name, seed = lv.seed, size = lv.size }
        local all = t:call("spans.build", { preset = preset, level = level })
        for _, part in ipairs({ "watershed", "monotone", "layers" }) do
          local built = 0
          for tz = 0, all.ntz - 1 do
            for tx = 0, all.ntx - 1 do
              local r = t:call("contours.build_tile", {
                preset = preset, partition = part, tile = { tx, tz }, level = level })
              local tag = lv.name .. "-" .. preset .. "-" .. part .. "-" .. tx .. "-" .. tz
              if r.built then
                built = built + 1
                t:check(r.ncontours <= r.nloops, tag .. ": at most one contour per loop")
                t:check(#r.bytes // 2 >= 44, tag .. ": a contour set (REG-222)")
                t:checkpoint(tag, "table", r.bytes)
              else
                t:check(r.nloops == 0 and r.bytes == "", tag .. ": not built, empty")
              end
            end
          end
          t:check(built == all.built, lv.name .. "/" .. preset .. "/" .. part .. ": every built tile")
        end
      end
    end
  end,
}
