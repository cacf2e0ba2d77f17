-- query/levels-stairs: PRNG-drawn query pairs on the stairs level (spec/query.md); see
-- conformance/lib/query.lua, level_scenario.
return require("query").level_scenario("stairs", 500, 100, 60)
