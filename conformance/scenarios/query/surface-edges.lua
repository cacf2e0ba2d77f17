-- query/surface-edges: hand-made edge cases of raycast and move along surface
-- (spec/query-surface.md) on meshes of unit squares (conformance/lib/query.lua, grid: world =
-- local on tile (0, 0), cell (i, j) polygon 4j + i without holes), every expected value
-- derived by hand from the clauses: a ray along an edge (QSF-104: collinear edges are never
-- crossed), through vertices (the edge starting at the vertex first), grazing the end of a
-- wall and passing on, starting on a portal (crossed at t = 0), zero length, the visited cap,
-- partial portals across a tile border and through a border vertex (QSF-105), walls, normals
-- and costs (QSF-106, QSF-107); moves that reach the end, stop at walls with ties, hit the
-- cap (QSF-111 .. QSF-116); and the errors of QSF-192 with their values, in their order.
local Q = require("query")
local S = require("query_surface")

return {
  title = "Surface query edge cases: vertices, edges, portals, walls, caps, errors",
  clauses = { "QRY-001", "QSF-101", "QSF-102", "QSF-103", "QSF-104", "QSF-105", "QSF-106",
              "QSF-107", "QSF-108", "QSF-110", "QSF-111", "QSF-112", "QSF-113", "QSF-114",
              "QSF-115", "QSF-116", "QSF-190", "QSF-191", "QSF-192" },
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
    local function ids(list, want)   -- want: {x, z, index} or an index of tile (0, 0)
      if #list ~= #want then return false end
      for i, p in ipairs(list) do
        local w = type(want[i]) == "table" and want[i] or { 0, 0, want[i] }
        if p.id[1] ~= w[1] or p.id[2] ~= w[2] or p.id[4] ~= w[3] then return false end
      end
      return true
    end
    local b = t:table()
    local V
    local function ray(m, k, s, e, extra, tx, tz)
      local a = { mesh = m, poly = ref(m, tx or 0, tz or 0, k), start = s, ["end"] = e }
      for key, v in pairs(extra or {}) do a[key] = v end
      local r = t:call("query.raycast", a)
      S.put_ray(b, r)
      S.check_ray(t, V, r, s, e, { id = { tx or 0, tz or 0, 0, k } }, "ray " .. table.concat(s, ",") ..
                  " -> " .. table.concat(e, ","))
      return r
    end
    local function move(m, k, s, e, extra, tx, tz)
      local a = { mesh = m, poly = ref(m, tx or 0, tz or 0, k), start = s, ["end"] = e }
      for key, v in pairs(extra or {}) do a[key] = v end
      local r = t:call("query.move_along_surface", a)
      S.put_move(b, r)
      S.check_move(t, V, r, { id = { tx or 0, tz or 0, 0, k } }, "move " .. table.concat(e, ","))
      return r
    end

    -- tile (0, 0) of 4 x 4 cells of 1, tile (1, 0) of 2 x 2 cells of 2 (partial portals)
    local m = new_mesh()
    local tiles = { add(m, Q.grid(0, 0, 0, 0, 4)), add(m, Q.grid(1, 0, 0, 0, 2)) }
    V = Q.views(t, tiles)
    local before = t:call("mesh.save", { mesh = m }).bytes
    local r = ray(m, 0, { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }, { costs = true })
    t:check(r.status == "end" and r.t == 1 and ids(r.path, { 0, 1, 2, 3 }) and math.abs(r.cost - 3) < 1e-12,
            "along row 0: end, polygons 0 .. 3, cost 3")
    r = ray(m, 0, { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }, { max_visited = 2, costs = true })
    t:check(r.status == "limit" and r.t == 0.5 and ids(r.path, { 0, 1 }) and r.cost == 1.5,
            "max_visited 2: limit at the crossing x = 2, t = 0.5, cost 1.5")
    r = ray(m, 0, { 0.5, 0, 0.5 }, { 0.5, 0, 0.5 })
    t:check(r.status == "end" and r.t == 1 and ids(r.path, { 0 }) and r.cost == nil, "zero length: end")
    -- through the vertices (1, 1) and (2, 2): the edge starting at the vertex first
    r = ray(m, 0, { 0.5, 0, 0.5 }, { 2.5, 0, 2.5 })
    t:check(r.status == "end" and ids(r.path, { 0, 4, 5, 9, 10 }), "diagonal up: 0, 4, 5, 9, 10")
    r = ray(m, 10, { 2.5, 0, 2.5 }, { 0.5, 0, 0.5 })
    t:check(r.status == "end" and ids(r.path, { 10, 6, 5, 1, 0 }), "diagonal down: 10, 6, 5, 1, 0")
    -- along the internal edge x = 1: collinear edges are never crossed
    r = ray(m, 0, { 1, 0, 0.5 }, { 1, 0, 3.5 })
    t:check(r.status == "end" and ids(r.path, { 0, 4, 8, 12 }), "along x = 1 from polygon 0")
    r = ray(m, 1, { 1, 0, 0.5 }, { 1, 0, 3.5 })
    t:check(r.status == "end" and ids(r.path, { 1, 5, 9, 13 }), "along x = 1 from polygon 1")
    -- on the portal x = 1: crossed at t = 0; back to the border x = 0, a wall
    r = ray(m, 0, { 1, 0, 0.5 }, { 3.5, 0, 0.5 })
    t:check(r.status == "end" and ids(r.path, { 0, 1, 2, 3 }), "start on a portal, outward: crossed at once")
    r = ray(m, 1, { 1, 0, 0.5 }, { -1, 0, 0.5 }, { costs = true })
    t:check(r.status == "wall" and r.t == 0.5 and r.edge == 3 and r.normal[1] == 1 and r.normal[2] == 0 and
            r.normal[3] == 0 and ids(r.path, { 1, 0 }) and r.cost == 1, "the border x = 0: wall, normal +x")
    r = ray(m, 12, { 0.5, 0, 3.5 }, { 0.5, 0, 9 })
    t:check(r.status == "wall" and r.edge == 2 and r.normal[3] == -1 and r.t == 0.5 / 5.5,
            "the border z = 4: wall, normal -z")
    -- across the tile border: cells of 1 against cells of 2
    r = ray(m, 4, { 0.5, 0, 1.5 }, { 7.5, 0, 1.5 })
    t:check(r.status == "end" and ids(r.path, { 4, 5, 6, 7, { 1, 0, 0 }, { 1, 0, 1 } }), "across partial portals")
    -- through the border vertex (4, 2) and the vertex (2, 1)
    r = ray(m, 0, { 0.5, 0, 0.25 }, { 7.5, 0, 3.75 })
    t:check(r.status == "end" and r.path[#r.path].id[1] == 1 and r.path[#r.path].id[4] == 3,
            "through the border vertex (4, 2) into tile (1, 0) polygon 3")
    -- along the tile border z = 0 (collinear with every bottom edge)
    r = ray(m, 0, { 0.5, 0, 0 }, { 7.5, 0, 0 })
    t:check(r.status == "end" and ids(r.path, { 0, 1, 2, 3, { 1, 0, 0 }, { 1, 0, 1 } }), "along the border z = 0")
    -- a filter closing tile (1, 0) polygon 0: the tile border becomes a wall
    t:call("mesh.set_poly_flags", { mesh = m, ref = ref(m, 1, 0, 0), flags = 2 })
    r = ray(m, 4, { 0.5, 0, 1.5 }, { 7.5, 0, 1.5 }, { filter = { exclude = 2 }, costs = true })
    t:check(r.status == "wall" and r.t == 0.5 and ids(r.path, { 4, 5, 6, 7 }) and r.edge == 1 and
            math.abs(r.cost - 3.5) < 1e-12, "closed link: wall at x = 4")
    local costs = {}
    for i = 1, 64 do costs[i] = 1 end
    costs[1] = 2
    r = ray(m, 4, { 0.5, 0, 1.5 }, { 7.5, 0, 1.5 }, { costs = true, filter = { costs = costs } })
    t:check(r.status == "end" and math.abs(r.cost - 14) < 1e-12, "area 0 costs 2: cost 14")
    t:call("mesh.set_poly_flags", { mesh = m, ref = ref(m, 1, 0, 0), flags = 1 })

    -- moves on the same mesh
    local mv = move(m, 0, { 0.5, 0, 0.5 }, { 3.5, 7, 0.5 })
    t:check(mv.point[1] == 3.5 and mv.point[2] == 0 and mv.point[3] == 0.5 and ids(mv.visited, { 0, 1, 2, 3 }) and
            not mv.truncated, "move reaches the end, height 0")
    mv = move(m, 0, { 0.5, 0, 0.5 }, { 0.5, 0, 5 })
    t:check(mv.point[1] == 0.5 and mv.point[3] == 4 and ids(mv.visited, { 0, 4, 8, 12 }), "move stops at the wall z = 4")
    mv = move(m, 0, { 0.5, 0, 0.5 }, { 0.5, 0, 5 }, { max_visited = 2 })
    -- polygon 0 offers 1 (its right edge comes first, and its portal is within the circle),
    -- then 4 finds the cap; polygon 1's walls are farther: the best is (0, 1) on polygon 0's
    -- left wall (distance 16.25, below the bottom wall's 25)
    t:check(mv.truncated and ids(mv.visited, { 0 }) and mv.point[1] == 0 and mv.point[3] == 1,
            "max_visited 2: truncated, the wall of polygon 0")
    mv = move(m, 4, { 0.5, 0, 1.5 }, { 7.5, 0, 1.5 })
    t:check(mv.point[1] == 7.5 and mv.poly.id[1] == 1 and mv.poly.id[4] == 1 and #mv.visited == 6, "move across tiles")
    mv = move(m, 5, { 1.5, 0, 1.5 }, { 1.5, 0, 1.5 })
    t:check(mv.point[1] == 1.5 and ids(mv.visited, { 5 }), "move of zero length")
    -- a start outside its polygon is allowed (QSF-110)
    mv = move(m, 0, { 1.75, 0, 0.5 }, { 1.75, 0, -3 })
    t:check(mv.point[1] == 1.75 and mv.point[3] == 0 and ids(mv.visited, { 0, 1 }), "start outside: the wall of polygon 1")

    -- the ring around a 2 x 2 hole; a raised tile for heights
    local ring = new_mesh()
    local rt = add(ring, Q.grid(0, 0, 0, 0.25, 4, { ["1,1"] = true, ["2,1"] = true, ["1,2"] = true, ["2,2"] = true }))
    V = Q.views(t, { rt })
    mv = move(ring, 0, { 0.5, 0, 0.5 }, { 2, 0, 2 })
    t:check(mv.point[1] == 2 and mv.point[2] == 0.25 and mv.point[3] == 1 and ids(mv.visited, { 0, 1 }),
            "ring: (2, 1) of polygon 1, first of the equal distances; height 0.25")
    mv = move(ring, 1, { 1.5, 0, 0.5 }, { 2, 0, 1.25 })
    t:check(mv.point[1] == 2 and mv.point[3] == 1 and ids(mv.visited, { 1 }), "ring: a tie on the shared vertex stays with polygon 1")
    r = ray(ring, 0, { 0.5, 0, 0.5 }, { 2.5, 0, 2.5 })
    t:check(r.status == "wall" and ids(r.path, { 0, 4 }) and r.edge == 1 and r.t == 0.25, "ring: the diagonal hits the hole's corner")

    -- grazing the end of a wall: hole at cell (0, 1); the edge starting at (1, 1) is a wall,
    -- the one ending there open: the ray passes on
    local g = new_mesh()
    local gt = add(g, Q.grid(0, 0, 0, 0, 4, { ["0,1"] = true }))
    V = Q.views(t, { gt })
    r = ray(g, 0, { 0.5, 0, 0.5 }, { 2.5, 0, 2.5 })
    t:check(r.status == "end" and ids(r.path, { 0, 1, 4, 8, 9 }), "grazing a wall's end: passes by the other edge")
    -- a polygon with nothing around it: max_visited 1 is valid; with no wall in the start
    -- polygon (all four edges open) and the cap at once, the best stays the start (QSF-114)
    V = Q.views(t, tiles)
    mv = move(m, 5, { 1.5, 0, 1.5 }, { 3.5, 0, 3.5 }, { max_visited = 1 })
    t:check(mv.truncated and mv.point[1] == 1.5 and mv.point[3] == 1.5 and ids(mv.visited, { 5 }),
            "max_visited 1, no wall: the start point")
    r = ray(m, 5, { 1.5, 0, 1.5 }, { 3.5, 0, 3.5 }, { max_visited = 1 })
    t:check(r.status == "limit" and r.t == 0.25 and ids(r.path, { 5 }), "max_visited 1: limit at (2, 2)")
    t:checkpoint("surface edge answers", "table", b:hex())

    -- end points made inside (QSF-115): one triangle with a slanted wall, moves toward points
    -- beyond it; a rounded closest point outside the triangle is moved toward the centre
    local tri = new_mesh()
    local A0, B0, C0 = { 0, 0, 0 }, { 4, 0, 0 }, { 0.296875, 0, 3.703125 }
    local th = add(tri, { x = 0, z = 0, layer = 0, tiling = Q.TILING, origin_y = 0,
                          verts = { A0, B0, C0 }, polys = { { verts = { 0, 1, 2 }, neis = { 0x8003, 0, 0 },
                                                            area = 0, flags = 1 } } })
    V = Q.views(t, { th })
    local tv = V["0,0,0"].verts
    local bx, bz, cx, cz = tv[2][1], tv[2][3], tv[3][1], tv[3][3]
    local g2 = t:call("prng.new", { seed = "00000000000051de" }).handle
    local bt = t:table()
    local moved, n = 0, 0
    local tref = ref(tri, 0, 0, 0)
    for i = 1, 60 do
      local u = t:call("prng.unit", { prng = g2, count = 2 }).values
      local ex, ez = 2.15 + u[1] * 3, 1.85 + u[2] * 3
      local res = t:call("query.move_along_surface", { mesh = tri, poly = tref, start = { 1, 0, 1 },
                                                      ["end"] = { ex, 0, ez } })
      S.put_move(bt, res)
      -- the closest point of the slanted edge (QRY-041, the same binary64 steps)
      local ux, uz = cx - bx, cz - bz
      local tt = ((ex - bx) * ux + (ez - bz) * uz) / (ux * ux + uz * uz)
      tt = tt < 0 and 0 or (tt > 1 and 1 or tt)
      local qx, qz = bx + ux * tt, bz + uz * tt
      if res.point[1] ~= qx or res.point[3] ~= qz then moved = moved + 1 end
      local back = t:call("query.raycast", { mesh = tri, poly = tref, start = res.point, ["end"] = { 1, 0, 1 } })
      if back.status == "end" then n = n + 1 end
    end
    t:check(moved >= 5, "some end points were moved inside (QSF-115): " .. moved)
    t:check(n == 60, "every end point starts a raycast (inside its polygon, QSF-103)")
    t:checkpoint("end points made inside", "table", bt:hex())

    -- errors (QSF-192), in the order of QSF-191 and QSF-101
    local p0 = ref(m, 0, 0, 0)
    local A, E = { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }
    local NAN, INF = 0 / 0, 1 / 0
    local function e(op, args, kind, field, value)
      args.mesh = args.mesh or m
      t:expect_error(op, args, { kind = kind, field = field, value = value })
    end
    for _, op in ipairs({ "query.raycast", "query.move_along_surface" }) do
      e(op, { poly = p0, start = { NAN, 0, 0 }, ["end"] = E }, "out_of_range", "start[0]", "NaN")
      e(op, { poly = p0, start = A, ["end"] = { 0, 0, INF } }, "out_of_range", "end[2]", "Infinity")
      e(op, { poly = p0, start = A, ["end"] = { 0, -5e6, 0 } }, "out_of_range", "end[1]", "-5e+06")
      local bad = {}
      for i = 1, 64 do bad[i] = 1 end
      bad[6] = -1
      e(op, { poly = p0, start = A, ["end"] = E, filter = { costs = bad } }, "out_of_range", "filter.costs[5]", "-1")
      e(op, { poly = p0, start = A, ["end"] = E, max_visited = 0 }, "out_of_range", "max_visited", "0")
      e(op, { poly = p0, start = A, ["end"] = E, max_visited = 65537 }, "out_of_range", "max_visited", "65537")
      e(op, { poly = p0, start = A, ["end"] = E, max_visited = -1 }, "argument", "max_visited", "")
      e(op, { poly = "0000000000000000", start = A, ["end"] = E }, "argument", "poly", "0000000000000000")
      e(op, { poly = "0000000000000000", start = { NAN, 0, 0 }, ["end"] = E }, "out_of_range", "start[0]", "NaN")
      e(op, { poly = "0000000000000000", start = A, ["end"] = E, max_visited = 0 }, "out_of_range", "max_visited", "0")
      e(op, { poly = "zz", start = { NAN, 0, 0 }, ["end"] = E }, "argument", "poly", "")
      e(op, { start = A, ["end"] = E }, "argument", "poly", "")
      e(op, { poly = p0, start = { 1, 2 }, ["end"] = E }, "argument", "start", "")
      e(op, { poly = p0, start = A, ["end"] = { 1, "x", 2 } }, "argument", "end[1]", "")
      e(op, { poly = p0, start = A, ["end"] = E, filter = 3 }, "argument", "filter", "")
      e(op, { poly = p0, start = A, ["end"] = E, filter = { include = 2 } }, "argument", "poly", p0)
      e(op, { mesh = 999, poly = p0, start = A, ["end"] = E }, "argument", "mesh", "999")
    end
    e("query.raycast", { poly = p0, start = { 1.5, 0, 0.5 }, ["end"] = E }, "argument", "start", "1.5,0,0.5")
    e("query.raycast", { poly = p0, start = { -0.0, 0, 3.5 }, ["end"] = E }, "argument", "start", "0,0,3.5")
    e("query.raycast", { poly = p0, start = A, ["end"] = E, costs = 1 }, "argument", "costs", "")
    e("query.raycast", { poly = p0, start = A, ["end"] = E, costs = 1, max_visited = 0 }, "argument", "costs", "")
    t:check(t:call("mesh.save", { mesh = m }).bytes == before, "the mesh is unchanged by the queries (QRY-001)")
    -- stale after ReplaceTile (QRY-022)
    t:call("mesh.replace_tile", { mesh = m, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 4)).handle })
    e("query.move_along_surface", { poly = p0, start = A, ["end"] = E }, "argument", "poly", p0)
    e("query.raycast", { poly = p0, start = A, ["end"] = E }, "argument", "poly", p0)
  end,
}
