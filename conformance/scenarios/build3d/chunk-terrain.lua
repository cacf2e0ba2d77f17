-- build3d/chunk-terrain: the chunked build of the generated terrain level equals the soup build byte
-- for byte (POLY-226), every partition, two chunk sizes; see conformance/lib/pipeline3d.lua.
return require("pipeline3d").chunk_scenario("terrain")
