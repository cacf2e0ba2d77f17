-- A level crossing many tile lines at odd angles: a 9-gon with integer corners over
-- [0, 200] x [0, 180], Large with TileSize 16 (W = 8): 24 X lines and 22 Z lines. Every
-- crossing of a boundary edge with a line is rounded once to the 1/512 grid, so the area
-- differs from the outline's by less than its perimeter times one unit (T2D-043).
local S0 = { preset = "Large", tile_cells = 16, agent_radius = 0 }
local UNIT = 512
local P = { { 3, 7 }, { 97, 2 }, { 181, 29 }, { 199, 90 }, { 163, 151 }, { 112, 179 },
            { 47, 171 }, { 9, 128 }, { 21, 61 } }

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
