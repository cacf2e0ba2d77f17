-- query/surface-box-random-wall: hand-made cases of polygons in a box, random point and
-- distance to wall (spec/query-surface.md sections 4 .. 6) on meshes of unit squares
-- (conformance/lib/query.lua, grid: world = local on tile (0, 0), cell (i, j) polygon 4j + i),
-- expected values derived by hand: a box touching one polygon at a point (QSF-121), the
-- canonical order across tiles and the cap (QSF-122); random points on one triangle and on a
-- filtered mesh, the same draws whatever the tile order (QSF-130 .. QSF-133); wall ties,
-- radius limits, a centre on a wall, the cap (QSF-140 .. QSF-143); errors with values.
local Q = require("query")
local S = require("query_surface")

return {
  title = "Polygons in a box, random point, distance to wall: edge cases and errors",
  clauses = { "QRY-001", "QSF-120", "QSF-121", "QSF-122", "QSF-130", "QSF-131", "QSF-132",
              "QSF-133", "QSF-140", "QSF-141", "QSF-142", "QSF-143", "QSF-190", "QSF-191",
              "QSF-192" },
  run = function(t)
    local function new_mesh()
      return t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
    end
    local function add(m, desc)
      local h = t:call("tile.create", desc).handle
      t:call("mesh.add_tile", { mesh = m, tile = h })
      return h
    end
    local function ref(m, x, z, k)
      return t:call("mesh.poly_ref", { mesh = m, x = x, z = z, layer = 0, poly = k }).ref
    end
    local function ids(list, want)
      if #list ~= #want then return false end
      for i, p in ipairs(list) do
        local w = want[i]
        if p.id[1] ~= w[1] or p.id[2] ~= w[2] or p.id[4] ~= w[3] then return false end
      end
      return true
    end
    local b = t:table()
    local m = new_mesh()
    local tiles = { add(m, Q.grid(1, 0, 0, 0, 2)), add(m, Q.grid(0, 0, 0, 0, 4)) }
    local V = Q.views(t, tiles)
    local before = t:call("mesh.save", { mesh = m }).bytes
    local function box(c, h, extra)
      local a = { mesh = m, center = c, half_extents = h }
      for k, v in pairs(extra or {}) do a[k] = v end
      local r = t:call("query.polys_in_box", a)
      S.put_box(b, r)
      S.check_box(t, r, "box " .. table.concat(c, ","))
      return r
    end
    -- tile (1, 0) spans x 4 .. 8: its polygon 3 (x 6 .. 8, z 2 .. 4) has the corner (8, 4)
    local r = box({ 9, 0, 5 }, { 1, 1, 1 })
    t:check(ids(r.polys, { { 1, 0, 3 } }) and not r.truncated, "a box touching one polygon at a point")
    r = box({ 9, 0, 5 }, { 0.5, 1, 1 })
    t:check(#r.polys == 0 and not r.truncated, "a box just off the corner: none")
    r = box({ 4, 0, 2 }, { 0.5, 0.5, 0.5 })
    t:check(ids(r.polys, { { 0, 0, 7 }, { 0, 0, 11 }, { 1, 0, 0 }, { 1, 0, 2 } }),
            "across the tile border: canonical order, tile (0, 0) first although added second")
    r = box({ 4, 0, 2 }, { 0.5, 0.5, 0.5 }, { max_polys = 3 })
    t:check(r.truncated and ids(r.polys, { { 0, 0, 7 }, { 0, 0, 11 }, { 1, 0, 0 } }), "max_polys 3: truncated")
    r = box({ 4, 0, 2 }, { 0.5, 0.5, 0.5 }, { max_polys = 1 })
    t:check(r.truncated and ids(r.polys, { { 0, 0, 7 } }), "max_polys 1: the first in canonical order")
    r = box({ 9, 0, 5 }, { 1, 1, 1 }, { max_polys = 1 })
    t:check(not r.truncated and #r.polys == 1, "max_polys 1, one polygon: not truncated")
    r = box({ 4, 0, 2 }, { 0.5, 0.5, 0.5 }, { max_polys = 4 })
    t:check(not r.truncated and #r.polys == 4, "max_polys 4: exactly")
    r = box({ 2, 3, 2 }, { 4, 2.5, 4 })
    t:check(#r.polys == 0, "a box above the surface: none (y counts)")
    r = box({ 2, 3, 2 }, { 0.5, 3, 0.5 }, { filter = { exclude = 1 } })
    t:check(#r.polys == 0, "a filter excluding every polygon: none")

    -- distance to wall
    local function wall(k, c, radius, extra, mm, tx)
      local a = { mesh = mm or m, poly = ref(mm or m, tx or 0, 0, k), center = c, radius = radius }
      for key, v in pairs(extra or {}) do a[key] = v end
      local w = t:call("query.distance_to_wall", a)
      S.put_wall(b, w)
      S.check_wall(t, w, c, radius, "wall " .. table.concat(c, ","))
      return w
    end
    local w = wall(5, { 1.5, 0, 1.5 }, 3)
    t:check(w.found and w.distance == 1.5 and w.point[1] == 1.5 and w.point[3] == 0 and
            w.normal[1] == 0 and w.normal[3] == 1, "from polygon 5: z = 0 wall of polygon 1 first (tie with x = 0)")
    w = wall(5, { 1.5, 0, 1.5 }, 1.5)
    t:check(w.found and w.distance == 1.5, "a wall exactly at the radius counts (d <= r2)")
    w = wall(5, { 1.5, 0, 1.5 }, 1.25)
    t:check(not w.found and w.distance == 1.25 and w.point == nil, "no wall within the radius")
    w = wall(0, { 0.5, 0, 0 }, 1)
    t:check(w.found and w.distance == 0 and w.normal[1] == 0 and w.normal[3] == 0, "a centre on a wall: 0, normal 0")
    w = wall(5, { 1.5, 0, 1.5 }, 3, { max_visited = 1 })
    t:check(not w.found and w.truncated and w.visited == 1, "max_visited 1: polygon 5 has no wall")
    w = wall(3, { 7.5, 0, 3.5 }, 0.75, nil, m, 1)
    t:check(w.found and w.distance == 0.5 and w.point[1] == 8 and w.normal[1] == -1, "tile (1, 0) polygon 3: x = 8 before z = 4 (edge order)")
    local ring = new_mesh()
    local rt = add(ring, Q.grid(0, 0, 0, 0, 4, { ["1,1"] = true, ["2,1"] = true, ["1,2"] = true, ["2,2"] = true }))
    V = Q.views(t, { rt })
    w = wall(1, { 2, 0, 0.75 }, 2, nil, ring)
    t:check(w.found and w.distance == 0.25 and w.point[1] == 2 and w.point[3] == 1 and w.normal[3] == -1,
            "ring: the hole's edge above, polygon 1's (first of the tie with polygon 2)")

    -- random points: one triangle; then the grid mesh with a filter
    local tri = new_mesh()
    local th = add(tri, { x = 0, z = 0, layer = 0, tiling = Q.TILING, origin_y = 0.5,
                          verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 0.296875, 0, 3.703125 } },
                          polys = { { verts = { 0, 1, 2 }, neis = { 0x8003, 0, 0 }, area = 0, flags = 1 } } })
    V = Q.views(t, { th })
    local g = t:call("prng.new", { seed = "00000000000000c5" }).handle
    local inside = true
    for _ = 1, 30 do
      local p = t:call("query.random_point", { mesh = tri, prng = g })
      S.put_random(b, p)
      if not (p.found and p.point[2] == 0.5 and S.near_inside(Q.poly_verts(V, p.poly), p.point[1], p.point[3])) then
        inside = false
      end
    end
    t:check(inside, "random points on the triangle: inside, at its height 0.5")
    -- four draws per point (QSF-130): a fresh generator, four unit draws, then the next point
    local g1 = t:call("prng.new", { seed = "00000000000000c6" }).handle
    local g2 = t:call("prng.new", { seed = "00000000000000c6" }).handle
    t:call("query.random_point", { mesh = tri, prng = g1 })
    t:call("prng.unit", { prng = g2, count = 4 })
    local p1 = t:call("query.random_point", { mesh = tri, prng = g1 })
    local p2 = t:call("query.random_point", { mesh = tri, prng = g2 })
    t:check(p1.point[1] == p2.point[1] and p1.point[3] == p2.point[3], "a random point takes exactly four draws")
    -- none passes: not found, nothing drawn
    local n0 = t:call("query.random_point", { mesh = tri, prng = g1, filter = { include = 2 } })
    local p3 = t:call("query.random_point", { mesh = tri, prng = g1 })
    local p4 = t:call("query.random_point", { mesh = tri, prng = g2 })
    t:check(not n0.found and n0.point == nil and p3.point[1] == p4.point[1], "no candidate: not found, no draw")
    -- the grid mesh: tile (1, 0) cells are 4 times larger; only flag 2 polygons (column 0)
    V = Q.views(t, tiles)
    for k = 0, 3 do t:call("mesh.set_poly_flags", { mesh = m, ref = ref(m, 0, 0, 4 * k), flags = 2 }) end
    local col = true
    for _ = 1, 20 do
      local p = t:call("query.random_point", { mesh = m, prng = g, filter = { include = 2 } })
      S.put_random(b, p)
      if not (p.found and p.poly.id[1] == 0 and p.poly.id[4] % 4 == 0 and p.point[1] <= 1) then col = false end
    end
    t:check(col, "a filter: only column 0 of tile (0, 0)")
    for k = 0, 3 do t:call("mesh.set_poly_flags", { mesh = m, ref = ref(m, 0, 0, 4 * k), flags = 1 }) end
    local big = 0
    for _ = 1, 60 do
      local p = t:call("query.random_point", { mesh = m, prng = g })
      S.put_random(b, p)
      if p.poly.id[1] == 1 then big = big + 1 end
    end
    t:check(big >= 20 and big <= 40, "area-weighted: tile (1, 0) holds half the area: " .. big .. " of 60")
    t:checkpoint("box, random and wall answers", "table", b:hex())

    -- errors (QSF-192)
    local p0 = ref(m, 0, 0, 0)
    local NAN, INF = 0 / 0, 1 / 0
    local function e(op, args, kind, field, value)
      args.mesh = args.mesh or m
      t:expect_error(op, args, { kind = kind, field = field, value = value })
    end
    local H = { 1, 1, 1 }
    e("query.polys_in_box", { center = { NAN, 0, 0 }, half_extents = H }, "out_of_range", "center[0]", "NaN")
    e("query.polys_in_box", { center = { 0, 0, 0 }, half_extents = { 1, 0, 1 } }, "out_of_range", "half_extents[1]", "0")
    e("query.polys_in_box", { center = { 0, 0, 0 }, half_extents = { 1, 1, 5e6 } }, "out_of_range", "half_extents[2]", "5e+06")
    e("query.polys_in_box", { center = { 0, 0, 0 }, half_extents = H, max_polys = 0 }, "out_of_range", "max_polys", "0")
    e("query.polys_in_box", { center = { 0, 0, 0 }, half_extents = H, max_polys = 65537 }, "out_of_range", "max_polys", "65537")
    e("query.polys_in_box", { center = { INF, 0, 0 }, half_extents = H, max_polys = 0 }, "out_of_range", "center[0]", "Infinity")
    e("query.polys_in_box", { center = { 0, 0 }, half_extents = H }, "argument", "center", "")
    local bad = {}
    for i = 1, 64 do bad[i] = 1 end
    bad[64] = NAN
    e("query.polys_in_box", { center = { 0, 0, 0 }, half_extents = H, filter = { costs = bad } }, "out_of_range", "filter.costs[63]", "NaN")
    e("query.random_point", { prng = 999 }, "argument", "prng", "999")
    e("query.random_point", { prng = "g" }, "argument", "prng", "")
    e("query.random_point", { prng = g, filter = { costs = bad } }, "out_of_range", "filter.costs[63]", "NaN")
    e("query.distance_to_wall", { poly = p0, center = { 0, INF, 0 }, radius = 1 }, "out_of_range", "center[1]", "Infinity")
    e("query.distance_to_wall", { poly = p0, center = { 0.5, 0, 0.5 }, radius = 0 }, "out_of_range", "radius", "0")
    e("query.distance_to_wall", { poly = p0, center = { 0.5, 0, 0.5 }, radius = NAN }, "out_of_range", "radius", "NaN")
    e("query.distance_to_wall", { poly = p0, center = { 0.5, 0, 0.5 }, radius = 5e6 }, "out_of_range", "radius", "5e+06")
    e("query.distance_to_wall", { poly = p0, center = { 0.5, 0, 0.5 }, radius = "x" }, "argument", "radius", "")
    e("query.distance_to_wall", { poly = p0, center = { 0.5, 0, 0.5 }, radius = 1, filter = { costs = bad } },
      "out_of_range", "filter.costs[63]", "NaN")
    e("query.distance_to_wall", { poly = p0, center = { 0.5, 0, 0.5 }, radius = 1, max_visited = 0 }, "out_of_range", "max_visited", "0")
    e("query.distance_to_wall", { poly = "0000000000000000", center = { 0.5, 0, 0.5 }, radius = 1 }, "argument", "poly", "0000000000000000")
    e("query.distance_to_wall", { poly = "0000000000000000", center = { 0.5, 0, 0.5 }, radius = -1 }, "out_of_range", "radius", "-1")
    e("query.distance_to_wall", { poly = p0, center = { 0.5, 0, 0.5 }, radius = 1, filter = { include = 2 } }, "argument", "poly", p0)
    t:check(t:call("mesh.save", { mesh = m }).bytes == before, "the mesh is unchanged by the queries (QRY-001)")
  end,
}
