-- CONF-014: a failed call changes nothing, shown with the session and math ops alone (the
-- same rule over tiles and meshes is format/failed-calls). Two PRNGs with the same seed are
-- made and advanced alike; failing calls of the session and math ops follow, the ones that
-- would create an object among them; then the first PRNG must continue its stream exactly
-- as its untouched twin does, and the next handle must be 3 (no failed call used one up).
return {
  title = "A failed call changes nothing: session and math ops leave objects, streams and handle numbers as they were",
  clauses = { "CONF-014", "CONF-040" },
  run = function(t)
    local p = t:call("prng.new", { seed = "0000000000000007" }).handle
    local twin = t:call("prng.new", { seed = "0000000000000007" }).handle
    t:check(p == 1 and twin == 2, "handles 1 and 2 in creation order")
    t:call("prng.next_u64", { prng = p, count = 3 })
    t:call("prng.next_u64", { prng = twin, count = 3 })

    -- failing creations: no object, no handle
    t:expect_error("prng.new", { seed = "xyz" }, { kind = "argument", field = "seed", value = "" })
    t:expect_error("prng.new", {}, { kind = "argument", field = "seed", value = "" })
    -- failing PRNG requests on a live PRNG: its state does not move
    t:expect_error("prng.next_u64", { prng = p, count = 65537 }, { kind = "out_of_range", field = "count", value = "65537" })
    t:expect_error("prng.below", { prng = p, count = 2, n = "0000000000000000" },
                   { kind = "out_of_range", field = "n", value = "0000000000000000" })
    t:expect_error("prng.unit", { prng = 7, count = 1 }, { kind = "argument", field = "prng", value = "7" })
    -- failing session ops
    t:expect_error("drop", { handle = 99 }, { kind = "argument", field = "handle", value = "99" })
    t:expect_error("echo", { f64 = { 1, "x" } }, { kind = "argument", field = "f64[1]", value = "" })

    -- the PRNG continues exactly as its twin
    local v1 = t:call("prng.next_u64", { prng = p, count = 4 }).values
    local v2 = t:call("prng.next_u64", { prng = twin, count = 4 }).values
    local same = #v1 == 4 and #v2 == 4
    for i = 1, 4 do same = same and v1[i] == v2[i] end
    t:check(same, "the PRNG's stream is where it was")
    local tb = t:table()
    for i = 1, #v1 do tb:u64hex(v1[i]) end
    t:checkpoint("prng after", "table", tb:hex())

    -- no handle number was used up by the failed requests
    t:check(t:call("prng.new", { seed = "0000000000000000" }).handle == 3, "the next handle is 3")
  end,
}
