-- Coordinates near the bound +-2^21 (T2D-023, T2D-055): squares touching x = 2^21 and
-- x = -2^21 build; with TileOrigin.x = 1 the tile holding x just below 2^21 spans
-- [2^21 - 63, 2^21 + 1] and the tile validator refuses it, naming the column 32767
-- (FMT-006); a coordinate beyond 2^21 is refused naming it.
local M = 2097152
local S = { preset = "Large", agent_radius = 0 }
local UNIT = 512

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
