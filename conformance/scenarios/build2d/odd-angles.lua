-- A level crossing many tile lines at odd angles: a 9-gon with integer corners over
-- [0, 200] x [0, 180], Large with TileSize 16 (W = 8): 24 X lines and 22 Z lines. Every
-- crossing of a boundary edge with a line is rounded once to the 1/512 grid, so the area
-- differs from the outline's by less than its perimeter times one unit (T2D-043).
local S0 = { preset = "Large", tile_cells = 16, agent_radius = 0 }
local UNIT = 512
local P = { { 3, 7 }, { 97, 2 }, { 181, 29 }, { 199, 90 }, { 163, 151 }, { 112, 179 },
            { 47, 171 }, { 9, 128 }, { 21, 61 } }

local check_tiles = require("props2d").check_tiles -- T2D-043, G2D-225 properties

local function rotated(o, k, rev)
  local r = {}
  for i = 0, #o - 1 do
    r[#r + 1] = rev and o[(k - i) % #o + 1] or o[(k + i) % #o + 1]
  end
  return r
end

return {
  title = "A 9-gon at odd angles across 24 x 22 tile lines: rounded crossings, same cuts on both sides",
  clauses = { "T2D-030", "T2D-031", "T2D-034", "T2D-040", "T2D-042", "T2D-043", "T2D-044",
              "T2D-054", "T2D-061", "G2D-204", "G2D-223", "G2D-225" },
  run = function(t)
    local r = t:call("build2d.outlines", { settings = S0, outlines = { P } })
    local m = t:call("mesh.save", { mesh = r.handle }).bytes
    t:checkpoint("polygon", "mesh", m)
    local a2 = check_tiles(t, r, 8)
    local exact2, perim = 0, 0
    for i = 1, #P do
      local a, b = P[i], P[i % #P + 1]
      exact2 = exact2 + a[1] * b[2] - a[2] * b[1]
      perim = perim + math.sqrt((b[1] - a[1]) ^ 2 + (b[2] - a[2]) ^ 2)
    end
    local diff = math.abs(a2 / (UNIT * UNIT) - exact2) / 2
    t:check(diff < perim / UNIT, "area within the boundary length times one unit")
    t:check(#r.tiles > 300, "hundreds of tiles")
    for k, rev in ipairs({ false, true, true }) do
      local r2 = t:call("build2d.outlines", { settings = S0, outlines = { rotated(P, 2 * k, rev) } })
      t:check(t:call("mesh.save", { mesh = r2.handle }).bytes == m, "start vertex and direction change nothing")
    end
    -- the preset's own radius: shrunk then sliced
    local r1 = t:call("build2d.outlines", { settings = { preset = "Large", tile_cells = 16 }, outlines = { P } })
    t:checkpoint("polygon-radius-1.5", "mesh", t:call("mesh.save", { mesh = r1.handle }).bytes)
    check_tiles(t, r1, 8)
  end,
}
