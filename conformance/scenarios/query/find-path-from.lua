-- query/find-path-from: find path from given polygons and points (QRY-074); expected values by
-- hand on the grid meshes of conformance/lib/query.lua (cells of 1 x 1, polygon (i, j) =
-- index 4 j + i of tile (0, 0)), and by QRY-074's own promise on a generated level:
-- 1. the given points are the node points as given, not projected onto their polygons: one
--    polygon, start 3 above it and end 1 below, costs exactly 4 (QRY-068 step 1); across the
--    tile the path is FindPath's route with costs from the given points (hashed);
-- 2. the polygons are checked after the positions, the filter and max_path, start_poly before
--    end_poly; an empty slot, a stale generation, reference 0 and a polygon the filter excludes
--    are argument errors naming start_poly / end_poly with the reference;
-- 3. the node pool and max_path caps apply as in FindPath (node_limit, path_limit); max_path
--    1 and 65536 are accepted, 65537 is not;
-- (query/find-path-from-dungeon checks the rest of QRY-074 on a generated level.)
local Q = require("query")

local function grid_mesh(t, flags)
  local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
  local opts = flags and { flags = flags } or nil
  t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 4, nil, opts)).handle })
  return m
end

local function ref(t, m, i, j)
  return t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 4 * j + i }).ref
end

return {
  title = "Find path from given polygons and points: node points as given, checks, caps, = FindPath",
  clauses = { "QRY-022", "QRY-031", "QRY-064", "QRY-065", "QRY-068", "QRY-069", "QRY-074",
              "QRY-090", "QRY-091", "QRY-092" },
  run = function(t)
    local b = t:table()
    -- 1. points as given
    local m = grid_mesh(t, function(i, j) return (i == 3 and j == 3) and 2 or 1 end)
    local r00, r33 = ref(t, m, 0, 0), ref(t, m, 3, 3)
    local one = t:call("query.find_path_from", { mesh = m, start_poly = r00, start = { 0.5, 3, 0.5 },
                                                 end_poly = r00, ["end"] = { 0.5, -1, 0.5 } })
    Q.put_path(b, one)
    t:check(one.status == "found" and one.cost == 4 and one.nodes == 1 and #one.path == 1 and
            one.start.point[2] == 3 and one["end"].point[2] == -1,
            "one polygon: the given points, 3 above and 1 below, cost 4 (QRY-068 step 1)")
    local fp = t:call("query.find_path", { mesh = m, start = { 0.5, 0, 0.5 }, ["end"] = { 3.5, 0, 3.5 } })
    local from = t:call("query.find_path_from", { mesh = m, start_poly = r00, start = { 0.5, 0, 0.5 },
                                                  end_poly = r33, ["end"] = { 3.5, 0, 3.5 } })
    t:check(Q.same_path(fp, from), "on the surface: FindPath's answer")
    local off = t:call("query.find_path_from", { mesh = m, start_poly = r00, start = { -7, 5, 0.5 },
                                                 end_poly = r33, ["end"] = { 3.5, 0, 11 } })
    Q.put_path(b, off)
    t:check(off.status == "found" and off.start.point[1] == -7 and off["end"].point[3] == 11 and
            off.cost ~= fp.cost, "points off their polygons are kept, and cost more")
    local negz = t:call("query.find_path_from", { mesh = m, start_poly = r00, start = { -0.0, 0, -0.0 },
                                                  end_poly = r00, ["end"] = { 0, 0, 0 } })
    Q.put_path(b, negz)
    t:check(negz.cost == 0, "-0.0 taken as +0.0 (QRY-020)")

    -- 2. checks and their order
    local stale = "0000080000000000" -- generation 2 of slot 0
    local empty = "0000000000300000" -- slot 3, never used
    local args = function(sp, ep, extra)
      local a = { mesh = m, start_poly = sp, start = { 0.5, 0, 0.5 }, end_poly = ep, ["end"] = { 3.5, 0, 3.5 } }
      for k, v in pairs(extra or {}) do a[k] = v end
      return a
    end
    for _, bad in ipairs({ stale, empty, "0000000000000000" }) do
      t:expect_error("query.find_path_from", args(bad, r33), { kind = "argument", field = "start_poly", value = bad })
      t:expect_error("query.find_path_from", args(r00, bad), { kind = "argument", field = "end_poly", value = bad })
    end
    t:expect_error("query.find_path_from", args(stale, stale), { kind = "argument", field = "start_poly", value = stale })
    -- the filter: polygon (3, 3) has flags 2
    t:expect_error("query.find_path_from", args(r00, r33, { filter = { exclude = 2 } }),
                   { kind = "argument", field = "end_poly", value = r33 })
    t:expect_error("query.find_path_from", args(r33, r00, { filter = { include = 1 } }),
                   { kind = "argument", field = "start_poly", value = r33 })
    -- start_poly completely (resolved, then filtered) before end_poly is resolved
    t:expect_error("query.find_path_from", args(r33, "0000000000000000", { filter = { include = 1 } }),
                   { kind = "argument", field = "start_poly", value = r33 })
    -- positions, filter and max_path before the polygons; max_nodes before everything (QRY-091)
    t:expect_error("query.find_path_from", args(empty, r33, { start = { 0 / 0, 0, 0 } }),
                   { kind = "out_of_range", field = "start[0]" })
    t:expect_error("query.find_path_from", args(empty, empty, { ["end"] = { 0, 1e300, 0 } }),
                   { kind = "out_of_range", field = "end[1]" })
    local costs = {}
    for a = 1, 64 do costs[a] = 1 end
    costs[5] = -1
    t:expect_error("query.find_path_from", args(empty, r33, { filter = { costs = costs } }),
                   { kind = "out_of_range", field = "filter.costs[4]" })
    t:expect_error("query.find_path_from", args(empty, r33, { max_path = 0 }),
                   { kind = "out_of_range", field = "max_path", value = "0" })
    t:expect_error("query.find_path_from", args(r00, r33, { max_nodes = 0, start = { 0 / 0, 0, 0 } }),
                   { kind = "out_of_range", field = "max_nodes", value = "0" })
    t:expect_error("query.find_path_from", args("zz", r33), { kind = "argument", field = "start_poly" })
    t:expect_error("query.find_path_from", args(r00, r33, { start = { 1, 2 } }),
                   { kind = "argument", field = "start" })

    -- 3. caps
    local capped = t:call("query.find_path_from", args(r00, r33, { max_nodes = 3 }))
    Q.put_path(b, capped)
    t:check(capped.status == "no_path" and capped.reason == "node_limit" and capped.nodes == 3,
            "3 nodes: node_limit")
    local short = t:call("query.find_path_from", args(r00, r33, { max_path = 3 }))
    Q.put_path(b, short)
    t:check(short.status == "no_path" and short.reason == "path_limit" and #short.partial == 3,
            "a route of 7 polygons with max_path 3: path_limit, its first 3")
    -- max_path's range [1, 65536] is inclusive at both ends (QRY-061's rule)
    local one1 = t:call("query.find_path_from", args(r00, r00, { max_path = 1 }))
    t:check(one1.status == "found" and #one1.path == 1, "max_path 1: a one-polygon path")
    local all = t:call("query.find_path_from", args(r00, r33, { max_path = 65536 }))
    t:check(Q.same_path(all, from), "max_path 65536: the path")
    t:expect_error("query.find_path_from", args(r00, r33, { max_path = 65537 }),
                   { kind = "out_of_range", field = "max_path", value = "65537" })
    t:checkpoint("grid", "table", b:hex())

  end,
}
