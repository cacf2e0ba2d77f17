-- query/edges: hand-made meshes of unit squares (conformance/lib/query.lua, grid: tile-local
-- [0, 4], cells 1 x 1 with n = 4, origin 0, so world = local) and the edge cases of
-- spec/query.md, every expected value derived by hand from the clauses:
-- ties of the nearest polygon on a vertex, an internal edge, a tile border and a tile corner
-- (QRY-052); start = end (QRY-068 step 1); two routes of exactly equal cost around a hole
-- (QRY-067); the node cap reached exactly (QRY-068 step 5); the path cap (QRY-069);
-- disconnected islands and their partial route; filters (QRY-031, QRY-032); endpoint
-- acceptance at exactly two cells (QRY-061); heights and closest points (QRY-044 .. QRY-046);
-- straight paths with crossings (QRY-082 .. QRY-085); stale references after ReplaceTile
-- (QRY-002, QRY-022).
local Q = require("query")

local function id(x, z, l, p) return { x, z, l, p } end

return {
  title = "Query edge cases: ties, start = end, equal-cost routes, node and path caps, islands",
  clauses = { "QRY-002", "QRY-011", "QRY-012", "QRY-022", "QRY-023", "QRY-024", "QRY-031", "QRY-032", "QRY-041",
              "QRY-042", "QRY-044", "QRY-045", "QRY-046", "QRY-050", "QRY-051", "QRY-052",
              "QRY-061", "QRY-064", "QRY-065", "QRY-066", "QRY-067", "QRY-068", "QRY-069",
              "QRY-082", "QRY-083", "QRY-084", "QRY-085", "QRY-090" },
  run = function(t)
    local function same_id(p, want) return p.id[1] == want[1] and p.id[2] == want[2] and
                                          p.id[3] == want[3] and p.id[4] == want[4] end
    local function ids_are(list, want, tile)
      if #list ~= #want then return false end
      for i, p in ipairs(list) do
        if not same_id(p, { tile[1], tile[2], tile[3], want[i] }) then return false end
      end
      return true
    end
    local function new_mesh()
      return t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
    end
    local function add(m, desc)
      local h = t:call("tile.create", desc).handle
      t:call("mesh.add_tile", { mesh = m, tile = h })
      return h
    end
    local b = t:table()
    local function near(m, c, h)
      local r = t:call("query.nearest_poly", { mesh = m, center = c, half_extents = h or { 0.5, 1, 0.5 } })
      b:bool(r.found)
      if r.found then Q.put_poly(b, r.poly); Q.put_point(b, r.point) end
      return r
    end

    -- 2 x 2 tiles of 4 x 4 cells; tile (1, 0) 0.25 higher (within the climb: linked)
    local m = new_mesh()
    add(m, Q.grid(0, 0, 0, 0, 4))
    add(m, Q.grid(1, 0, 0, 0.25, 4))
    add(m, Q.grid(0, 1, 0, 0, 4))
    add(m, Q.grid(1, 1, 0, 0, 4))
    -- QRY-052 ties: all at distance 0, the smallest canonical id wins
    local r = near(m, { 1, 0, 1 })           -- a vertex of polygons 0, 1, 4, 5 of tile (0, 0)
    t:check(same_id(r.poly, id(0, 0, 0, 0)) and r.point[1] == 1 and r.point[3] == 1, "vertex tie: polygon 0")
    r = near(m, { 1, 0, 0.5 })               -- the internal edge between polygons 0 and 1
    t:check(same_id(r.poly, id(0, 0, 0, 0)), "internal edge tie: polygon 0")
    r = near(m, { 4, 0.1, 0.5 })             -- the tile border x = 4: (0,0,0,3) and (1,0,0,0)
    t:check(same_id(r.poly, id(0, 0, 0, 3)), "tile border: distance 0.1 below tile (1,0)'s 0.15 above")
    r = near(m, { 4, 0.125, 0.5 })           -- now equally far from both: the smaller id
    t:check(same_id(r.poly, id(0, 0, 0, 3)) and r.point[2] == 0, "tile border tie: tile (0, 0)")
    r = near(m, { 4, 0.2, 0.5 })             -- nearer to the higher tile
    t:check(same_id(r.poly, id(1, 0, 0, 0)) and r.point[2] == 0.25, "tile border: the higher tile")
    r = near(m, { 4, 0, 4 })                 -- the corner of the four tiles
    t:check(same_id(r.poly, id(0, 0, 0, 15)), "tile corner tie: (0, 0, 0, 15)")
    r = near(m, { 2.5, 3, 2.5 }, { 0.5, 1, 0.5 })  -- 3 above the surface: outside the box
    t:check(not r.found, "a point far above the surface is not sampled (QRY-051)")
    r = near(m, { 2.5, 3, 2.5 }, { 0.5, 3, 0.5 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 10)) and r.point[2] == 0, "sampled with a taller box")

    -- start = end (QRY-068 step 1), and one polygon with two points
    local f = t:call("query.find_path", { mesh = m, start = { 0.5, 0, 0.5 }, ["end"] = { 0.5, 0, 0.5 } })
    t:check(f.status == "found" and #f.path == 1 and f.cost == 0 and f.nodes == 1, "start = end")
    local s = t:call("query.straight_path", { mesh = m, start = { 0.5, 0, 0.5 }, ["end"] = { 0.5, 0, 0.5 },
                                              path = Q.refs(f.path) })
    t:check(#s.corners == 1 and s.corners[1].flags == 3, "start = end: one corner START|END (QRY-083)")
    Q.put_path(b, f); Q.put_corners(b, s.corners)
    f = t:call("query.find_path", { mesh = m, start = { 0.25, 0, 0.25 }, ["end"] = { 0.75, 0, 0.75 } })
    t:check(f.status == "found" and f.cost == math.sqrt(0.5), "one polygon: cost Dist(start, end)")
    Q.put_path(b, f)
    -- start on a vertex: polygon 0 by the tie; across the tile border to tile (1, 0)
    f = t:call("query.find_path", { mesh = m, start = { 1, 0, 1 }, ["end"] = { 4.5, 0.25, 0.5 } })
    t:check(f.status == "found" and same_id(f.start.poly, id(0, 0, 0, 0)) and
            same_id(f.path[#f.path].poly or f.path[#f.path], id(1, 0, 0, 0)), "vertex start to tile (1, 0)")
    Q.put_path(b, f)
    s = t:call("query.straight_path", { mesh = m, start = { 1, 0, 1 }, ["end"] = { 4.5, 0.25, 0.5 },
                                        path = Q.refs(f.path), crossings = "all" })
    Q.put_corners(b, s.corners)
    local inner = true
    for i = 2, #s.corners - 1 do if s.corners[i].flags ~= 0 then inner = false end end
    t:check(#s.corners >= 2 and inner, "all crossings: inner corners have flags 0 (QRY-083, QRY-084)")

    -- the ring: 4 x 4 cells without the middle 2 x 2; polygons row by row:
    --   row 0: 0 1 2 3; row 1: 4 (0,1), 5 (3,1); row 2: 6 (0,2), 7 (3,2); row 3: 8 9 10 11
    local ring_holes = { ["1,1"] = true, ["2,1"] = true, ["1,2"] = true, ["2,2"] = true }
    local m2 = new_mesh()
    local ring = add(m2, Q.grid(0, 0, 0, 0, 4, ring_holes))
    local T0 = { 0, 0, 0 }
    local A = { 0.5, 0, 0.5 }
    local E = { 3.5, 0, 3.5 }
    -- Two routes of equal cost 6 (every edge costs 0.5 + 0.5, QRY-065), mirror images, so
    -- every f ties with its mirror's; the open list takes the smaller id first (QRY-067):
    -- 1 before 4, 2 before 6, ... 7 before 10, so 11 is first reached from 7 and 10's equal
    -- g' does not replace it (QRY-068 step 5: strictly less). 12 nodes made.
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E })
    t:check(f.status == "found" and ids_are(f.path, { 0, 1, 2, 3, 5, 7, 11 }, T0), "equal-cost tie: along row 0")
    t:check(f.cost == 6 and f.nodes == 12, "equal-cost tie: cost 6, 12 nodes")
    Q.put_path(b, f)
    s = t:call("query.straight_path", { mesh = m2, start = A, ["end"] = E, path = Q.refs(f.path) })
    t:check(#s.corners == 3 and s.corners[2].point[1] == 3 and s.corners[2].point[3] == 1 and
            s.corners[2].flags == 0 and same_id(s.corners[2].poly, id(0, 0, 0, 5)),
            "the funnel bends at the hole's corner (3, 1), entering polygon 5")
    Q.put_corners(b, s.corners)
    Q.check_corners(t, Q.views(t, { ring }), f.path, s.corners, "ring")
    -- the node cap reached exactly: 12 nodes suffice; with 11 the 12th (polygon 11, from 7)
    -- cannot be made: node_limit, partial to the best node (least h: 7 and 10 tie, 7)
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E, max_nodes = 12 })
    t:check(f.status == "found" and f.nodes == 12, "max_nodes = nodes needed: found")
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E, max_nodes = 11 })
    t:check(f.status == "no_path" and f.reason == "node_limit" and f.nodes == 11 and f.path == nil and
            ids_are(f.partial, { 0, 1, 2, 3, 5, 7 }, T0), "max_nodes one short: node_limit, partial to 7")
    Q.put_path(b, f)
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E, max_nodes = 1 })
    t:check(f.status == "no_path" and f.reason == "node_limit" and ids_are(f.partial, { 0 }, T0),
            "max_nodes 1: only the start")
    -- the path cap: 7 polygons do not fit 6
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E, max_path = 6 })
    t:check(f.status == "no_path" and f.reason == "path_limit" and
            ids_are(f.partial, { 0, 1, 2, 3, 5, 7 }, T0), "max_path 6: path_limit, the first 6")
    Q.put_path(b, f)
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E, max_path = 7 })
    t:check(f.status == "found" and #f.path == 7, "max_path 7: found")
    -- filters: polygon 1 excluded by its flags, then its area made dear: the other route
    local p1 = t:call("mesh.poly_ref", { mesh = m2, x = 0, z = 0, layer = 0, poly = 1 }).ref
    t:call("mesh.set_poly_flags", { mesh = m2, ref = p1, flags = 3 })
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E, filter = { exclude = 2 } })
    t:check(f.status == "found" and ids_are(f.path, { 0, 4, 6, 8, 9, 10, 11 }, T0), "exclude flag 2: the other route")
    Q.put_path(b, f)
    t:call("mesh.set_poly_flags", { mesh = m2, ref = p1, flags = 1 })
    t:call("mesh.set_poly_area", { mesh = m2, ref = p1, area = 5 })
    local costs = {}
    for i = 1, 64 do costs[i] = 1 end
    costs[6] = 2 -- area 5
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E, filter = { costs = costs } })
    t:check(f.status == "found" and ids_are(f.path, { 0, 4, 6, 8, 9, 10, 11 }, T0) and f.cost == 6,
            "area 5 costs 2: the other route, cost 6")
    costs[6] = 0 -- area 5 free: polygon 1 costs nothing, route A costs 5
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E, filter = { costs = costs } })
    t:check(f.status == "found" and ids_are(f.path, { 0, 1, 2, 3, 5, 7, 11 }, T0) and f.cost == 5,
            "area 5 free: route along row 0, cost 5")
    Q.put_path(b, f)
    s = t:call("query.straight_path", { mesh = m2, start = A, ["end"] = E, path = Q.refs(f.path),
                                        crossings = "area" })
    -- area crossings: portals 0 (area 0 -> 5) and 1 (5 -> 0) are crossed before the corner
    t:check(#s.corners == 5 and s.corners[2].point[1] == 1 and s.corners[3].point[1] == 2,
            "area crossings at x = 1 and x = 2 (QRY-084)")
    Q.put_corners(b, s.corners)
    -- all crossings: start, x = 1, 2, then the crossing of portal 2 at (3, 1) into which the
    -- corner (3, 1) merges (QRY-083), then z = 2 and z = 3 on the way up, the end: 7 corners
    t:expect_error("query.straight_path", { mesh = m2, start = A, ["end"] = E, path = Q.refs(f.path),
                                            crossings = "all", max_corners = 6 },
                   { kind = "limit", field = "max_corners", value = "7" })
    t:call("mesh.set_poly_area", { mesh = m2, ref = p1, area = 0 })

    -- islands: column 2 missing; polygons row by row: (0,j) (1,j) (3,j) -> 3j, 3j+1, 3j+2
    local m3 = new_mesh()
    add(m3, Q.grid(0, 0, 0, 0, 4, { ["2,0"] = true, ["2,1"] = true, ["2,2"] = true, ["2,3"] = true }))
    f = t:call("query.find_path", { mesh = m3, start = A, ["end"] = E })
    -- best node: least h among the left island, (1, 3) = polygon 10 at distance 2
    t:check(f.status == "no_path" and f.reason == "disconnected" and f.nodes == 8 and
            same_id(f.partial[#f.partial], id(0, 0, 0, 10)), "islands: disconnected, partial to polygon 10")
    Q.put_path(b, f)

    -- acceptance (QRY-061): 2 cells = 1.0 across, climb + 2 cell heights = 1.0 up
    f = t:call("query.find_path", { mesh = m2, start = { -1, 1, 0.5 }, ["end"] = E })
    t:check(f.start.point[1] == 0 and f.start.point[2] == 0 and f.start.point[3] == 0.5,
            "an endpoint exactly two cells off and 1.0 above is accepted")
    t:expect_error("query.find_path", { mesh = m2, start = { -1.25, 0, 0.5 }, ["end"] = E },
                   { kind = "out_of_range", field = "start", value = "-1.25,0,0.5" })
    t:expect_error("query.find_path", { mesh = m2, start = A, ["end"] = { 3.5, 1.5, 3.5 } },
                   { kind = "out_of_range", field = "end", value = "3.5,1.5,3.5" })
    t:expect_error("query.find_path", { mesh = m2, start = A, ["end"] = E, filter = { include = 4 } },
                   { kind = "out_of_range", field = "start", value = "0.5,0,0.5" })

    -- one polygon (QRY-044 .. QRY-046), on tile (1, 0) 0.25 higher
    local q0 = t:call("mesh.poly_ref", { mesh = m, x = 1, z = 0, layer = 0, poly = 0 }).ref
    local h = t:call("query.poly_height", { mesh = m, poly = q0, x = 4.5, z = 0.5 })
    t:check(h.inside and h.height == 0.25, "height inside")
    h = t:call("query.poly_height", { mesh = m, poly = q0, x = 5.5, z = 0.5 })
    t:check(not h.inside and h.height == nil, "outside: no height")
    h = t:call("query.poly_height", { mesh = m, poly = q0, x = 5, z = 1 })
    t:check(h.inside and h.height == 0.25, "on a vertex: inside (closed polygon)")
    local c = t:call("query.closest_point", { mesh = m, poly = q0, pos = { 3.5, 1, 0.25 } })
    t:check(not c.over and c.point[1] == 4 and c.point[2] == 0.25 and c.point[3] == 0.25, "closest point from outside")
    c = t:call("query.closest_point", { mesh = m, poly = q0, pos = { 4.25, -3, 0.75 } })
    t:check(c.over and c.point[1] == 4.25 and c.point[2] == 0.25 and c.point[3] == 0.75, "closest point over")
    -- QRY-011: a coordinate below 2^-400 counts as 0 in every sign, so -1e-130 is on the
    -- left edge x = 0 of polygon (0, 0, 0, 0), inside; the point keeps the given x
    local p00 = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 0 }).ref
    c = t:call("query.closest_point", { mesh = m, poly = p00, pos = { -1e-130, 0, 0.5 } })
    t:check(c.over and c.point[1] == -1e-130 and c.point[3] == 0.5, "a coordinate below 2^-400 is 0 for signs")
    c = t:call("query.closest_point", { mesh = m, poly = p00, pos = { -1e-100, 0, 0.5 } })
    t:check(not c.over and c.point[1] == 0, "-1e-100 is outside")
    -- QRY-011, QRY-012: the sign is that of the exact D, not of its binary64 evaluation. On a
    -- triangle (0, 0), (3, 1), (0, 2), the point (0.30000000000000004, 0.1) has the exact D =
    -- 3·0.1 - 0.30000000000000004 = -2^-55 for the edge from (0, 0) to (3, 1): right of it,
    -- outside. Evaluated in binary64, 3·0.1 rounds (a tie, to even) to 0.30000000000000004 and
    -- D is 0: on the edge, inside the closed triangle. The point (0.29999999999999999, 0.1) has
    -- the exact D = 2^-55 and the binary64 D = 2^-54: inside in both.
    local mt = new_mesh()
    add(mt, { x = 0, z = 0, layer = 0, tiling = Q.TILING, origin_y = 0,
              verts = { { 0, 0, 0 }, { 3, 0, 1 }, { 0, 0, 2 } },
              polys = { { verts = { 0, 1, 2 }, neis = { 0, 0, 0 }, area = 0, flags = 1 } } })
    local tri = t:call("mesh.poly_ref", { mesh = mt, x = 0, z = 0, layer = 0, poly = 0 }).ref
    c = t:call("query.closest_point", { mesh = mt, poly = tri, pos = { 0.30000000000000004, 0, 0.1 } })
    t:check(not c.over, "exact orientation: (0.30000000000000004, 0.1) is right of the edge (0, 0)-(3, 1)")
    h = t:call("query.poly_height", { mesh = mt, poly = tri, x = 0.30000000000000004, z = 0.1 })
    t:check(not h.inside, "exact orientation: no height outside the triangle")
    c = t:call("query.closest_point", { mesh = mt, poly = tri, pos = { 0.29999999999999999, 0, 0.1 } })
    t:check(c.over and c.point[1] == 0.29999999999999999 and c.point[3] == 0.1,
            "exact orientation: (0.29999999999999999, 0.1) is inside")
    c = t:call("query.closest_point_boundary", { mesh = m, poly = q0, pos = { 4.5, 0, 0.4 } })
    t:check(c.point[1] == 4.5 and c.point[3] == 0, "boundary: the bottom edge, nearest")
    c = t:call("query.closest_point_boundary", { mesh = m, poly = q0, pos = { 4.5, 0, 0.5 } })
    t:check(c.point[1] == 4.5 and c.point[3] == 0, "boundary: equal distances, the lowest edge")

    -- ReplaceTile: references into the old tile are stale (MESH-016, QRY-022); new answers
    -- name the same canonical ids
    t:call("mesh.replace_tile", { mesh = m2, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 4, ring_holes)).handle })
    t:expect_error("query.poly_height", { mesh = m2, poly = p1, x = 1.5, z = 0.5 },
                   { kind = "argument", field = "poly", value = p1 })
    f = t:call("query.find_path", { mesh = m2, start = A, ["end"] = E })
    t:check(ids_are(f.path, { 0, 1, 2, 3, 5, 7, 11 }, T0) and f.path[2].ref ~= p1,
            "after ReplaceTile: same ids, new references")
    t:expect_error("query.straight_path", { mesh = m2, start = A, ["end"] = E, path = { f.path[1].ref, p1 } },
                   { kind = "argument", field = "path[1]", value = p1 })
    t:expect_error("query.straight_path", { mesh = m2, start = A, ["end"] = E, path = { f.path[1].ref, f.path[3].ref } },
                   { kind = "argument", field = "path[1]", value = f.path[3].ref })
    -- partial portals (QRY-063): cells of 1 on tile (0, 0) against cells of 2 on tile (1, 0),
    -- so every link from tile (1, 0) covers half of its edge; both directions, all crossings
    local m4 = new_mesh()
    local h4 = { add(m4, Q.grid(0, 0, 0, 0, 4)), add(m4, Q.grid(1, 0, 0, 0, 2)) }
    local V4 = Q.views(t, h4)
    for _, ends in ipairs({ { { 7, 0, 3.5 }, { 0.5, 0, 0.25 } }, { { 0.5, 0, 3.75 }, { 7.5, 0, 0.5 } } }) do
      f = t:call("query.find_path", { mesh = m4, start = ends[1], ["end"] = ends[2] })
      t:check(f.status == "found", "partial portals: found")
      Q.check_adjacent(t, V4, f.path, "partial portals")
      s = t:call("query.straight_path", { mesh = m4, start = ends[1], ["end"] = ends[2],
                                          path = Q.refs(f.path), crossings = "all" })
      Q.check_corners(t, V4, f.path, s.corners, "partial portals")
      Q.put_path(b, f); Q.put_corners(b, s.corners)
    end
    t:checkpoint("edge answers", "table", b:hex())
  end,
}
