-- The three presets with their own agent radius (shrink, T2D-002 stage 2). Humanoid
-- (W = 19.2) and Small (W = 4.8) have tile lines off their grid (T2D-031 note), so their
-- regions stay inside one tile; Large (W = 64) crosses lines. A Humanoid region that
-- crosses line 1 (19.2) is refused, naming the line.
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
  title = "Presets Humanoid, Small, Large with their radius; Humanoid across a tile line refused",
  clauses = { "T2D-002", "T2D-011", "T2D-021", "T2D-031", "T2D-043", "T2D-071" },
  run = function(t)
    local h = t:call("build2d.outlines", { settings = { preset = "Humanoid" },
      outlines = { { { 1, 1 }, { 18, 1 }, { 18, 10 }, { 9, 10 }, { 9, 6 }, { 1, 6 } } } })
    t:checkpoint("humanoid", "mesh", t:call("mesh.save", { mesh = h.handle }).bytes)
    t:check(#h.tiles == 1, "Humanoid: one tile")
    check_tiles(t, h, 19.2)
    local s = t:call("build2d.outlines", { settings = { preset = "Small" },
      outlines = { { { 0.5, 0.5 }, { 4.5, 0.5 }, { 4.5, 3 }, { 0.5, 3 } } },
      obstacles = { { { 2, 1.5 }, { 3, 1.5 }, { 2.5, 2.25 } } } })
    t:checkpoint("small", "mesh", t:call("mesh.save", { mesh = s.handle }).bytes)
    t:check(#s.tiles == 1, "Small: one tile")
    local l = t:call("build2d.outlines", { settings = { preset = "Large" },
      outlines = { { { 0, 0 }, { 300, 0 }, { 300, 150 }, { 150, 150 }, { 150, 75 }, { 0, 75 } } },
      obstacles = { { { 60, 20 }, { 100, 20 }, { 100, 50 }, { 60, 50 } } } })
    t:checkpoint("large", "mesh", t:call("mesh.save", { mesh = l.handle }).bytes)
    check_tiles(t, l, 64)
    -- shrunk by 1.5: x 1.5 .. 298.5 (5 columns: lines 64, 128, 192, 256), z 1.5 .. 148.5
    -- (3 rows: lines 64, 128); rows 0 and 1 hold all 5 columns (the lower arm reaches
    -- z 73.5), row 2 (z > 128) only x > 151.5: columns 2, 3, 4. 13 tiles.
    t:check(#l.tiles == 13, "Large: 5 + 5 + 3 tiles")
    t:expect_error("build2d.outlines", { settings = { preset = "Humanoid" },
      outlines = { { { 1, 1 }, { 30, 1 }, { 30, 10 }, { 1, 10 } } } },
      { kind = "argument", field = "tile_line.x", value = "19.2" })
  end,
}
