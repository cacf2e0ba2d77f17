-- query/levels-dungeon: PRNG-drawn query pairs on the dungeon level (spec/query.md); see
-- conformance/lib/query.lua, level_scenario.
return require("query").level_scenario("dungeon", 500, 100, 60)
