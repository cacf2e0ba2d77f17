-- Value encodings through the echo op: doubles in shortest round-trip form ("-0" kept,
-- non-finite as strings), exact 64-bit integers, u64 as 16 hex digits, bytes as hex.
local function bits(x) return string.unpack("<i8", string.pack("<d", x)) end

return {
  title = "echo round-trips doubles, integers, u64 and bytes in their canonical forms",
  clauses = { "CONF-030", "CONF-031", "CONF-032", "CONF-033", "CONF-034", "CONF-053" },
  run = function(t)
    local f = { 0.1, -0.0, 1.0, 1 / 3, 0.1 + 0.2, 2 ^ -1074, 1.7976931348623157e308, 1e21, 1e-7,
      123456.0, 0 / 0, 1 / 0, -1 / 0, 2 ^ 53 + 2.0, -2.2250738585072014e-308 }
    local r = t:call("echo", { f64 = t:array(f) })
    t:check(#r.f64 == #f, "every double comes back")
    local tb = t:table()
    for i, x in ipairs(f) do
      local y = t:num(r.f64[i])
      if x ~= x then
        t:check(y ~= y and r.f64[i] == "NaN", "NaN travels as the string NaN")
      else
        t:check(bits(x) == bits(y), string.format("double %d (%.17g) round-trips bit for bit", i, x))
      end
      tb:f64(y)
    end
    t:check(r.f64[11] == "NaN" and r.f64[12] == "Infinity" and r.f64[13] == "-Infinity",
      "non-finite doubles are the strings NaN, Infinity, -Infinity")
    t:check(math.type(r.f64[3]) == "integer", "1.0 is written as 1 (shortest form)")
    t:check(math.type(r.f64[2]) == "float" and 1 / r.f64[2] < 0, "-0 keeps its sign")
    t:checkpoint("f64", "table", tb:hex())

    local ints = { 0, -1, 9007199254740993, math.maxinteger, math.mininteger }
    local ri = t:call("echo", { i64 = t:array(ints) })
    for i, x in ipairs(ints) do t:check(ri.i64[i] == x, "integer " .. i .. " is exact") end

    local us = { "0000000000000000", "ffffffffffffffff", "0123456789abcdef" }
    local ru = t:call("echo", { u64 = t:array(us), bytes = t:array({ "", "00ff7f80" }), str = t:array({ "a\u{e9}\n" }) })
    for i, x in ipairs(us) do t:check(ru.u64[i] == x, "u64 " .. i .. " round-trips") end
    t:check(ru.bytes[1] == "" and ru.bytes[2] == "00ff7f80", "bytes round-trip")
    t:check(ru.str[1] == "a\u{e9}\n", "strings round-trip as UTF-8")

    -- wrong forms are argument errors naming the element
    t:expect_error("echo", { f64 = t:array({ 1, "nan" }) }, { kind = "argument", field = "f64[1]" })
    t:expect_error("echo", { i64 = t:array({ 1.5 }) }, { kind = "argument", field = "i64[0]" })
    t:expect_error("echo", { i64 = t:array({ 9223372036854775808.0 }) }, { kind = "argument", field = "i64[0]" })
    t:expect_error("echo", { u64 = t:array({ "0123456789ABCDEF" }) }, { kind = "argument", field = "u64[0]" })
    t:expect_error("echo", { u64 = t:array({ "123" }) }, { kind = "argument", field = "u64[0]" })
    t:expect_error("echo", { bytes = t:array({ "abc" }) }, { kind = "argument", field = "bytes[0]" })
    t:expect_error("echo", { f32 = t:array({}) }, { kind = "argument", field = "f32" })
    t:expect_error("echo", { str = "x" }, { kind = "argument", field = "str" })
  end,
}
