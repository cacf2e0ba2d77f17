-- build3d/soup-city-monotone: the whole 3D pipeline (build3d-polys.md POLY-220) on the generated
-- city level, monotone partition, presets Humanoid and Small; see conformance/lib/pipeline3d.lua.
return require("pipeline3d").soup_scenario("city", "monotone")
