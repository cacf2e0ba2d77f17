-- Handles are 1, 2, 3, ... in order of creation in a session and never reused; drop
-- frees an object; a handle that is not live is an argument error naming "handle".
return {
  title = "handles count up from 1, are never reused, and drop rejects dead handles",
  clauses = { "CONF-040", "CONF-041", "CONF-042" },
  run = function(t)
    t:expect_error("drop", { handle = 1 }, { kind = "argument", field = "handle", value = "1" })
    t:expect_error("drop", { handle = 0 }, { kind = "argument", field = "handle", value = "0" })
    t:expect_error("drop", {}, { kind = "argument", field = "handle", value = "" })
    t:expect_error("drop", { handle = "1" }, { kind = "argument", field = "handle", value = "" })
    local a = t:call("prng.new", { seed = "0000000000000001" }).handle
    local b = t:call("prng.new", { seed = "0000000000000002" }).handle
    t:check(a == 1 and b == 2, "the first handles are 1 and 2")
    t:call("drop", { handle = b })
    t:expect_error("drop", { handle = b }, { kind = "argument", field = "handle", value = "2" })
    local c = t:call("prng.new", { seed = "0000000000000003" }).handle
    t:check(c == 3, "a dropped handle is not reused: the next is 3")
    -- a dropped object can no longer be used; a live one still can
    t:expect_error("prng.next_u64", { prng = b, count = 1 }, { kind = "argument", field = "prng" })
    local v = t:call("prng.next_u64", { prng = a, count = 1 }).values
    t:check(type(v) == "table" and #v == 1, "the live handle still works")
    -- one counter for all kinds: a mesh created now gets 4 (CONF-040)
    local m = t:call("mesh.create", {
      tiling = { origin = t:array({ 0.0, 0.0, 0.0 }), cell_size = 0.5, cell_height = 0.25,
        tile_cells = 16, max_verts_per_poly = 6 },
      walkable_climb = 0.5, max_tiles = 4 }).handle
    t:check(m == 4, "handles count over all kinds of objects: the mesh is 4")
    -- a live handle of another kind is refused, naming the argument (CONF-042)
    t:expect_error("prng.next_u64", { prng = m, count = 1 }, { kind = "argument", field = "prng" })
    t:call("drop", { handle = a })
    t:call("drop", { handle = c })
    t:call("drop", { handle = m })
    t:expect_error("drop", { handle = 4 }, { kind = "argument", field = "handle", value = "4" })
    t:expect_error("drop", { handle = 5 }, { kind = "argument", field = "handle", value = "5" })
  end,
}
