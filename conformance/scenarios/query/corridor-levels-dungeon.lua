-- query/corridor-levels-dungeon: agents following path corridors on the dungeon level
-- (spec/query-corridor.md); see conformance/lib/query_corridor.lua, level_scenario.
return require("query_corridor").level_scenario("dungeon", 6, 12)
