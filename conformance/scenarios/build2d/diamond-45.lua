-- A 45-degree world: a diamond of half-diagonal 100 around (100, 100) with a 45-degree
-- diamond hole of half-diagonal 20 around (100, 100) (area 20000 - 800 = 19200). Every
-- crossing with the lines 64, 128, 192 is a grid point, so the area is exact. MaxVertsPerPoly
-- 6, then 3 (triangles only) and 12.
local UNIT = 512
local D = { { 100, 0 }, { 200, 100 }, { 100, 200 }, { 0, 100 } }
local HOLE = { { 100, 80 }, { 120, 100 }, { 100, 120 }, { 80, 100 } }

local check_tiles = require("props2d").check_tiles -- T2D-043, G2D-225 properties

return {
  title = "A 45-degree diamond with a diamond hole: exact cuts, exact area, MaxVertsPerPoly 6, 3, 12",
  clauses = { "T2D-034", "T2D-042", "T2D-043", "T2D-052", "T2D-054", "G2D-203", "G2D-204",
              "G2D-222", "G2D-223", "G2D-225" },
  run = function(t)
    for _, mv in ipairs({ 6, 3, 12 }) do
      local S = { preset = "Large", agent_radius = 0, max_verts_per_poly = mv }
      local r = t:call("build2d.outlines", { settings = S, outlines = { D }, obstacles = { HOLE } })
      t:checkpoint("diamond-mvpp-" .. mv, "mesh", t:call("mesh.save", { mesh = r.handle }).bytes)
      local a2 = check_tiles(t, r, 64, mv)
      t:check(a2 == 2 * 19200 * UNIT * UNIT, "exact area with MaxVertsPerPoly " .. mv)
      t:check(#r.tiles == 11, "11 tiles")
    end
  end,
}
