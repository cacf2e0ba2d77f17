-- query/mut-paths: find-path rules written against the mutation sample of ref/query/
-- (issue 14); expected values by hand (grid meshes of conformance/lib/query.lua):
-- 1. QRY-061's acceptance box is (2 cs, climb + 2 ch, 2 cs): with climb 1.5 it is
--    (1, 2, 1), so an endpoint 1.5 beside the mesh on z (or x) is refused while one 1.9 above
--    it is accepted;
--    start and end in one polygon cost the distance times its area cost (QRY-068 step 1);
-- 2. QRY-069's best node of a disconnected search is the one of least h over all nodes, the
--    start node included (h(S) = Dist(start, end) * 0.999, QRY-066): on a one-cell-wide strip
--    facing a far island the start point itself is nearest the end, and the next cell's
--    centre only 0.005 % farther.
local Q = require("query")

return {
  title = "Find path: the acceptance box with a tall climb, the start as the best node",
  clauses = { "QRY-061", "QRY-064", "QRY-066", "QRY-068", "QRY-069", "QRY-090", "QRY-092" },
  run = function(t)
    local b = t:table()
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 1.5, max_tiles = 4 }).handle
    t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 4)).handle })
    local E = { 3.5, 0, 3.5 }
    for _, s in ipairs({ { 2, 1.9, 2 }, { -0.9, 0, 2 }, { 2, 0, -0.9 }, { 4.9, -1.9, 4.9 } }) do
      local r = t:call("query.find_path", { mesh = m, start = s, ["end"] = E })
      Q.put_path(b, r)
      t:check(r.status == "found", "accepted within (1, 2, 1): " .. s[1] .. "," .. s[2] .. "," .. s[3])
    end
    for _, s in ipairs({ { 2, 0, -1.5 }, { -1.5, 0, 2 }, { 2, 2.5, 2 }, { 5.25, 0, 2 } }) do
      t:expect_error("query.find_path", { mesh = m, start = s, ["end"] = E },
                     { kind = "out_of_range", field = "start" })
    end
    t:expect_error("query.find_path", { mesh = m, start = E, ["end"] = { 2, 0, 5.5 } },
                   { kind = "out_of_range", field = "end" })

    -- start and end in one polygon (QRY-068 step 1): the cost is Dist(start, end) * cost(S)
    local costs = {}
    for a = 1, 64 do costs[a] = 1 end
    costs[1] = 2.5
    local one = t:call("query.find_path", { mesh = m, start = { 0.25, 0, 0.25 }, ["end"] = { 0.75, 0, 0.75 },
                                            filter = { costs = costs } })
    Q.put_path(b, one)
    t:check(one.status == "found" and one.cost == math.sqrt(0.5) * 2.5 and one.nodes == 1,
            "one polygon: the distance times the area cost 2.5")

    -- 2. the strip: cells (0, j) of tile (0, 0), x in [0, 1]; the island: tile (25, 0)
    local strip = {}
    for i = 1, 3 do for j = 0, 3 do strip[i .. "," .. j] = true end end
    local m2 = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    t:call("mesh.add_tile", { mesh = m2, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 4, strip)).handle })
    t:call("mesh.add_tile", { mesh = m2, tile = t:call("tile.create", Q.grid(25, 0, 0, 0, 4)).handle })
    local r = t:call("query.find_path", { mesh = m2, start = { 0.5, 0, 0.5 }, ["end"] = { 100.5, 0, 0.5 } })
    Q.put_path(b, r)
    t:check(r.status == "no_path" and r.reason == "disconnected" and r.nodes == 4 and #r.partial == 1 and
            r.partial[1].id[4] == 0, "the start is the best node: partial route (start)")
    r = t:call("query.find_path", { mesh = m2, start = { 0.5, 0, 3.5 }, ["end"] = { 100.5, 0, 0.5 } })
    Q.put_path(b, r)
    t:check(r.status == "no_path" and #r.partial == 4 and r.partial[4].id[4] == 0,
            "from the far end of the strip: the partial route runs to cell 0")
    -- 3. straight path over references that do not resolve (QRY-080, QRY-022): an empty
    -- slot (slot 3 of m2) and a stale generation (generation 2 of slot 0)
    local good = t:call("mesh.poly_ref", { mesh = m2, x = 0, z = 0, layer = 0, poly = 0 }).ref
    for _, bad in ipairs({ "0000000000300000", "0000080000000000" }) do
      t:expect_error("query.straight_path", { mesh = m2, start = { 0.5, 0, 0.5 }, ["end"] = { 0.5, 0, 1.5 },
                                              path = { bad } },
                     { kind = "argument", field = "path[0]", value = bad })
      t:expect_error("query.straight_path", { mesh = m2, start = { 0.5, 0, 0.5 }, ["end"] = { 0.5, 0, 1.5 },
                                              path = { good, bad } },
                     { kind = "argument", field = "path[1]", value = bad })
    end
    t:checkpoint("paths", "table", b:hex())
  end,
}
