-- build3d/tilecache-city: the tile cache scenario of build3d/tilecache on the generated city
-- (several layers per tile: layer-first tiles and the repair, RT-080 .. RT-106); see
-- conformance/lib/tilecache.lua.
return require("tilecache").scenario("city", "terrain")
