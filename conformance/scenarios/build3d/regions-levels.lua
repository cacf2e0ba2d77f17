-- conformance/scenarios/build3d/regions-levels.lua
-- The three partitions (build3d-regions.md) on tiles of every levels.md generator with
-- the Humanoid preset (border 5, MinRegionArea 64, MergeRegionArea 400): the canonical
-- bytes of each partition (REG-160) and the layer assignment (REG-077, REG-078).

local LEVELS = {
  { name = "terrain", size = 16, tiles = { { 0, 0 }, { 1, 0 } } },
  { name = "city", size = 1, tiles = { { 0, 0 }, { 1, 1 } } },
  { name = "stairs", size = 8, tiles = { { 0, 0 } } },
  { name = "dungeon", size = 12, tiles = { { 0, 0 } } },
}

return {
  title = "Region partitions on tiles of the four level generators",
  clauses = { "REG-020", "REG-031", "REG-040", "REG-051", "REG-055", "REG-074", "REG-080",
              "REG-104", "REG-113", "REG-150", "REG-160", "REG-180", "REG-182" },
  run = function(t)
    for _, lv in ipairs(LEVELS) do
      for _, tile in ipairs(lv.tiles) do
        local tag = lv.name .. "-" .. tile[1] .. "," .. tile[2]
        local c = t:call("spans.build_tile", { preset = "Humanoid", tile = tile,
                                               level = { name = lv.name, seed = "00000000000000a1", size = lv.size } })
        if c.built then
          for _, p in ipairs({ "watershed", "monotone", "layers" }) do
            local r = t:call("regions.build", { chf = c.bytes, partition = p, border = 5,
                                                min_region_area = 64, merge_region_area = 400 })
            t:check(r.nspans == c.nspans, tag .. " " .. p .. ": one value per span")
            t:check(p == "watershed" or r.max_dist == 0, tag .. " " .. p .. ": no distances")
            t:checkpoint(tag .. "-" .. p, "table", r.bytes)
          end
          local l = t:call("regions.layers", { chf = c.bytes })
          t:check(l.nlayers >= 1 or c.walkable == 0, tag .. ": layers")
          t:check(#l.layers == c.nspans, tag .. ": one layer per span")
        end
      end
    end
  end,
}
