-- conformance/scenarios/math/orient.lua
-- Orientation signs of integer and float32 triples: random ones drawn from the PRNG ops
-- at several scales, and nearly collinear constructions whose sign is known by algebra:
-- with b = a + m*d and c = a + t*d + e, det = (m*d) x (t*d + e) = m * (d x e).

local function i64_json(v) -- integers travel as numbers up to 2^53, else as decimal text
  if v >= -(1 << 53) and v <= (1 << 53) then return v end
  return tostring(v)
end
local function hex2i(h) return (math.tointeger(tonumber(h, 16))) end
local function f32(x) return (string.unpack("<f", string.pack("<f", x))) end
local function is_f32(x) return x == x and math.abs(x) < math.huge and f32(x) == x end
local function f32_step(x, up) -- the neighbouring float32 of a nonzero float32 x
  local i = string.unpack("<i4", string.pack("<f", x))
  if (x > 0) == up then i = i + 1 else i = i - 1 end -- bits grow with the magnitude
  return (string.unpack("<f", string.pack("<i4", i)))
end
local function pow2(e)
  local v = 1.0
  if e >= 0 then for _ = 1, e do v = v * 2.0 end else for _ = 1, -e do v = v * 0.5 end end
  return v
end

return {
  title = "Exact orientation of int64 and float32 triples, random and nearly collinear",
  clauses = { "MATH-020", "MATH-021", "MATH-022", "MATH-023", "MATH-051", "MATH-052" },
  run = function(t)
    local g = t:call("prng.new", { seed = "00000000000000a5" }).handle
    local function draws(n) return t:call("prng.next_u64", { prng = g, count = n }).values end

    -- Integers: random triples with coordinates at several scales (full range, 2^62,
    -- 2^31, 2^8) -- coordinate v >> (64 - bits) as a signed value.
    local bi = t:table()
    local function orient_i(a, b, c)
      local s = t:call("math.orient2d_i64", {
        a = { i64_json(a[1]), i64_json(a[2]) }, b = { i64_json(b[1]), i64_json(b[2]) },
        c = { i64_json(c[1]), i64_json(c[2]) } }).sign
      for _, p in ipairs({ a, b, c }) do bi:i64(p[1]); bi:i64(p[2]) end
      bi:i64(s)
      return s
    end
    for _, sh in ipairs({ 0, 2, 33, 56 }) do
      for _ = 1, 100 do
        local v = draws(6)
        local p = {}
        for j = 1, 6 do p[j] = hex2i(v[j]) >> sh; if sh > 0 then p[j] = p[j] - (1 << (63 - sh)) end end
        orient_i({ p[1], p[2] }, { p[3], p[4] }, { p[5], p[6] })
      end
    end
    -- Nearly collinear: |a| < 2^62, |d| < 2^20, |m|, |t| < 2^42, e = (0, s), s in {-1, 0, 1}:
    -- sign = s * sign(m) * sign(dx).
    for _ = 1, 300 do
      local v = draws(6)
      local ax, ay = hex2i(v[1]) >> 2, hex2i(v[2]) >> 2
      local dx, dy = (hex2i(v[3]) >> 44) - (1 << 19), (hex2i(v[4]) >> 44) - (1 << 19)
      local m, tt = (hex2i(v[5]) >> 22) - (1 << 41), (hex2i(v[6]) >> 22) - (1 << 41)
      if dx == 0 then dx = 1 end
      if m == 0 then m = 1 end
      for s = -1, 1 do
        local got = orient_i({ ax, ay }, { ax + m * dx, ay + m * dy }, { ax + tt * dx, ay + tt * dy + s })
        local want = s * (m > 0 and 1 or -1) * (dx > 0 and 1 or -1)
        t:check(got == want, "int64 near-collinear sign = s * sign(m) * sign(dx)")
      end
    end
    -- Extremes.
    local MX, MN = math.maxinteger, math.mininteger
    t:check(orient_i({ MN, MN }, { MX, MN }, { MN, MX }) == 1, "extreme ccw")
    t:check(orient_i({ MN, MN }, { MX, MX }, { -1, -1 }) == 0, "extreme collinear")
    t:check(orient_i({ MN, MN }, { MX, MX }, { 0, -1 }) == -1, "extreme cw")
    t:checkpoint("int64", "table", bi:hex())

    -- Float32: random coordinates m * 2^e with 24-bit m, and collinear constructions.
    local bf = t:table()
    local function orient_f(a, b, c)
      local s = t:call("math.orient2d_f32", { a = a, b = b, c = c }).sign
      for _, p in ipairs({ a, b, c }) do bf:f32(p[1]); bf:f32(p[2]) end
      bf:i64(s)
      return s
    end
    for _, span in ipairs({ { -20, 20 }, { -140, 120 }, { 0, 3 } }) do
      for _ = 1, 100 do
        local v = draws(6)
        local p = {}
        for j = 1, 6 do
          local x = hex2i(v[j])
          local m = (x >> 40) & 0xffffff
          local e = span[1] + (x & 0xffff) % (span[2] - span[1] + 1)
          p[j] = m * pow2(e - 23)
          if x & (1 << 20) ~= 0 then p[j] = -p[j] end
          p[j] = f32(p[j]) -- subnormal range: round to float32 as the builder of the table
        end
        orient_f({ p[1], p[2] }, { p[3], p[4] }, { p[5], p[6] })
      end
    end
    -- Collinear a, a + d, a + 2d (all exactly float32), then c.y nudged one float32
    -- step: det = dx * (c.y step), so sign = sign(dx) * (+1 up, -1 down).
    local n = 0
    while n < 300 do
      local v = draws(5)
      local ea = (hex2i(v[1]) & 0xff) % 200 - 100
      local ax = f32(((hex2i(v[2]) >> 40) - (1 << 23)) * pow2(ea - 23))
      local ay = f32(((hex2i(v[3]) >> 40) - (1 << 23)) * pow2(ea - 23))
      local ed = ea - 30 + (hex2i(v[1]) >> 8) % 28
      local dx = ((hex2i(v[4]) >> 55) - 256) * pow2(ed)
      local dy = ((hex2i(v[5]) >> 55) - 256) * pow2(ed)
      local bx, by, cx, cy = ax + dx, ay + dy, ax + 2 * dx, ay + 2 * dy
      if dx ~= 0 and is_f32(dx) and is_f32(dy) and is_f32(bx) and is_f32(by) and is_f32(cx)
         and is_f32(cy) and bx - ax == dx and cy ~= 0 then
        n = n + 1
        t:check(orient_f({ ax, ay }, { bx, by }, { cx, cy }) == 0, "float32 exactly collinear")
        local up = (hex2i(v[1]) >> 40) & 1 == 1
        local want = (dx > 0 and 1 or -1) * (up and 1 or -1)
        t:check(orient_f({ ax, ay }, { bx, by }, { cx, f32_step(cy, up) }) == want,
                "float32 nudged: sign = sign(dx) * direction of the nudge")
      end
    end
    local FM, TN = f32(3.4028234663852886e38), f32(1.401298464324817e-45)
    t:check(orient_f({ 0, 0 }, { FM, TN }, { FM, 2 * TN }) == 1, "FLT_MAX with subnormals")
    t:check(orient_f({ FM, TN }, { FM, 2 * TN }, { -FM, TN }) == 1, "huge and subnormal")
    t:checkpoint("float32", "table", bf:hex())
  end,
}
