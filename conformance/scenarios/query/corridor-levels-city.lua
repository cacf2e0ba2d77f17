-- query/corridor-levels-city: agents following path corridors on the city level
-- (spec/query-corridor.md); see conformance/lib/query_corridor.lua, level_scenario.
return require("query_corridor").level_scenario("city", 6, 12)
