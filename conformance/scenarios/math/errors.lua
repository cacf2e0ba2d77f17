-- conformance/scenarios/math/errors.lua
-- Every rejected input of the math and prng ops: kind, field and value. Value texts
-- (CONF-013): empty for an argument that is absent or not of its form (CONF-035); the
-- value's own text when a rule rejects a value of the right form.

return {
  title = "Errors of math.* and prng.*: domain, malformed arguments, PRNG unchanged",
  clauses = { "MATH-030", "MATH-050", "MATH-051", "MATH-052", "MATH-053", "MATH-054",
              "MATH-055", "CONF-013", "CONF-032", "CONF-035" },
  run = function(t)
    -- SinCos domain (MATH-030, MATH-050).
    t:expect_error("math.sincos", { a = 0 / 0 }, { kind = "out_of_range", field = "a", value = "NaN" })
    t:expect_error("math.sincos", { a = 1 / 0 }, { kind = "out_of_range", field = "a", value = "Infinity" })
    t:expect_error("math.sincos", { a = -1 / 0 }, { kind = "out_of_range", field = "a", value = "-Infinity" })
    t:expect_error("math.sincos", { a = 0x1.0000000000001p21 },
                   { kind = "out_of_range", field = "a", value = "2097152.0000000005" })
    t:expect_error("math.sincos", { a = -0x1.0000000000001p21 },
                   { kind = "out_of_range", field = "a", value = "-2097152.0000000005" })
    t:expect_error("math.sincos", { a = 1e300 }, { kind = "out_of_range", field = "a", value = "1e+300" })
    t:expect_error("math.sincos", { a = "one" }, { kind = "argument", field = "a", value = "" })
    t:expect_error("math.sincos", { b = 1 }, { kind = "argument", field = "a", value = "" })
    t:call("math.sincos", { a = 0x1p21 }) -- the end itself is inside

    -- orient2d_i64 (MATH-051).
    local ok = { a = { 0, 0 }, b = { 1, 0 }, c = { 0, 1 } }
    t:check(t:call("math.orient2d_i64", ok).sign == 1, "unit triangle is counter-clockwise")
    t:expect_error("math.orient2d_i64", { a = { 0 }, b = { 1, 0 }, c = { 0, 1 } },
                   { kind = "argument", field = "a", value = "" })
    t:expect_error("math.orient2d_i64", { a = { 0, 0 }, b = { 1, 0 } }, { kind = "argument", field = "c", value = "" })
    t:expect_error("math.orient2d_i64", { a = { 0, 0 }, b = { 1, 1.5 }, c = { 0, 1 } },
                   { kind = "argument", field = "b[1]", value = "" })
    t:expect_error("math.orient2d_i64", { a = { 0, 0 }, b = { 1, 0 }, c = { "12x", 1 } },
                   { kind = "argument", field = "c[0]", value = "" })
    t:expect_error("math.orient2d_i64", { a = { 0, 0 }, b = { 1, 0 }, c = { "+12", 1 } },
                   { kind = "argument", field = "c[0]", value = "" })
    t:expect_error("math.orient2d_i64", { a = { 0, 0 }, b = { 1, 0 }, c = { 2 ^ 60, 1 } },
                   { kind = "argument", field = "c[0]", value = "1152921504606846976" })
    -- An integer literal beyond 2^53 keeps its exact value (CONF-032), also in the value text.
    t:expect_error("math.orient2d_i64", { a = { 0, 0 }, b = { 1, 0 }, c = { 9007199254740993, 1 } },
                   { kind = "argument", field = "c[0]", value = "9007199254740993" })
    -- Integral but beyond 64 bits is not an integer (CONF-032): not of the form.
    t:expect_error("math.orient2d_i64", { a = { 0, 0 }, b = { 1, 0 }, c = { 1e30, 1 } },
                   { kind = "argument", field = "c[0]", value = "" })
    -- A decimal string beyond 64 bits is reported as given, leading zeros kept.
    t:expect_error("math.orient2d_i64", { a = { 0, "00009223372036854775808" }, b = { 1, 0 }, c = { 0, 1 } },
                   { kind = "out_of_range", field = "a[1]", value = "00009223372036854775808" })
    t:expect_error("math.orient2d_i64", { a = { 0, "9223372036854775808" }, b = { 1, 0 }, c = { 0, 1 } },
                   { kind = "out_of_range", field = "a[1]", value = "9223372036854775808" })
    t:expect_error("math.orient2d_i64", { a = { 0, 0 }, b = { "-9223372036854775809", 0 }, c = { 0, 1 } },
                   { kind = "out_of_range", field = "b[0]", value = "-9223372036854775809" })
    t:check(t:call("math.orient2d_i64", { a = { "-9223372036854775808", 0 }, b = { 1, 0 },
                   c = { 0, 1 } }).sign == 1, "-2^63 accepted")

    -- orient2d_f32 (MATH-052).
    t:expect_error("math.orient2d_f32", { a = { 0, 0 }, b = { 1, 0.1 }, c = { 0, 1 } },
                   { kind = "argument", field = "b[1]", value = "0.1" })
    t:expect_error("math.orient2d_f32", { a = { 0, 0 }, b = { 1, 0 }, c = { 1 / 0, 1 } },
                   { kind = "argument", field = "c[0]", value = "" })
    t:expect_error("math.orient2d_f32", { a = { 0 / 0, 0 }, b = { 1, 0 }, c = { 0, 1 } },
                   { kind = "argument", field = "a[0]", value = "" })
    t:expect_error("math.orient2d_f32", { a = { 0, 0 }, b = { 1, 0 }, c = { 0, 2 ^ 128 } },
                   { kind = "argument", field = "c[1]", value = "3.402823669209385e+38" })
    t:expect_error("math.orient2d_f32", { b = { 1, 0 }, c = { 0, 1 } }, { kind = "argument", field = "a", value = "" })

    -- prng (MATH-053 .. MATH-055).
    t:expect_error("prng.new", { seed = "xyz" }, { kind = "argument", field = "seed", value = "" })
    t:expect_error("prng.new", { seed = 5 }, { kind = "argument", field = "seed", value = "" })
    local g = t:call("prng.new", { seed = "0000000000000000" }).handle
    t:expect_error("prng.next_u64", { prng = g + 1000, count = 1 },
                   { kind = "argument", field = "prng", value = tostring(g + 1000) })
    t:expect_error("prng.next_u64", { prng = g, count = -1 }, { kind = "out_of_range", field = "count", value = "-1" })
    t:expect_error("prng.next_u64", { prng = g, count = 65537 },
                   { kind = "out_of_range", field = "count", value = "65537" })
    t:expect_error("prng.next_u64", { prng = g, count = 1.5 }, { kind = "argument", field = "count", value = "" })
    t:expect_error("prng.unit", { prng = g }, { kind = "argument", field = "count", value = "" })
    t:expect_error("prng.below", { prng = g, n = "0000000000000000", count = 3 },
                   { kind = "out_of_range", field = "n", value = "0000000000000000" })
    t:expect_error("prng.below", { prng = g, n = "a", count = 3 }, { kind = "argument", field = "n", value = "" })
    -- MATH-054's order: count is checked before n.
    t:expect_error("prng.below", { prng = g, n = "a", count = -1 },
                   { kind = "out_of_range", field = "count", value = "-1" })
    -- None of the failures advanced the stream: the first output of seed 0 comes next.
    local v = t:call("prng.next_u64", { prng = g, count = 1 }).values
    t:check(v[1] == "99ec5f36cb75f2b4", "failed requests left the PRNG unchanged")
  end,
}
