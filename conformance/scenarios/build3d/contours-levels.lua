-- conformance/scenarios/build3d/contours-levels.lua
-- The contour stage (build3d-regions.md section 6) on tiles of the generated levels, for
-- each partition and preset: the contour set of each tile (raw loops, edge keys,
-- simplified forms, joined contours; REG-222) is a checkpoint.

return {
  title = "Contours of generated levels per partition, preset and tile",
  clauses = { "REG-201", "REG-203", "REG-204", "REG-205", "REG-206", "REG-207", "REG-208",
              "REG-209", "REG-210", "REG-211", "REG-212", "REG-213", "REG-215", "REG-216",
              "REG-217", "REG-218", "REG-219", "REG-220", "REG-222", "REG-223" },
  run = function(t)
    local levels = {
      { name = "terrain", seed = "00000000000000a1", size = 16, tiles = { { 0, 0 }, { 1, 0 } } },
      { name = "city", seed = "0000000000000007", size = 2, tiles = { { 0, 0 }, { 1, 1 } } },
      { name = "dungeon", seed = "0000000000000003", size = 12, tiles = { { 0, 0 } } },
    }
    for _, lv in ipairs(levels) do
      for _, preset in ipairs({ "Humanoid", "Small" }) do
        for _, part in ipairs({ "watershed", "monotone", "layers" }) do
          for _, tile in ipairs(lv.tiles) do
            local r = t:call("contours.build_tile", {
              preset = preset, partition = part, tile = tile,
              level = { name = lv.name, seed = lv.seed, size = lv.size } })
            local tag = lv.name .. "-" .. preset .. "-" .. part .. "-" .. tile[1] .. "-" .. tile[2]
            if r.built then
              t:check(r.ncontours <= r.nloops, tag .. ": at most one contour per loop")
              t:checkpoint(tag, "table", r.bytes)
            end
          end
        end
      end
    end
  end,
}
