-- Coordinates near the bound +-2^21 (T2D-023, T2D-055): squares touching x = 2^21 and
-- x = -2^21 build; with TileOrigin.x = 1 the tile holding x just below 2^21 spans
-- [2^21 - 63, 2^21 + 1] and the tile validator refuses it, naming the column 32767
-- (FMT-006); a coordinate beyond 2^21 is refused naming it.
local M = 2097152
local S = { preset = "Large", agent_radius = 0 }
local UNIT = 512

local check_tiles = require("props2d").check_tiles -- T2D-043, G2D-225 properties

return {
  title = "Coordinates at +-2^21: tiles inside the bound build, a tile beyond it is refused",
  clauses = { "T2D-023", "T2D-030", "T2D-050", "T2D-055", "T2D-071" },
  run = function(t)
    local a = { { M - 100, -M }, { M, -M }, { M, -M + 100 }, { M - 100, -M + 100 } }
    local b = { { -M, M - 100 }, { -M + 100, M - 100 }, { -M + 100, M }, { -M, M } }
    -- a: x in [2^21 - 100, 2^21] -> columns 32766, 32767 (line 2^21 - 64 cuts);
    -- z in [-2^21, -2^21 + 100] -> rows -32768, -32767 (line -2^21 + 64 cuts)
    local r = t:call("build2d.outlines", { settings = S, outlines = { a } })
    t:checkpoint("corner-x-max-z-min", "mesh", t:call("mesh.save", { mesh = r.handle }).bytes)
    t:check(#r.tiles == 4, "a 2x2 block of tiles")
    t:check(r.tiles[1].x == 32766 and r.tiles[1].z == -32768, "first tile (32766, -32768)")
    t:check(r.tiles[4].x == 32767 and r.tiles[4].z == -32767, "last tile (32767, -32767)")
    check_tiles(t, r, 64)
    local r2 = t:call("build2d.outlines", { settings = S, outlines = { b } })
    t:checkpoint("corner-x-min-z-max", "mesh", t:call("mesh.save", { mesh = r2.handle }).bytes)
    t:check(#r2.tiles == 4 and r2.tiles[1].x == -32768 and r2.tiles[4].z == 32767, "the opposite corner")
    check_tiles(t, r2, 64)
    t:expect_error("build2d.outlines", { settings = { preset = "Large", agent_radius = 0, origin = { 1, 0 } },
      outlines = { a } }, { kind = "out_of_range", field = "header.x", value = "32767" })
    t:expect_error("build2d.outlines", { settings = S,
      outlines = { { { 0, 0 }, { M + 1, 0 }, { 0, 5 } } } },
      { kind = "out_of_range", field = "Outlines[0][1].x" })
  end,
}
