-- query/corridor-review: the points of docs/reviews/port-review-corridor.md that no other corridor
-- scenario decides, each value derived from spec/query-corridor.md:
-- finding 1 (QCR-202, QCR-221, QCR-222, QCR-242): a corridor set on mesh A and then used on mesh
--   B, whose first tile has the same squares as A's but is tile (0, 0) layer 1, so every
--   reference of A resolves in B (same slot and generation, MESH-016) to a polygon with another
--   canonical id (layer 1, QRY-023). Head merge: the shared polygon comes from V (B's id); tail
--   merge and splice: it keeps the list's id (A's). The lists mix ids of the two meshes.
-- finding 3 (QCR-202, QCR-291): on an empty corridor, max_nodes is checked before `empty`.
-- finding 4 (QCR-241): with n < 3 topology does not check the head: no error, `spliced` false.
-- finding 9 (QCR-252): fix checks safe_poly even when the list is valid (nothing would change).
-- finding 12 (QCR-240): with d = 0 visibility has checked the head: a filtered head is an error.
-- On query.lua's grid of unit squares: cell (i, j) of a tile is polygon 4j + i, flags 1.
local Q = require("query")
local C = require("query_corridor")

return {
  title = "Path corridor review points: ids across two meshes, error orders and skips",
  clauses = { "QCR-202", "QCR-221", "QCR-222", "QCR-240", "QCR-241", "QCR-242", "QCR-252",
              "QCR-291" },
  run = function(t)
    local function mesh(layer)
      local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
      local th = t:call("tile.create", Q.grid(0, 0, layer, 0, 4)).handle
      t:call("mesh.add_tile", { mesh = m, tile = th })
      return m
    end
    local A, B = mesh(0), mesh(1)
    local function ref(m, k, layer)
      return t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = layer, poly = k }).ref
    end
    local function refs(list)
      local r = {}
      for i, k in ipairs(list) do r[i] = ref(A, k, 0) end
      return r
    end
    -- want: list of {layer, polygon index}; layer 0 is A's id, layer 1 B's
    local function ids(list, want)
      if #list ~= #want then return false end
      for i, p in ipairs(list) do
        if p.id[1] ~= 0 or p.id[2] ~= 0 or p.id[3] ~= want[i][1] or p.id[4] ~= want[i][2] then
          return false
        end
      end
      return true
    end
    local function pt(p, x, y, z) return p[1] == x and p[2] == y and p[3] == z end
    local b = t:table()
    local function put(s) C.put_state(b, s); return s end
    local function set(c, s, e, list)
      return put(t:call("corridor.set", { corridor = c, mesh = A, start = s, ["end"] = e, path = refs(list) }))
    end
    local same = true
    for k = 0, 15 do if ref(A, k, 0) ~= ref(B, k, 1) then same = false end end
    t:check(same, "A's references are B's (slot and generation alike, MESH-010): each resolves in B")

    -- finding 1, head merge (QCR-221): on B the move from polygon 0 into 1 has the route V = (0, 1)
    -- with B's ids; i = 1 (c[1] = V[1] by reference), j = 1; the list V[1], c[2], c[3]
    local c = t:call("corridor.create", { max_path = 8 }).handle
    local s = set(c, { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }, { 0, 1, 2, 3 })
    t:check(ids(s.path, { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 } }), "set on A: A's ids")
    local mv = put(t:call("corridor.move_position", { corridor = c, mesh = B, pos = { 1.5, 0, 0.5 } }))
    t:check(ids(mv.path, { { 1, 1 }, { 0, 2 }, { 0, 3 } }) and pt(mv.position, 1.5, 0, 0.5),
            "head merge on B: the shared polygon 1 carries B's id (from V), 2 and 3 keep A's")
    -- sideways on B: V = (1, 5), i = 0, j = 0: the list V[1], V[0], c[1], c[2]
    mv = put(t:call("corridor.move_position", { corridor = c, mesh = B, pos = { 1.5, 0, 1.5 } }))
    t:check(ids(mv.path, { { 1, 5 }, { 1, 1 }, { 0, 2 }, { 0, 3 } }), "sideways on B: 5 and 1 from V, B's ids")
    -- the same moves on A refresh nothing: V's ids are A's again for the polygons V brings
    mv = put(t:call("corridor.move_position", { corridor = c, mesh = A, pos = { 1.5, 0, 0.5 } }))
    t:check(ids(mv.path, { { 0, 1 }, { 0, 2 }, { 0, 3 } }), "back on A into 1: V = (5, 1), the list 1 (A), 2, 3")

    -- finding 1, tail merge (QCR-222): on B the target 3 -> 7: V = (3, 7), i = 3, j = 0:
    -- c[0] .. c[3] (A's ids, c[3] the shared polygon kept from the list), then V[1] = 7 (B's id)
    local c2 = t:call("corridor.create", { max_path = 8 }).handle
    set(c2, { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }, { 0, 1, 2, 3 })
    local mt = put(t:call("corridor.move_target", { corridor = c2, mesh = B, pos = { 3.5, 0, 1.5 } }))
    t:check(ids(mt.path, { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 }, { 1, 7 } }) and pt(mt.target, 3.5, 0, 1.5),
            "tail merge on B: the shared polygon 3 keeps A's id, 7 comes with B's")

    -- finding 1, splice (QCR-242): the list 0, 4, 5, 6 and the ray on B 0, 1, 5, 6 (as in
    -- corridor-edges): i = 3, j = 3; V[0] .. V[2] (B's ids, c[0] too: it comes back as V[0]),
    -- then c[3] (A's id)
    local c3 = t:call("corridor.create", { max_path = 8 }).handle
    set(c3, { 0.5, 0, 0.5 }, { 2.5, 0, 1.5 }, { 0, 4, 5, 6 })
    local ov = put(t:call("corridor.optimize_visibility", { corridor = c3, mesh = B, next = { 2.5, 0, 1.5 }, range = 10 }))
    t:check(ov.spliced and ids(ov.path, { { 1, 0 }, { 1, 1 }, { 1, 5 }, { 0, 6 } }),
            "splice on B: 0, 1, 5 from V (B's ids), the shared polygon 6 keeps A's")

    -- finding 3 (QCR-291, QCR-202): empty corridor, max_nodes first, then `empty`
    local e = t:call("corridor.create", {}).handle
    t:expect_error("corridor.optimize_topology", { corridor = e, mesh = A, max_nodes = 0 },
                   { kind = "out_of_range", field = "max_nodes", value = "0" })
    t:expect_error("corridor.replan", { corridor = e, mesh = A, ["end"] = { 0.5, 0, 0.5 }, max_nodes = 0 },
                   { kind = "out_of_range", field = "max_nodes", value = "0" })
    t:expect_error("corridor.replan", { corridor = e, mesh = A, ["end"] = { 0.5, 0, 0.5 } },
                   { kind = "argument", field = "corridor", value = "empty" })

    -- finding 4 (QCR-241): n = 2, every polygon filtered (exclude 1, flags 1): no error, nothing
    local c4 = t:call("corridor.create", { max_path = 8 }).handle
    set(c4, { 0.5, 0, 0.5 }, { 1.5, 0, 0.5 }, { 0, 1 })
    local ot = put(t:call("corridor.optimize_topology", { corridor = c4, mesh = A, filter = { exclude = 1 } }))
    t:check(not ot.spliced and not ot.truncated and ids(ot.path, { { 0, 0 }, { 0, 1 } }),
            "topology with n = 2 and a filtered head: spliced false, no error")
    -- n = 3: the head is checked
    set(c4, { 0.5, 0, 0.5 }, { 2.5, 0, 0.5 }, { 0, 1, 2 })
    t:expect_error("corridor.optimize_topology", { corridor = c4, mesh = A, filter = { exclude = 1 } },
                   { kind = "argument", field = "path[0]", value = ref(A, 0, 0) })

    -- finding 9 (QCR-252): polygon 5 flags 2, filter exclude 2: the list 0, 1, 2 passes (k = n)
    t:call("mesh.set_poly_flags", { mesh = A, ref = ref(A, 5, 0), flags = 2 })
    local iv = t:call("corridor.is_valid", { corridor = c4, mesh = A, filter = { exclude = 2 } })
    t:check(iv.valid and iv.checked == 3, "the list is valid under exclude 2")
    t:expect_error("corridor.fix", { corridor = c4, mesh = A, safe_poly = ref(A, 5, 0), safe_pos = { 1.5, 0, 1.5 },
                                     filter = { exclude = 2 } },
                   { kind = "argument", field = "safe_poly", value = ref(A, 5, 0) })
    local fx = put(t:call("corridor.fix", { corridor = c4, mesh = A, safe_poly = ref(A, 4, 0),
                                            safe_pos = { 0.5, 0, 1.5 }, filter = { exclude = 2 } }))
    t:check(fx.kept == 3 and ids(fx.path, { { 0, 0 }, { 0, 1 }, { 0, 2 } }) and pt(fx.position, 0.5, 0, 0.5) and
            pt(fx.target, 2.5, 0, 0.5), "fix with a passing safe_poly and a valid list: kept 3, nothing changes")

    -- finding 12 (QCR-240): next = the position (d = 0); a filtered head is an error first
    t:expect_error("corridor.optimize_visibility", { corridor = c4, mesh = A, next = { 0.5, 0, 0.5 }, range = 1,
                                                     filter = { exclude = 1 } },
                   { kind = "argument", field = "path[0]", value = ref(A, 0, 0) })
    ov = put(t:call("corridor.optimize_visibility", { corridor = c4, mesh = A, next = { 0.5, 9, 0.5 }, range = 1 }))
    t:check(not ov.spliced and not ov.truncated and ids(ov.path, { { 0, 0 }, { 0, 1 }, { 0, 2 } }),
            "d = 0 with a passing head: spliced false, nothing changes")
    for _, h in ipairs({ c, c2, c3, e, c4 }) do t:call("drop", { handle = h }) end
    t:checkpoint("corridor review points", "table", b:hex())
  end,
}
