-- query/surface-levels-terrain: PRNG-drawn raycasts and moves along the surface on the terrain level
-- (spec/query-surface.md); see conformance/lib/query_surface.lua, level_scenario.
return require("query_surface").level_scenario("terrain", 300, 100, 40)
