-- query/review: the points of docs/reviews/port-review-query.md that no scenario decided
-- (findings 1, 2, 3, 4, 6, 8, 9): unknown members of a filter are ignored (QRY-091); a cost
-- of -0.0 is kept, so a one-polygon path costs -0 (QRY-033, QRY-068 step 1); node_limit with
-- the end already made (QRY-069); the closest boundary point takes the detail height at its
-- (x, z), not the edge height (QRY-045, QRY-046); the acceptance box is a box, not a radius
-- (QRY-061); a path with two faults names the bad reference first (QRY-080); form before
-- values (QRY-091). Tiles of conformance/lib/query.lua (world = local).
local Q = require("query")

local function same_id(p, want)
  return p.id[1] == want[1] and p.id[2] == want[2] and p.id[3] == want[3] and p.id[4] == want[4]
end

-- One 4 x 4 square with detail vertices (2, 1, 2) (centre) and (2, 0.5, 0) (on edge z = 0).
local function detail_square()
  return { x = 0, z = 0, layer = 0, tiling = Q.TILING, origin_y = 0,
           verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 }, area = 0, flags = 1 } },
           detail = { { vert_base = 0, vert_count = 2, tri_base = 0, tri_count = 5 } },
           -- index 4 is (2, 1, 2), index 5 is (2, 0.5, 0)
           detail_verts = { { 2, 1, 2 }, { 2, 0.5, 0 } },
           detail_tris = { { 0, 5, 4, 0x01 }, { 5, 1, 4, 0x01 }, { 1, 2, 4, 0x01 }, { 2, 3, 4, 0x01 },
                           { 3, 0, 4, 0x01 } } }
end

return {
  title = "Query: the review's undecided points (filter members, -0 cost, node_limit at E, boundary heights)",
  clauses = { "QRY-033", "QRY-045", "QRY-046", "QRY-061", "QRY-068", "QRY-069", "QRY-080", "QRY-091" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 4)).handle })
    local b = t:table()
    local A = { 0.5, 0, 0.5 }
    -- finding 1: an unknown filter member is ignored
    local r = t:call("query.nearest_poly", { mesh = m, center = A, half_extents = { 1, 1, 1 },
                                             filter = { foo = 1, include = 1 } })
    t:check(r.found and same_id(r.poly, { 0, 0, 0, 0 }), "filter.foo is ignored (QRY-091)")
    -- finding 2: a -0.0 cost is kept: one polygon, cost Dist * -0 = -0
    local costs = {}
    for i = 1, 64 do costs[i] = 1 end
    costs[1] = -0.0
    local f = t:call("query.find_path", { mesh = m, start = { 0.25, 0, 0.25 }, ["end"] = { 0.75, 0, 0.75 },
                                          filter = { costs = costs } })
    t:check(f.status == "found" and #f.path == 1 and f.cost == 0 and 1 / f.cost < 0,
            "a -0 cost is kept: a one-polygon path costs -0 (QRY-033)")
    Q.put_path(b, f)
    f = t:call("query.find_path", { mesh = m, start = A, ["end"] = { 3.5, 0, 0.5 }, filter = { costs = costs } })
    t:check(f.status == "found" and f.cost == 0 and 1 / f.cost > 0, "longer routes sum to +0")
    Q.put_path(b, f)
    -- finding 3: start in polygon 0, end in polygon 1, two nodes: E made, never taken
    f = t:call("query.find_path", { mesh = m, start = A, ["end"] = { 1.5, 0, 0.5 }, max_nodes = 2 })
    t:check(f.status == "no_path" and f.reason == "node_limit" and #f.partial == 2 and
            same_id(f.partial[2], { 0, 0, 0, 1 }), "node_limit with E made: no_path, partial reaches E (QRY-069)")
    Q.put_path(b, f)
    -- finding 6: two cells off on both x and z (2.83 cells) is accepted
    f = t:call("query.find_path", { mesh = m, start = { -1, 0, -1 }, ["end"] = A })
    t:check(f.status == "found" and f.start.point[1] == 0 and f.start.point[3] == 0,
            "the acceptance box: (-1, 0, -1) is accepted (QRY-061)")
    t:expect_error("query.find_path", { mesh = m, start = { -1, 0, -1.0625 }, ["end"] = A },
                   { kind = "out_of_range", field = "start", value = "-1,0,-1.0625" })
    -- finding 8: two faults in one path: the unresolved reference first, then links
    local p0 = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 0 }).ref
    local p5 = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 5 }).ref
    t:expect_error("query.straight_path", { mesh = m, start = A, ["end"] = A, path = { p0, p5, "0000000000000000" } },
                   { kind = "argument", field = "path[2]", value = "0000000000000000" })
    t:expect_error("query.straight_path", { mesh = m, start = A, ["end"] = A, path = { p0, p0 } },
                   { kind = "argument", field = "path[1]", value = p0 })
    -- finding 9: the form of poly before the value of x
    t:expect_error("query.poly_height", { mesh = m, poly = "zz", x = 0 / 0, z = 0 },
                   { kind = "argument", field = "poly", value = "" })
    t:expect_error("query.poly_height", { mesh = m, poly = "0000000000000000", x = 0 / 0, z = 0 },
                   { kind = "out_of_range", field = "x", value = "NaN" })
    -- finding 4: the boundary point's height is the surface height at its (x, z)
    local md = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    t:call("mesh.add_tile", { mesh = md, tile = t:call("tile.create", detail_square()).handle })
    local pd = t:call("mesh.poly_ref", { mesh = md, x = 0, z = 0, layer = 0, poly = 0 }).ref
    local c = t:call("query.closest_point", { mesh = md, poly = pd, pos = { 2, 0, -1 } })
    t:check(not c.over and c.point[1] == 2 and c.point[2] == 0.5 and c.point[3] == 0,
            "closest point from outside: y = 0.5, the detail vertex on the edge (QRY-045)")
    Q.put_point(b, c.point)
    c = t:call("query.closest_point_boundary", { mesh = md, poly = pd, pos = { 2, 0, 0.5 } })
    t:check(c.point[1] == 2 and c.point[2] == 0.5 and c.point[3] == 0,
            "boundary point: y = 0.5 by the detail mesh (QRY-046)")
    Q.put_point(b, c.point)
    c = t:call("query.closest_point_boundary", { mesh = md, poly = pd, pos = { 1, 0, -1 } })
    t:check(c.point[1] == 1 and c.point[2] == 0.25 and c.point[3] == 0, "boundary point between: 0.25")
    Q.put_point(b, c.point)
    t:checkpoint("review answers", "table", b:hex())
  end,
}
