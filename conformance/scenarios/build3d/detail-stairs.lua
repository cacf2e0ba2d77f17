-- build3d/detail-stairs: the whole 3D pipeline with height sampling (build3d-polys.md
-- section 4) on the generated stairs level (floors above one another), preset Humanoid,
-- watershed, monotone and layers (with sampling a Layers build takes the general path,
-- build3d-runtime.md RT-080); see conformance/lib/detail3d.lua.
return require("detail3d").soup_scenario("stairs", { "Humanoid" },
                                         { "watershed", "monotone", "layers" })
