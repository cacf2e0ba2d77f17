-- MATH-011: signed zeros are preserved as IEEE 754 produces them, and stored with their
-- sign; only a section that says so makes a zero canonical. SinCos(-0) = (-0, 1) (MATH-031)
-- and SinCos(-a) = (-s, c) (MATH-037); the protocol writes -0 as "-0" (CONF-030); a table
-- artifact stores the sign bit (CONF-063). The tile format (FMT-012) and the mesh
-- parameters (MESH-002) say that -0 becomes +0: there the stored zero is +0 (shown by
-- format/signed-zeros, which needs the tile ops).
local function bits(x) return string.pack("<d", x) end
local NEG0, POS0 = bits(-0.0), bits(0.0)

return {
  title = "Signed zeros: SinCos(-0) keeps the sign through the protocol and into artifacts",
  clauses = { "MATH-011" },
  run = function(t)
    local z = t:call("math.sincos", { a = -0.0 })
    local s, c = t:num(z.s), t:num(z.c)
    t:check(bits(s) == NEG0 and c == 1, "SinCos(-0) = (-0, 1)")
    local p = t:call("math.sincos", { a = 0.0 })
    t:check(bits(t:num(p.s)) == POS0 and t:num(p.c) == 1, "SinCos(+0) = (+0, 1)")
    local tb = t:table():f64(s):f64(c):f64(t:num(p.s)):f32(s)
    t:check(tb:hex() == "0000000000000080" .. "000000000000f03f" .. "0000000000000000" .. "00000080",
            "the table stores -0 as 80 in its last byte, +0 as all zeros")
    -- odd symmetry for a tiny angle: sin(-2^-1074) = -2^-1074 exactly, its negation of sin(2^-1074)
    local n = t:call("math.sincos", { a = -4.9406564584124654e-324 })
    local q = t:call("math.sincos", { a = 4.9406564584124654e-324 })
    t:check(bits(t:num(n.s)) == bits(-t:num(q.s)) and t:num(n.c) == t:num(q.c), "SinCos(-a) = (-s, c)")
    tb:f64(t:num(n.s)):f64(t:num(q.s))
    t:checkpoint("sincos zeros", "table", tb:hex())
    -- echo keeps the sign of a zero both ways (CONF-053)
    local e = t:call("echo", { f64 = { -0.0, 0.0 } }).f64
    t:check(bits(t:num(e[1])) == NEG0 and bits(t:num(e[2])) == POS0, "echo keeps -0 and +0")
  end,
}
