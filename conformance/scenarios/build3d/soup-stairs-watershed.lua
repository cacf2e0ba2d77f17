-- build3d/soup-stairs-watershed: the whole 3D pipeline (build3d-polys.md POLY-220) on the generated
-- stairs level, watershed partition, presets Humanoid and Small; see conformance/lib/pipeline3d.lua.
return require("pipeline3d").soup_scenario("stairs", "watershed")
