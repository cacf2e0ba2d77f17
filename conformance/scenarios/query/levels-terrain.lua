-- query/levels-terrain: PRNG-drawn query pairs on the terrain level (spec/query.md); see
-- conformance/lib/query.lua, level_scenario.
return require("query").level_scenario("terrain", 500, 100, 60)
