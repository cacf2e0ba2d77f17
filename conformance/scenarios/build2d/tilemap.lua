-- A tile map (20 x 12 cells of 2.5 units from (3, -5)) with blocked cells and an obstacle
-- covering four cells; Large with TileSize 16 (W = 8, SnapBits 9), so X lines 8 .. 48 and Z
-- lines 0 .. 24 cut it. Radius 0 first (the area is exact: walkable cells outside the
-- obstacle times 6.25), then the preset's radius 1.5 (shrunk, smaller).
local S0 = { preset = "Large", tile_cells = 16, agent_radius = 0 }
local S1 = { preset = "Large", tile_cells = 16 }
local UNIT = 512
local W, H = 20, 12

local function walkable(col, row)
  if row >= 4 and row <= 7 and col >= 6 and col <= 13 then return false end
  return (col * 3 + row * 5) % 11 ~= 0
end

local check_tiles = require("props2d").check_tiles -- T2D-043, G2D-225 properties

return {
  title = "A tile map with blocked cells and an obstacle, cut into 7 x 4 tiles; radius 0 and 1.5",
  clauses = { "T2D-001", "T2D-002", "T2D-043", "T2D-050", "T2D-052", "T2D-054", "T2D-060",
              "T2D-061", "T2D-072", "G2D-204", "G2D-223", "G2D-225" },
  run = function(t)
    local cells, count = {}, 0
    for row = 0, H - 1 do
      for col = 0, W - 1 do
        local c = walkable(col, row) and 1 or 0
        cells[#cells + 1] = c
        -- the obstacle covers cols 0..1, rows 0..1: x 3..8, z -5..0
        if c == 1 and not (col <= 1 and row <= 1) then count = count + 1 end
      end
    end
    local obstacle = { { 3, -5 }, { 8, -5 }, { 8, 0 }, { 3, 0 } }
    local args = { settings = S0, width = W, height = H, cells = cells, map_origin = { 3, -5 },
                   map_cell = 2.5, obstacles = { obstacle } }
    local r = t:call("build2d.tilemap", args)
    t:checkpoint("radius-0", "mesh", t:call("mesh.save", { mesh = r.handle }).bytes)
    local a2 = check_tiles(t, r, 8)
    t:check(a2 == 2 * count * 6.25 * UNIT * UNIT, "the polygons cover the walkable cells exactly")
    args.settings = S1
    local r1 = t:call("build2d.tilemap", args)
    t:checkpoint("radius-1.5", "mesh", t:call("mesh.save", { mesh = r1.handle }).bytes)
    local b2 = check_tiles(t, r1, 8)
    t:check(b2 < a2 and b2 > 0, "the shrunk region is smaller")
    t:expect_error("build2d.tilemap", { settings = S0, width = 2, height = 2, cells = { 1, 1, 1 },
                                        map_origin = { 0, 0 }, map_cell = 1 },
                   { kind = "argument", field = "cells" })
  end,
}
