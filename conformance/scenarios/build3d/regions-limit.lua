-- conformance/scenarios/build3d/regions-limit.lua
-- REG-006's limit reached exactly and exceeded by one (issue 13: "every limit reached exactly
-- and exceeded by one"), for each partition: a compact heightfield of 256 x 256 columns
-- (chfmaps.lua) whose walkable columns form a checkerboard, so that no two are linked
-- (links run along x and z only, SPAN-142) and each is an island of one span: 32768 of them.
-- With MinRegionArea 0 no island is removed (REG-100 .. REG-103) and every island is an
-- ordinary region of its own. One checkerboard cell left out gives 32767 regions, which
-- regions.build returns (a checkpoint of its REG-160 bytes per partition); the full board
-- needs 32768 and fails with limit `regions`, value 32768, in every partition (the layer
-- partition through op_regions_layers' own error path).
local maps = require("chfmaps")

local PARTS = { "watershed", "monotone", "layers" }

local function board(skip_first)
  local g = maps.grid(256, 256)
  for z = 0, 255 do
    for x = 0, 255 do
      local c = z * 256 + x + 1
      if (x + z) % 2 == 1 or (skip_first and x == 0 and z == 0) then g.cols[c] = {} end
    end
  end
  return maps.chf(g, 4, 2)
end

return {
  title = "At most 32767 regions: 32767 one-span islands pass, 32768 are a limit error (REG-006)",
  clauses = { "REG-006", "REG-150", "REG-180", "REG-100" },
  run = function(t)
    local ok, full = board(true), board(false)
    for _, p in ipairs(PARTS) do
      local r = t:call("regions.build", { chf = ok, partition = p, border = 0,
                                          min_region_area = 0, merge_region_area = 0 })
      t:check(r.nregions == 32767, p .. ": 32767 regions (" .. tostring(r.nregions) .. ")")
      t:checkpoint("islands-32767-" .. p, "table", r.bytes, "regions")
      t:expect_error("regions.build", { chf = full, partition = p, border = 0,
                                        min_region_area = 0, merge_region_area = 0 },
                     { kind = "limit", field = "regions", value = "32768" })
    end
  end,
}
