-- query/levels-city: PRNG-drawn query pairs on the city level (spec/query.md); see
-- conformance/lib/query.lua, level_scenario.
return require("query").level_scenario("city", 500, 100, 60)
