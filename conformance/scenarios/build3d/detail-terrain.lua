-- build3d/detail-terrain: the whole 3D pipeline with height sampling (build3d-polys.md
-- section 4) on the generated terrain, presets Humanoid and Small, watershed and monotone;
-- see conformance/lib/detail3d.lua.
return require("detail3d").soup_scenario("terrain", { "Humanoid", "Small" },
                                         { "watershed", "monotone" })
