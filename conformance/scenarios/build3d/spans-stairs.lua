-- conformance/scenarios/build3d/spans-stairs.lua
-- The span stages (rasterization, filters, compaction, erosion) on every tile of the
-- levels.md "stairs" generator at the three presets: the compact heightfield of each built
-- tile (spans, links, areas; SPAN-170), one checkpoint per built tile so that a mismatch
-- names the tile: the SPAN-171 bytes of each preset cut into the header and one record per
-- tile (SPAN-172); the pieces concatenate to the whole build's bytes.

local checkpoint_tiles = require("spans3d").checkpoint_tiles -- SPAN-172

return {
  title = "Span stages on the stairs level at the three presets",
  clauses = { "SPAN-103", "SPAN-110", "SPAN-121", "SPAN-122", "SPAN-123", "SPAN-142",
              "SPAN-150", "SPAN-170", "SPAN-171", "SPAN-172", "SPAN-180", "SPAN-183", "SPAN-191" },
  run = function(t)
    for _, preset in ipairs({ "Humanoid", "Small", "Large" }) do
      local r = t:call("spans.build", { preset = preset,
                                        level = { name = "stairs", seed = "00000000000000a1", size = 6 } })
      t:check(r.built >= 1 and r.built <= r.ntx * r.ntz, "stairs/" .. preset .. ": some tiles built")
      checkpoint_tiles(t, "stairs-" .. preset, r.bytes)
    end
  end,
}
