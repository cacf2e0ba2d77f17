-- query/corridor-errors: the errors of spec/query-corridor.md (QCR-292), each with its kind,
-- field and value, in the order of their clauses (QCR-291: the arguments' forms first, then
-- max_nodes as the query object is made, then the empty corridor, then the operation's own
-- checks in its order); a failed operation changes nothing of the corridor (QCR-202), checked
-- by its state after every error. On tile (0, 0) of unit squares (query.lua's grid).
local Q = require("query")
local C = require("query_corridor")

return {
  title = "Path corridor errors: kinds, fields, values and their order; failures change nothing",
  clauses = { "QCR-201", "QCR-202", "QCR-210", "QCR-211", "QCR-220", "QCR-222", "QCR-230",
              "QCR-240", "QCR-241", "QCR-251", "QCR-252", "QCR-253", "QCR-290", "QCR-291", "QCR-292" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
    local th = t:call("tile.create", Q.grid(0, 0, 0, 0, 4)).handle
    t:call("mesh.add_tile", { mesh = m, tile = th })
    local function ref(k) return t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = k }).ref end
    local function E(op, args, kind, field, value)
      t:expect_error(op, args, { kind = kind, field = field, value = value })
    end
    local nan, inf = 0 / 0, 1 / 0
    local bad = { 6, 0, 6 } -- no polygon accepts it (two cells of 0.5 from the tile)
    local costs = {}
    for i = 1, 64 do costs[i] = 1 end
    costs[3] = -1

    -- create (QCR-201)
    E("corridor.create", { max_path = 0 }, "out_of_range", "max_path", "0")
    E("corridor.create", { max_path = 65537 }, "out_of_range", "max_path", "65537")
    E("corridor.create", { max_path = "x" }, "argument", "max_path", "")
    local c = t:call("corridor.create", { max_path = 3 }).handle
    -- the handles
    E("corridor.state", { corridor = 999 }, "argument", "corridor", "999")
    E("corridor.state", { corridor = "a" }, "argument", "corridor", "")
    E("corridor.state", { corridor = m }, "argument", "corridor", tostring(m))
    E("corridor.is_valid", { corridor = c, mesh = c }, "argument", "mesh", tostring(c))
    -- the empty corridor (QCR-202), after the forms and max_nodes, before the own checks
    local A = { corridor = c, mesh = m }
    local function with(extra)
      local a = { corridor = c, mesh = m }
      for k, v in pairs(extra) do a[k] = v end
      return a
    end
    E("corridor.move_position", with({ pos = { nan, 0, 0 } }), "argument", "corridor", "empty")
    E("corridor.move_position", with({ pos = { 0, 0 } }), "argument", "pos", "")
    E("corridor.move_target", with({ pos = { 0, 0, 0 } }), "argument", "corridor", "empty")
    E("corridor.find_corners", with({ max_corners = 0 }), "argument", "corridor", "empty")
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = 0 }), "argument", "corridor", "empty")
    E("corridor.optimize_topology", with({ max_nodes = 0 }), "out_of_range", "max_nodes", "0")
    E("corridor.optimize_topology", A, "argument", "corridor", "empty")
    E("corridor.is_valid", with({ max_look_ahead = 0 }), "argument", "corridor", "empty")
    E("corridor.fix", with({ safe_poly = ref(0), safe_pos = { 0, 0, 0 } }), "argument", "corridor", "empty")
    E("corridor.replan", with({ ["end"] = { 0.5, 0, 0.5 }, max_nodes = 65537 }), "out_of_range", "max_nodes", "65537")
    E("corridor.replan", with({ ["end"] = { 0.5, 0, 0.5 } }), "argument", "corridor", "empty")
    -- reset (QCR-210): pos first, then the reference
    E("corridor.reset", with({ poly = "0000000000000000", pos = { 0, inf, 0 } }), "out_of_range", "pos[1]", "Infinity")
    E("corridor.reset", with({ poly = "0000000000000000", pos = { 0, 0, 0 } }), "argument", "poly", "0000000000000000")
    E("corridor.reset", with({ poly = 7, pos = { 0, 0, 0 } }), "argument", "poly", "")
    -- set (QCR-211): QRY-080's order, then the capacity
    local r = { ref(0), ref(1), ref(2), ref(3) }
    E("corridor.set", with({ start = { 0, 0, nan }, ["end"] = { 0, 0, 0 }, path = r }), "out_of_range", "start[2]", "NaN")
    E("corridor.set", with({ start = { 0, 0, 0 }, ["end"] = { 5e6, 0, 0 }, path = r }), "out_of_range", "end[0]", "5e+06")
    E("corridor.set", with({ start = { 0, 0, 0 }, ["end"] = { 0, 0, 0 }, path = t:array({}) }), "out_of_range", "path", "0")
    E("corridor.set", with({ start = { 0, 0, 0 }, ["end"] = { 0, 0, 0 }, path = { r[1], "0000000000000001" } }),
      "argument", "path[1]", "0000000000000001")
    E("corridor.set", with({ start = { 0, 0, 0 }, ["end"] = { 0, 0, 0 }, path = { r[1], r[3] } }),
      "argument", "path[1]", r[3])
    E("corridor.set", with({ start = { 0, 0, 0 }, ["end"] = { 0, 0, 0 }, path = r }), "limit", "path", "4")
    E("corridor.set", with({ start = { 0, 0, 0 }, ["end"] = { 0, 0, 0 }, path = "x" }), "argument", "path", "")
    E("corridor.set", with({ start = { 0, 0, 0 }, ["end"] = { 0, 0, 0 }, path = { r[1], 5 } }), "argument", "path[1]", "")
    local s0 = t:call("corridor.state", { corridor = c })
    t:check(#s0.path == 0, "failed sets changed nothing: still empty (QCR-202)")
    local s = t:call("corridor.set", with({ start = { 0.5, 0, 0.5 }, ["end"] = { 2.5, 0, 0.5 },
                                            path = { r[1], r[2], r[3] } }))
    local b = t:table()
    C.put_state(b, s)
    local function unchanged(tag)
      local now = t:call("corridor.state", { corridor = c })
      local same = #now.path == #s.path
      for i = 1, 3 do
        if now.position[i] ~= s.position[i] or now.target[i] ~= s.target[i] then same = false end
      end
      for i, p in ipairs(now.path) do if p.ref ~= s.path[i].ref then same = false end end
      t:check(same, tag .. ": the failed operation changed nothing (QCR-202)")
    end
    -- moves (QCR-220, QCR-222): pos, filter, max_visited, then the end polygon
    local f_no = { exclude = 1 }
    for _, op in ipairs({ "corridor.move_position", "corridor.move_target" }) do
      local fld = op == "corridor.move_position" and "path[0]" or "path[2]"
      local val = op == "corridor.move_position" and r[1] or r[3]
      E(op, with({ pos = { nan, 0, 0 }, filter = { costs = costs }, max_visited = 0 }), "out_of_range", "pos[0]", "NaN")
      E(op, with({ pos = { 0, 0, 0 }, filter = { costs = costs }, max_visited = 0 }), "out_of_range", "filter.costs[2]", "-1")
      E(op, with({ pos = { 0, 0, 0 }, filter = f_no, max_visited = 0 }), "out_of_range", "max_visited", "0")
      E(op, with({ pos = { 0, 0, 0 }, filter = f_no, max_visited = 65537 }), "out_of_range", "max_visited", "65537")
      E(op, with({ pos = { 0, 0, 0 }, filter = f_no }), "argument", fld, val)
      E(op, with({ pos = { 0, 0, 0 }, filter = 3 }), "argument", "filter", "")
      unchanged(op)
    end
    -- corners (QCR-230)
    E("corridor.find_corners", with({ max_corners = 0 }), "out_of_range", "max_corners", "0")
    E("corridor.find_corners", with({ max_corners = 65537 }), "out_of_range", "max_corners", "65537")
    -- visibility (QCR-240): next, range, filter, max_visited, head
    E("corridor.optimize_visibility", with({ next = { 0, nan, 0 }, range = 0 }), "out_of_range", "next[1]", "NaN")
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = 0, filter = { costs = costs } }),
      "out_of_range", "range", "0")
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = -1 }), "out_of_range", "range", "-1")
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = nan }), "out_of_range", "range", "NaN")
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = 4194304.5 }), "out_of_range", "range", "4194304.5")
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = 1, filter = { costs = costs }, max_visited = 0 }),
      "out_of_range", "filter.costs[2]", "-1")
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = 1, max_visited = 0 }), "out_of_range", "max_visited", "0")
    -- max_visited is checked before the ray: also when next is the position (no ray is cast),
    -- and 1 and 65536 are accepted (QCR-240)
    local here = t:call("corridor.state", { corridor = c }).position
    E("corridor.optimize_visibility", with({ next = here, range = 1, max_visited = 0 }), "out_of_range", "max_visited", "0")
    E("corridor.optimize_visibility", with({ next = here, range = 1, max_visited = 65537 }), "out_of_range", "max_visited", "65537")
    for _, mv in ipairs({ 1, 65536 }) do
      local ov = t:call("corridor.optimize_visibility", with({ next = here, range = 1, max_visited = mv }))
      t:check(ov.spliced == false, "optimize_visibility with max_visited " .. mv .. " and next at the position: accepted, nothing spliced")
    end
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = 1, filter = f_no }), "argument", "path[0]", r[1])
    E("corridor.optimize_visibility", with({ next = { 0, 0, 0 }, range = "1" }), "argument", "range", "")
    -- topology (QCR-241): filter, head, tail
    E("corridor.optimize_topology", with({ filter = { costs = costs } }), "out_of_range", "filter.costs[2]", "-1")
    E("corridor.optimize_topology", with({ filter = f_no }), "argument", "path[0]", r[1])
    t:call("mesh.set_poly_flags", { mesh = m, ref = r[3], flags = 2 })
    E("corridor.optimize_topology", with({ filter = { exclude = 2 } }), "argument", "path[2]", r[3])
    E("corridor.move_target", with({ pos = { 0, 0, 0 }, filter = { exclude = 2 } }), "argument", "path[2]", r[3])
    t:call("mesh.set_poly_flags", { mesh = m, ref = r[3], flags = 1 })
    -- is_valid (QCR-251): max_look_ahead, then the filter
    E("corridor.is_valid", with({ max_look_ahead = 0, filter = { costs = costs } }), "out_of_range", "max_look_ahead", "0")
    E("corridor.is_valid", with({ max_look_ahead = 65537 }), "out_of_range", "max_look_ahead", "65537")
    E("corridor.is_valid", with({ filter = { costs = costs } }), "out_of_range", "filter.costs[2]", "-1")
    -- fix (QCR-252): safe_pos, filter, safe_poly
    E("corridor.fix", with({ safe_poly = "0000000000000000", safe_pos = { inf, 0, 0 }, filter = { costs = costs } }),
      "out_of_range", "safe_pos[0]", "Infinity")
    E("corridor.fix", with({ safe_poly = "0000000000000000", safe_pos = { 0, 0, 0 }, filter = { costs = costs } }),
      "out_of_range", "filter.costs[2]", "-1")
    E("corridor.fix", with({ safe_poly = "0000000000000000", safe_pos = { 0, 0, 0 } }), "argument", "safe_poly", "0000000000000000")
    E("corridor.fix", with({ safe_poly = ref(5), safe_pos = { 0, 0, 0 }, filter = f_no }), "argument", "safe_poly", ref(5))
    -- replan (QCR-253): end, filter, head, acceptance
    E("corridor.replan", with({ ["end"] = { 0, 0, -inf }, filter = { costs = costs } }), "out_of_range", "end[2]", "-Infinity")
    E("corridor.replan", with({ ["end"] = bad, filter = { costs = costs } }), "out_of_range", "filter.costs[2]", "-1")
    E("corridor.replan", with({ ["end"] = bad, filter = f_no }), "argument", "path[0]", r[1])
    E("corridor.replan", with({ ["end"] = bad }), "out_of_range", "end", "6,0,6")
    unchanged("all")
    -- a dropped corridor is no corridor
    t:call("drop", { handle = c })
    E("corridor.state", { corridor = c }, "argument", "corridor", tostring(c))
    t:checkpoint("corridor after failed operations", "table", b:hex())
  end,
}
