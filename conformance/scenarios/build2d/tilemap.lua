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

-- Properties of every output (T2D-043, G2D-225): polygons convex and counter-clockwise
-- exactly (integer orientation of the coordinates times 512), at most 6 vertices, portal
-- edges on their side, overlapping portal edges of neighbouring tiles identical. Returns
-- the total area (twice, in units^2) and the number of polygons.
local function check_tiles(t, res, W, maxv)
  local fw = W * UNIT
  local area2, npolys, portals = 0, 0, {}
  for _, ti in ipairs(res.tiles) do
    local v = t:call("tile.view", { tile = ti.handle })
    local P = {}
    for i, p in ipairs(v.verts) do
      local x, z = math.tointeger(p[1] * UNIT), math.tointeger(p[3] * UNIT)
      t:check(x ~= nil and z ~= nil and p[2] == 0, "vertex on the grid, y = 0")
      P[i - 1] = { x or 0, z or 0 }
    end
    local sides = { [0] = {}, {}, {}, {} }
    for _, poly in ipairs(v.polys) do
      local n = #poly.verts
      npolys = npolys + 1
      t:check(n >= 3 and n <= (maxv or 6), "3 to MaxVertsPerPoly vertices")
      for j = 1, n do
        local a, b, c = P[poly.verts[j]], P[poly.verts[j % n + 1]], P[poly.verts[(j + 1) % n + 1]]
        local o = (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1])
        local dot = (b[1] - a[1]) * (c[1] - b[1]) + (b[2] - a[2]) * (c[2] - b[2])
        t:check(o > 0 or (o == 0 and dot > 0), "convex, counter-clockwise turn")
        area2 = area2 + a[1] * b[2] - a[2] * b[1]
        local nei = poly.neis[j]
        if nei >= 0x8000 then
          local s = nei - 0x8000
          local on = (s == 0 and a[1] == 0 and b[1] == 0) or (s == 2 and a[1] == fw and b[1] == fw)
                     or (s == 1 and a[2] == fw and b[2] == fw) or (s == 3 and a[2] == 0 and b[2] == 0)
          t:check(on, "portal edge on its side")
          local lo, hi
          if s == 0 or s == 2 then lo, hi = math.min(a[2], b[2]), math.max(a[2], b[2])
          else lo, hi = math.min(a[1], b[1]), math.max(a[1], b[1]) end
          table.insert(sides[s], { lo, hi })
        end
      end
    end
    portals[ti.x .. "," .. ti.z] = sides
  end
  -- a portal edge on side 2 of (x, z) and one on side 0 of (x + 1, z) that overlap are
  -- identical; the same for side 1 of (x, z) and side 3 of (x, z + 1)
  for _, ti in ipairs(res.tiles) do
    local me = portals[ti.x .. "," .. ti.z]
    for _, pair in ipairs({ { 2, (ti.x + 1) .. "," .. ti.z, 0 }, { 1, ti.x .. "," .. (ti.z + 1), 3 } }) do
      local other = portals[pair[2]]
      if other then
        for _, e in ipairs(me[pair[1]]) do
          for _, f in ipairs(other[pair[3]]) do
            if math.max(e[1], f[1]) < math.min(e[2], f[2]) then
              t:check(e[1] == f[1] and e[2] == f[2], "overlapping portal edges are identical")
            end
          end
        end
      end
    end
  end
  return area2, npolys
end

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
