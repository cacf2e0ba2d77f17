-- conformance/scenarios/build3d/detail-threshold.lua
-- The sampling threshold of DetailSampleDistance, met exactly (build3d-spans.md SPAN-025,
-- build3d-polys.md POLY-201's "at or below 0.9, compared in binary64", POLY-203): on the
-- stairs level (Small, watershed), a build at exactly 0.9 samples nothing and equals the
-- build at 0 byte for byte (no detail meshes); the next binary64 above 0.9 samples with a
-- step of 1 cell, so its mesh differs (it is the checkpoint). A port comparing with >=
-- instead of > (the survivor detail.c:37) samples at 0.9.
local LEVEL = { name = "stairs", seed = "00000000000000a1", size = 12 }

return {
  title = "DetailSampleDistance 0.9 samples nothing; the next binary64 above it samples every cell",
  clauses = { "SPAN-025", "POLY-203", "POLY-201" },
  run = function(t)
    local function mesh(d)
      local r = t:call("build3d.soup", { preset = "Small", partition = "watershed",
                                         detail_sample_distance = d, level = LEVEL })
      return t:call("mesh.save", { mesh = r.mesh }).bytes
    end
    local above = 0.9 + 2.0 ^ -53 -- one unit in the last place above 0.9 (binary64 in [0.5, 1))
    t:check(above > 0.9 and (above - 2.0 ^ -53) == 0.9, "the next binary64 above 0.9")
    local m0, m09, m1 = mesh(0), mesh(0.9), mesh(above)
    t:check(m09 == m0, "0.9: no sampling, the same mesh as 0")
    t:check(m1 ~= m0, "just above 0.9: sampled with a step of 1")
    t:checkpoint("above-0.9", "mesh", m1)
  end,
}
