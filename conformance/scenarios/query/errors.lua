-- query/errors: bad input to the query ops (spec/query.md QRY-020 .. QRY-022, QRY-033,
-- QRY-060, QRY-061, QRY-080, QRY-091, QRY-092): each an error naming the field and the value,
-- in the order the clauses give; the mesh unchanged afterwards (QRY-001).
local Q = require("query")

return {
  title = "Query errors: NaN and infinite positions, extents, references, filters, caps",
  clauses = { "QRY-001", "QRY-020", "QRY-021", "QRY-022", "QRY-033", "QRY-044", "QRY-050",
              "QRY-060", "QRY-061", "QRY-080", "QRY-085", "QRY-091", "QRY-092" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 2)).handle })
    local before = t:call("mesh.save", { mesh = m }).bytes
    local p0 = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 0 }).ref
    local p3 = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 3 }).ref
    local A, E, H = { 0.5, 0, 0.5 }, { 3.5, 0, 3.5 }, { 1, 1, 1 }
    local function e(op, args, kind, field, value)
      args.mesh = args.mesh or m
      t:expect_error(op, args, { kind = kind, field = field, value = value })
    end
    local NAN, INF = 0 / 0, 1 / 0
    -- positions (QRY-020)
    e("query.nearest_poly", { center = { NAN, 0, 0 }, half_extents = H }, "out_of_range", "center[0]", "NaN")
    e("query.nearest_poly", { center = { 0, INF, 0 }, half_extents = H }, "out_of_range", "center[1]", "Infinity")
    e("query.nearest_poly", { center = { 0, 0, -5e6 }, half_extents = H }, "out_of_range", "center[2]", "-5e+06")
    e("query.nearest_poly", { center = { 0, 0, 4194304.5 }, half_extents = H }, "out_of_range", "center[2]", "4194304.5")
    e("query.find_path", { start = A, ["end"] = { 1, -INF, 1 } }, "out_of_range", "end[1]", "-Infinity")
    e("query.find_path", { start = { 1, 2 }, ["end"] = E }, "argument", "start", "")
    e("query.find_path", { start = { 1, "x", 2 }, ["end"] = E }, "argument", "start[1]", "")
    e("query.poly_height", { poly = p0, x = NAN, z = 0 }, "out_of_range", "x", "NaN")
    e("query.poly_height", { poly = p0, x = 0, z = 1e300 }, "out_of_range", "z", "1e+300")
    e("query.closest_point", { poly = p0, pos = { 0, NAN, 0 } }, "out_of_range", "pos[1]", "NaN")
    e("query.straight_path", { start = { INF, 0, 0 }, ["end"] = E, path = { p0 } }, "out_of_range", "start[0]", "Infinity")
    -- the bounds themselves are valid (QRY-020, QRY-021, QRY-033); -0 is taken as +0 (QRY-020)
    local far = t:call("query.nearest_poly", { mesh = m, center = { 4194304, 0, -4194304 },
                                               half_extents = { 4194304, 1, 1 } })
    t:check(far.found == false, "a centre at 2^22 and a half extent of 2^22 are accepted")
    e("query.find_path", { start = { -0.0, 9, -0.0 }, ["end"] = E }, "out_of_range", "start", "0,9,0")
    -- half extents (QRY-021)
    e("query.nearest_poly", { center = A, half_extents = { 0, 1, 1 } }, "out_of_range", "half_extents[0]", "0")
    e("query.nearest_poly", { center = A, half_extents = { 1, -1, 1 } }, "out_of_range", "half_extents[1]", "-1")
    e("query.nearest_poly", { center = A, half_extents = { 1, 1, NAN } }, "out_of_range", "half_extents[2]", "NaN")
    e("query.nearest_poly", { center = A, half_extents = { 1, 1, 5e6 } }, "out_of_range", "half_extents[2]", "5e+06")
    -- references (QRY-022)
    e("query.poly_height", { poly = "0000000000000000", x = 0, z = 0 }, "argument", "poly", "0000000000000000")
    e("query.poly_height", { poly = "00000c0000000000", x = 0, z = 0 }, "argument", "poly", "00000c0000000000")
    e("query.closest_point_boundary", { poly = "ABC", pos = A }, "argument", "poly", "")
    local bad_poly = string.format("%016x", (tonumber(p0, 16) | 9))
    e("query.closest_point", { poly = bad_poly, pos = A }, "argument", "poly", bad_poly)
    -- filter (QRY-033, QRY-091)
    local costs = {}
    for i = 1, 64 do costs[i] = 1 end
    costs[4] = -1
    e("query.find_path", { start = A, ["end"] = E, filter = { costs = costs } }, "out_of_range", "filter.costs[3]", "-1")
    costs[4] = 1; costs[64] = NAN
    e("query.nearest_poly", { center = A, half_extents = H, filter = { costs = costs } }, "out_of_range", "filter.costs[63]", "NaN")
    costs[64] = 2 ^ 24
    t:check(t:call("query.find_path", { mesh = m, start = A, ["end"] = E, filter = { costs = costs } })
            .status == "found", "a cost of exactly 2^24 is accepted (QRY-033)")
    costs[64] = 2 ^ 24 + 2
    e("query.find_path", { start = A, ["end"] = E, filter = { costs = costs } }, "out_of_range", "filter.costs[63]", "16777218")
    e("query.find_path", { start = A, ["end"] = E, filter = { costs = { 1, 2 } } }, "argument", "filter.costs", "")
    e("query.find_path", { start = A, ["end"] = E, filter = { include = 70000 } }, "argument", "filter.include", "")
    e("query.find_path", { start = A, ["end"] = E, filter = 3 }, "argument", "filter", "")
    -- caps (QRY-060, QRY-061, QRY-080): max_nodes before the positions' values (QRY-091)
    e("query.find_path", { start = A, ["end"] = E, max_nodes = 0 }, "out_of_range", "max_nodes", "0")
    e("query.find_path", { start = { NAN, 0, 0 }, ["end"] = E, max_nodes = 65537 }, "out_of_range", "max_nodes", "65537")
    e("query.find_path", { start = A, ["end"] = E, max_path = 0 }, "out_of_range", "max_path", "0")
    e("query.find_path", { start = A, ["end"] = E, max_path = 65537 }, "out_of_range", "max_path", "65537")
    e("query.find_path", { start = A, ["end"] = E, max_path = -1 }, "argument", "max_path", "")
    e("query.find_path", { start = { NAN, 0, 0 }, ["end"] = E, filter = { costs = costs } }, "out_of_range", "start[0]", "NaN")
    -- straight path (QRY-080)
    e("query.straight_path", { start = A, ["end"] = E, path = t:array({}) }, "out_of_range", "path", "0")
    e("query.straight_path", { start = A, ["end"] = E, path = { p0, 7 } }, "argument", "path[1]", "")
    e("query.straight_path", { start = A, ["end"] = E, path = { p0, p3 } }, "argument", "path[1]", p3)
    e("query.straight_path", { start = A, ["end"] = E, path = { p0 }, crossings = "some" }, "argument", "crossings", "some")
    e("query.straight_path", { start = A, ["end"] = E, path = { p0 }, crossings = 1 }, "argument", "crossings", "")
    e("query.straight_path", { start = A, ["end"] = E, path = { p0 }, max_corners = 0 }, "out_of_range", "max_corners", "0")
    e("query.straight_path", { start = A, ["end"] = E, path = { p0 }, max_corners = 262145 }, "out_of_range", "max_corners", "262145")
    e("query.straight_path", { start = A, ["end"] = E, path = { p0 }, max_corners = 1 }, "limit", "max_corners", "2")
    -- handles
    e("query.find_path", { mesh = 999, start = A, ["end"] = E }, "argument", "mesh", "999")
    e("query.find_path", { mesh = "m", start = A, ["end"] = E }, "argument", "mesh", "")
    t:check(t:call("mesh.save", { mesh = m }).bytes == before, "the mesh is unchanged by failed queries (QRY-001)")
  end,
}
