-- query/surface-levels-city: PRNG-drawn raycasts and moves along the surface on the city level
-- (spec/query-surface.md); see conformance/lib/query_surface.lua, level_scenario.
return require("query_surface").level_scenario("city", 300, 100, 40)
