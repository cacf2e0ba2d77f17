-- build3d/heightfield-floors: the whole 3D pipeline (build3d-polys.md POLY-220) on hand-made solid
-- columns (floors), three partitions; see conformance/lib/pipeline3d.lua.
return require("pipeline3d").heightfield_scenario("floors")
