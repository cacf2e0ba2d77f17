-- build3d/heightfield-waves: the whole 3D pipeline (build3d-polys.md POLY-220) on hand-made solid
-- columns (waves), three partitions; see conformance/lib/pipeline3d.lua.
return require("pipeline3d").heightfield_scenario("waves")
