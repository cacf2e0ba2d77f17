-- Handles are 1, 2, 3, ... in order of creation in a session and never reused; drop
-- frees an object; a handle that is not live is an argument error naming "handle". Only
-- session and math ops (PRNG objects); one counter over several kinds of object and a live
-- handle of the wrong kind are format/handles.
return {
  title = "handles count up from 1, are never reused, and drop rejects dead handles",
  clauses = { "CONF-040", "CONF-041", "CONF-042" },
  run = function(t)
    t:expect_error("drop", { handle = 1 }, { kind = "argument", field = "handle", value = "1" })
    t:expect_error("drop", { handle = 0 }, { kind = "argument", field = "handle", value = "0" })
    t:expect_error("drop", { handle = -1 }, { kind = "argument", field = "handle", value = "-1" })
    t:expect_error("drop", {}, { kind = "argument", field = "handle", value = "" })
    t:expect_error("drop", { handle = "1" }, { kind = "argument", field = "handle", value = "" })
    local a = t:call("prng.new", { seed = "0000000000000001" }).handle
    local b = t:call("prng.new", { seed = "0000000000000002" }).handle
    t:check(a == 1 and b == 2, "the first handles are 1 and 2")
    t:call("drop", { handle = b })
    t:expect_error("drop", { handle = b }, { kind = "argument", field = "handle", value = "2" })
    local c = t:call("prng.new", { seed = "0000000000000003" }).handle
    t:check(c == 3, "a dropped handle is not reused: the next is 3")
    -- a dropped object can no longer be used; a live one still can (CONF-042)
    t:expect_error("prng.next_u64", { prng = b, count = 1 }, { kind = "argument", field = "prng", value = "2" })
    t:expect_error("prng.next_u64", { prng = 9, count = 1 }, { kind = "argument", field = "prng", value = "9" })
    t:expect_error("prng.next_u64", { prng = "1", count = 1 }, { kind = "argument", field = "prng", value = "" })
    local v = t:call("prng.next_u64", { prng = a, count = 1 }).values
    t:check(type(v) == "table" and #v == 1, "the live handle still works")
    t:call("drop", { handle = a })
    t:call("drop", { handle = c })
    t:expect_error("drop", { handle = 3 }, { kind = "argument", field = "handle", value = "3" })
    t:expect_error("drop", { handle = 4 }, { kind = "argument", field = "handle", value = "4" })
    t:check(t:call("prng.new", { seed = "0000000000000004" }).handle == 4, "after drops the count goes on: 4")
  end,
}
