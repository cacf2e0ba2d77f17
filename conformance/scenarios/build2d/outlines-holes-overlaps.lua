-- Outlines that overlap, in both orientations, with obstacles that cut holes; the Large
-- preset's tiling (cell 0.5, 128 cells: W = 64, SnapBits 9), agent radius 0 (no shrink).
-- Region: [0,100]^2 union [50,150]^2 (17500) minus the holes [20,40]^2 (400) and
-- [60,140] x [100,120] (1600): area 15500. X and Z lines 64 and 128 are cut lines.
local S = { preset = "Large", agent_radius = 0 }
local UNIT = 512 -- 2^SnapBits: every local coordinate is a multiple of 1/512 here

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

local A = { { 0, 0 }, { 100, 0 }, { 100, 100 }, { 0, 100 } }
local B = { { 150, 150 }, { 50, 150 }, { 50, 50 }, { 150, 50 } } -- clockwise
local H1 = { { 20, 20 }, { 40, 20 }, { 40, 40 }, { 20, 40 } }
local H2 = { { 60, 100 }, { 140, 100 }, { 140, 120 }, { 60, 120 } }

-- the same outline from another start vertex, in the other direction
local function turned(o, k)
  local r = {}
  for i = 0, #o - 1 do r[#r + 1] = o[(k - i) % #o + 1] end
  return r
end

return {
  title = "Overlapping outlines in both orientations minus obstacles, cut by tile lines (Large)",
  clauses = { "T2D-001", "T2D-002", "T2D-013", "T2D-014", "T2D-030", "T2D-031", "T2D-034",
              "T2D-035", "T2D-040", "T2D-041", "T2D-042", "T2D-043", "T2D-044", "T2D-050",
              "T2D-051", "T2D-052", "T2D-053", "T2D-054", "T2D-060", "T2D-061", "T2D-071",
              "G2D-204", "G2D-206", "G2D-223", "G2D-225" },
  run = function(t)
    local r = t:call("build2d.outlines", { settings = S, outlines = { A, B }, obstacles = { H1, H2 } })
    local m = t:call("mesh.save", { mesh = r.handle })
    t:checkpoint("region", "mesh", m.bytes)
    t:check(#r.tiles == 9, "nine tiles: three columns, three rows")
    local area2, np = check_tiles(t, r, 64)
    t:check(area2 == 2 * 15500 * UNIT * UNIT, "the polygons cover the region exactly")
    t:check(np >= 9, "at least one polygon per tile")
    for i, ti in ipairs(r.tiles) do
      if i > 1 then
        local p = r.tiles[i - 1]
        t:check(p.z < ti.z or (p.z == ti.z and p.x < ti.x), "tiles in ascending (row, column)")
      end
    end
    local t0 = t:call("tile.save", { tile = r.tiles[1].handle })
    t:checkpoint("tile-0-0", "tile", t0.bytes)

    -- shuffled: outlines in the other order, other start vertices and directions, the
    -- obstacles swapped: the same bytes (T2D-044)
    local r2 = t:call("build2d.outlines", { settings = S, outlines = { turned(B, 2), turned(A, 1) },
                                             obstacles = { turned(H2, 3), H1 } })
    t:check(t:call("mesh.save", { mesh = r2.handle }).bytes == m.bytes, "shuffled input, same bytes")
  end,
}
