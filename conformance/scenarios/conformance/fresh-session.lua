-- CONF-085: each scenario runs in a fresh session. Scenarios of this group that sort before
-- this one create objects; in a fresh session handles start again at 1 (CONF-040), so the
-- first objects created here get handles 1 and 2.
return {
  title = "Each scenario runs in a fresh session: the first handles are 1 and 2",
  clauses = { "CONF-085" },
  run = function(t)
    t:check(t:call("prng.new", { seed = "0000000000000000" }).handle == 1, "the first handle is 1")
    t:check(t:call("prng.new", { seed = "0000000000000001" }).handle == 2, "the second handle is 2")
    t:expect_error("drop", { handle = 3 }, { kind = "argument", field = "handle", value = "3" })
  end,
}
