-- query/surface-levels-dungeon: PRNG-drawn raycasts and moves along the surface on the dungeon level
-- (spec/query-surface.md); see conformance/lib/query_surface.lua, level_scenario.
return require("query_surface").level_scenario("dungeon", 300, 100, 40)
