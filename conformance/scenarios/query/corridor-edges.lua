-- query/corridor-edges: hand-made cases of the path corridor (spec/query-corridor.md) on meshes
-- of unit squares (conformance/lib/query.lua, grid: tile (0, 0) world = local, cell (i, j)
-- polygon 4j + i; tile (1, 0) the same 4 units to the right), every expected value derived by
-- hand from the clauses: Reset's head point (QCR-203, QCR-210); Set (QCR-211); the head merge
-- walking forward, stepping sideways and cut by the capacity (QCR-221, QCR-204); the tail merge
-- growing and shrinking the list (QCR-222); corners of a straight row and of an L, the cap and
-- the empty answer (QCR-231); a visibility splice, its range budget and a zero look-ahead
-- (QCR-240, QCR-242); topology with a pool of 32 and of 1 node, and on two polygons (QCR-241);
-- a replaced tile's polygons stale from their first index, the look-ahead, fix with a valid
-- prefix and with none, the filtered reason, and replan (QCR-250 .. QCR-253).
local Q = require("query")
local C = require("query_corridor")

return {
  title = "Path corridor edge cases: merges, cuts, corners, splices, budgets, stale tiles, fix, replan",
  clauses = { "QCR-201", "QCR-203", "QCR-204", "QCR-210", "QCR-211", "QCR-220", "QCR-221",
              "QCR-222", "QCR-230", "QCR-231", "QCR-240", "QCR-241", "QCR-242", "QCR-250",
              "QCR-251", "QCR-252", "QCR-253", "QCR-260", "QCR-290" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
    local tiles = {}
    for x = 0, 1 do
      tiles[#tiles + 1] = t:call("tile.create", Q.grid(x, 0, 0, 0, 4)).handle
      t:call("mesh.add_tile", { mesh = m, tile = tiles[#tiles] })
    end
    local V = Q.views(t, tiles)
    local function ref(k, x)
      return t:call("mesh.poly_ref", { mesh = m, x = x or 0, z = 0, layer = 0, poly = k }).ref
    end
    local function refs(list)
      local r = {}
      for i, k in ipairs(list) do r[i] = type(k) == "table" and ref(k[2], k[1]) or ref(k) end
      return r
    end
    local function ids(list, want) -- want: polygon indices of tile (0, 0), or {x, index}
      if #list ~= #want then return false end
      for i, p in ipairs(list) do
        local w = type(want[i]) == "table" and want[i] or { 0, want[i] }
        if p.id[1] ~= w[1] or p.id[4] ~= w[2] then return false end
      end
      return true
    end
    local function pt(p, x, y, z) return p[1] == x and p[2] == y and p[3] == z end
    local b = t:table()
    local function put(s) C.put_state(b, s); return s end
    local function new(mp) return t:call("corridor.create", { max_path = mp }).handle end
    local function set(c, s, e, list)
      return put(t:call("corridor.set", { corridor = c, mesh = m, start = s, ["end"] = e, path = refs(list) }))
    end

    -- the empty corridor (QCR-201)
    local c = new(4)
    local s = put(t:call("corridor.state", { corridor = c }))
    t:check(s.max_path == 4 and #s.path == 0 and pt(s.position, 0, 0, 0) and pt(s.target, 0, 0, 0),
            "create: empty, position and target (0, 0, 0)")
    -- Reset: the head point (QCR-203): inside as given, y the surface height; outside: the boundary
    s = put(t:call("corridor.reset", { corridor = c, mesh = m, poly = ref(0), pos = { 0.5, 5, 0.25 } }))
    t:check(ids(s.path, { 0 }) and pt(s.position, 0.5, 0, 0.25) and pt(s.target, 0.5, 0, 0.25),
            "reset inside: (0.5, 0, 0.25), target the same")
    s = put(t:call("corridor.reset", { corridor = c, mesh = m, poly = ref(0), pos = { -1, 0, 0.5 } }))
    t:check(pt(s.position, 0, 0, 0.5), "reset outside: the closest boundary point (0, 0, 0.5)")
    -- a one-polygon corridor at its target has no corner (QCR-231 rule 1)
    local fc = t:call("corridor.find_corners", { corridor = c, mesh = m })
    C.put_corners(b, fc)
    t:check(#fc.corners == 0 and not fc.truncated, "at the target: no corner")

    -- Set and the head merge (QCR-211, QCR-221)
    s = set(c, { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }, { 0, 1, 2, 3 })
    t:check(ids(s.path, { 0, 1, 2, 3 }) and pt(s.position, 0.5, 0, 0.5) and pt(s.target, 3.5, 0, 0.5),
            "set: row 0, from (0.5, 0.5) to (3.5, 0.5)")
    fc = t:call("corridor.find_corners", { corridor = c, mesh = m, max_corners = 1 })
    C.put_corners(b, fc)
    t:check(#fc.corners == 1 and pt(fc.corners[1].point, 3.5, 0, 0.5) and fc.corners[1].flags == 2 and
            not fc.truncated, "a straight row: the end corner alone, not truncated")
    local mv = put(t:call("corridor.move_position", { corridor = c, mesh = m, pos = { 1.5, 0, 0.5 } }))
    t:check(ids(mv.path, { 1, 2, 3 }) and pt(mv.position, 1.5, 0, 0.5) and not mv.truncated,
            "forward into polygon 1: the list loses polygon 0")
    mv = put(t:call("corridor.move_position", { corridor = c, mesh = m, pos = { 1.5, 0, 1.5 } }))
    t:check(ids(mv.path, { 5, 1, 2, 3 }) and pt(mv.position, 1.5, 0, 1.5) and not mv.truncated,
            "sideways into polygon 5: the way back is added")
    mv = put(t:call("corridor.move_position", { corridor = c, mesh = m, pos = { 0.5, 0, 1.5 } }))
    t:check(ids(mv.path, { 4, 5, 1, 2 }) and mv.truncated and pt(mv.target, 3.5, 0, 0.5),
            "sideways again: 4, 5, 1, 2, 3 cut to max_path 4, the target unchanged (QCR-204)")

    -- a move cut by max_visited 1 (QSF-113): it stops at the best wall point of polygon 0,
    -- the vertex (1, 0) (bottom edge, plane distance 0.5 to (1.5, 0.5), against 2.25 on the left)
    local c1 = new(8)
    set(c1, { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }, { 0, 1, 2, 3 })
    mv = put(t:call("corridor.move_position", { corridor = c1, mesh = m, pos = { 1.5, 0, 0.5 }, max_visited = 1 }))
    t:check(mv.search_truncated and not mv.truncated and pt(mv.position, 1, 0, 0) and ids(mv.path, { 0, 1, 2, 3 }),
            "max_visited 1: the search truncated, the position (1, 0, 0), the list unchanged")

    -- the tail merge (QCR-222)
    local c2 = new(8)
    set(c2, { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }, { 0, 1, 2, 3 })
    local mt = put(t:call("corridor.move_target", { corridor = c2, mesh = m, pos = { 3.5, 0, 1.5 } }))
    t:check(ids(mt.path, { 0, 1, 2, 3, 7 }) and pt(mt.target, 3.5, 0, 1.5), "the target up: 7 appended")
    mt = put(t:call("corridor.move_target", { corridor = c2, mesh = m, pos = { 2.5, 0, 0.5 } }))
    t:check(ids(mt.path, { 0, 1, 2 }) and pt(mt.target, 2.5, 0, 0.5), "the target back into 2: the list ends at 2")

    -- corners of an L (QCR-231 rule 3)
    set(c2, { 0.5, 0, 0.5 }, { 3.5, 0, 2.5 }, { 0, 1, 2, 3, 7, 11 })
    fc = t:call("corridor.find_corners", { corridor = c2, mesh = m })
    C.put_corners(b, fc)
    t:check(#fc.corners == 2 and pt(fc.corners[1].point, 3, 0, 1) and fc.corners[1].flags == 0 and
            pt(fc.corners[2].point, 3.5, 0, 2.5) and fc.corners[2].flags == 2 and not fc.truncated,
            "an L: the inner corner (3, 1), then the end")
    fc = t:call("corridor.find_corners", { corridor = c2, mesh = m, max_corners = 1 })
    C.put_corners(b, fc)
    t:check(#fc.corners == 1 and pt(fc.corners[1].point, 3, 0, 1) and fc.truncated, "max_corners 1: truncated")

    -- visibility (QCR-240, QCR-242): the detour 0, 4, 5, 6 to (2.5, 1.5)
    set(c2, { 0.5, 0, 0.5 }, { 2.5, 0, 1.5 }, { 0, 4, 5, 6 })
    local ov = put(t:call("corridor.optimize_visibility", { corridor = c2, mesh = m,
      next = { 2.5, 0, 1.5 }, range = 1 }))
    t:check(not ov.spliced and ids(ov.path, { 0, 4, 5, 6 }),
            "range 1: the ray ends in polygon 1, which the list does not hold after 0: no splice")
    ov = put(t:call("corridor.optimize_visibility", { corridor = c2, mesh = m,
      next = { 0.5, 7, 0.5 }, range = 10 }))
    t:check(not ov.spliced, "a look-ahead at the position (d = 0): nothing")
    ov = put(t:call("corridor.optimize_visibility", { corridor = c2, mesh = m,
      next = { 2.5, 0, 1.5 }, range = 10, max_visited = 3 }))
    t:check(not ov.spliced and ids(ov.path, { 0, 4, 5, 6 }), "a ray cut at 3 polygons (limit): no splice")
    ov = put(t:call("corridor.optimize_visibility", { corridor = c2, mesh = m,
      next = { 2.5, 0, 1.5 }, range = 10 }))
    t:check(ov.spliced and ids(ov.path, { 0, 1, 5, 6 }) and not ov.truncated,
            "the ray 0, 1, 5, 6 reaches the look-ahead: spliced at polygon 6")

    -- a splice from a ray of exactly two polygons: 0, 1 against the list 0, 4, 5, 1
    set(c2, { 0.5, 0, 0.5 }, { 1.5, 0, 0.5 }, { 0, 4, 5, 1 })
    ov = put(t:call("corridor.optimize_visibility", { corridor = c2, mesh = m,
      next = { 1.5, 0, 0.5 }, range = 10 }))
    t:check(ov.spliced and ids(ov.path, { 0, 1 }), "the ray 0, 1: the list becomes 0, 1")

    -- topology (QCR-241)
    set(c2, { 0.5, 0, 0.5 }, { 1.5, 0, 1.5 }, { 0, 4, 5 })
    local ot = put(t:call("corridor.optimize_topology", { corridor = c2, mesh = m }))
    t:check(ot.spliced and #ot.path == 3 and ot.path[1].id[4] == 0 and ot.path[3].id[4] == 5,
            "three polygons: the search runs and its route of 3 is spliced in")
    set(c2, { 0.5, 0, 0.5 }, { 2.5, 0, 1.5 }, { 0, 4, 8, 9, 5, 6 })
    ot = put(t:call("corridor.optimize_topology", { corridor = c2, mesh = m, max_nodes = 1 }))
    t:check(not ot.spliced and #ot.path == 6, "a pool of 1 node: the partial route is the head alone")
    ot = put(t:call("corridor.optimize_topology", { corridor = c2, mesh = m }))
    t:check(ot.spliced and #ot.path == 4 and ot.path[1].id[4] == 0 and ot.path[4].id[4] == 6,
            "a pool of 32: the detour 0, 4, 8, 9, 5, 6 replaced by a least route of 4 polygons")
    Q.check_adjacent(t, V, ot.path, "topology")
    set(c2, { 0.5, 0, 0.5 }, { 1.5, 0, 0.5 }, { 0, 1 })
    ot = put(t:call("corridor.optimize_topology", { corridor = c2, mesh = m }))
    t:check(not ot.spliced and #ot.path == 2, "two polygons: nothing to optimise")

    -- validity after ReplaceTile (QCR-250 .. QCR-252) and replan (QCR-253)
    set(c2, { 0.5, 0, 0.5 }, { 5.5, 0, 0.5 }, { 0, 1, 2, 3, { 1, 0 }, { 1, 1 } })
    local iv = t:call("corridor.is_valid", { corridor = c2, mesh = m })
    t:check(iv.valid and iv.checked == 6 and iv.index == nil, "valid before the swap")
    iv = t:call("corridor.is_valid", { corridor = c2, mesh = m, filter = { include = 2 } })
    t:check(not iv.valid and iv.index == 0 and iv.reason == "filtered", "include 2 passes no polygon (flags 1)")
    t:call("mesh.replace_tile", { mesh = m, tile = t:call("tile.create", Q.grid(1, 0, 0, 0, 4)).handle })
    iv = t:call("corridor.is_valid", { corridor = c2, mesh = m })
    t:check(not iv.valid and iv.checked == 6 and iv.index == 4 and iv.reason == "stale",
            "tile (1, 0) replaced: stale from index 4")
    b:u32(iv.index)
    iv = t:call("corridor.is_valid", { corridor = c2, mesh = m, max_look_ahead = 4 })
    t:check(iv.valid and iv.checked == 4, "a look-ahead of 4 sees only the valid part")
    iv = t:call("corridor.is_valid", { corridor = c2, mesh = m, max_look_ahead = 5 })
    t:check(not iv.valid and iv.checked == 5 and iv.index == 4, "a look-ahead of 5 sees the stale one")
    local fx = put(t:call("corridor.fix", { corridor = c2, mesh = m, safe_poly = ref(0), safe_pos = { 0.5, 0, 0.5 } }))
    t:check(fx.kept == 4 and ids(fx.path, { 0, 1, 2, 3 }) and pt(fx.position, 0.5, 0, 0.5) and
            pt(fx.target, 4, 0, 0.5), "fix: the valid prefix, the target (4, 0, 0.5) on polygon 3")
    fx = put(t:call("corridor.fix", { corridor = c2, mesh = m, safe_poly = ref(5), safe_pos = { 9, 9, 9 } }))
    t:check(fx.kept == 4 and ids(fx.path, { 0, 1, 2, 3 }), "fix of a valid corridor: nothing changes")
    local rp = put(t:call("corridor.replan", { corridor = c2, mesh = m, ["end"] = { 5.5, 0, 0.5 } }))
    t:check(rp.status == "found" and ids(rp.path, { 0, 1, 2, 3, { 1, 0 }, { 1, 1 } }) and
            pt(rp.target, 5.5, 0, 0.5) and pt(rp.position, 0.5, 0, 0.5), "replan: the row again")
    b:u32(rp.nodes)
    -- an end 0.7 above the surface is accepted (QRY-061: climb 0.5 + 2 x 0.25 = 1)
    rp = put(t:call("corridor.replan", { corridor = c2, mesh = m, ["end"] = { 5.5, 0.7, 0.5 } }))
    t:check(rp.status == "found" and pt(rp.target, 5.5, 0, 0.5), "replan to an end above the surface")
    rp = put(t:call("corridor.replan", { corridor = c2, mesh = m, ["end"] = { 7.5, 0, 3.5 }, max_nodes = 2 }))
    t:check(rp.status == "no_path" and rp.reason == "node_limit" and #rp.path == 6,
            "replan with a pool of 2: no path (node_limit), nothing changed")
    t:call("mesh.replace_tile", { mesh = m, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 4)).handle })
    iv = t:call("corridor.is_valid", { corridor = c2, mesh = m })
    t:check(not iv.valid and iv.index == 0 and iv.reason == "stale", "tile (0, 0) replaced: stale from 0")
    fx = put(t:call("corridor.fix", { corridor = c2, mesh = m, safe_poly = ref(1), safe_pos = { 1.2, 0, 0.2 } }))
    t:check(fx.kept == 0 and ids(fx.path, { 1 }) and pt(fx.position, 1.2, 0, 0.2) and pt(fx.target, 2, 0, 0.5),
            "fix with no valid prefix: the safe polygon, its head point, the target (2, 0, 0.5)")
    t:call("drop", { handle = c })
    t:call("drop", { handle = c2 })
    t:call("drop", { handle = c1 })
    t:checkpoint("corridor edge cases", "table", b:hex())
  end,
}
