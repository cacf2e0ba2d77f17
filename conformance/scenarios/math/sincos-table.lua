-- conformance/scenarios/math/sincos-table.lua
-- A fixed table of several thousand angles, each built by exact arithmetic (integer
-- products and powers of two, bit steps between neighbouring doubles), and the SinCos
-- of each: checkpoint "table" of (a, s, c) as little-endian f64 triples.

local function pow2(e) -- 2^e by exact doublings/halvings (no pow())
  local v = 1.0
  if e >= 0 then for _ = 1, e do v = v * 2.0 end else for _ = 1, -e do v = v * 0.5 end end
  return v
end
local function bits(x) return (string.unpack("<i8", string.pack("<d", x))) end
local function from_bits(i) return (string.unpack("<d", string.pack("<i8", i))) end
-- Neighbouring double `steps` ulps towards +infinity (for positive x; mirrored for negative).
local function step(x, steps)
  if x >= 0 then return from_bits(bits(x) + steps) else return -from_bits(bits(-x) - steps) end
end

-- The scenario's own generator: a 64-bit LCG (Knuth's MMIX constants), wrapping.
local function lcg(seed)
  local x = seed
  return function()
    x = x * 6364136223846793005 + 1442695040888963407
    return x
  end
end

local P1, P2 = 0x1.921fb544p+0, 0x1.0b4611a6p-34 -- MATH-032: k*P1, k*P2 exact for |k| < 2^21
local DOM = pow2(21)

local function angles()
  local list = {}
  local function add(a) list[#list + 1] = a end
  -- Specials and the domain ends (MATH-030, MATH-031).
  for _, a in ipairs({ 0.0, -0.0, DOM, -DOM, 0x1p-1074, -0x1p-1074, 0x1p-1022, 1.0, -1.0, 0.5,
                       0x1p-27, 0x1p-26, 3.0, 100.0 }) do add(a) end
  for j = 1, 60 do add(step(DOM, -j)); add(-step(DOM, -j)) end
  -- A regular grid across the domain: i * 1048.5 (exact).
  for i = -2000, 2000, 5 do add(i * 1048.5) end
  -- Uniform over the domain: (integer in [-2^52, 2^52)) * 2^-31, exact.
  local r = lcg(1)
  local S31 = pow2(-31)
  for _ = 1, 1000 do add(((r() >> 11) - (1 << 52)) * S31) end
  -- Log-uniform magnitudes 2^-60 .. 2^20: mantissa in [1, 2) times a power of two.
  local M52 = pow2(-52)
  for i = 1, 1000 do
    local m = ((r() >> 12) | (1 << 52)) * M52
    local a = m * pow2((i % 81) - 60)
    if r() & 1 == 1 then a = -a end
    add(a)
  end
  -- Near multiples of pi/2: the double nearest k*pi/2 (k*P1 + k*P2, one rounding) and
  -- its neighbours, for small k, k spread over the domain, and the largest k.
  local ks = {}
  for k = 1, 40 do ks[#ks + 1] = k end
  for _ = 1, 200 do ks[#ks + 1] = 1 + (r() >> 1) % 1335088 end
  for k = 1335080, 1335088 do ks[#ks + 1] = k end
  for _, k in ipairs(ks) do
    local a = k * P1 + k * P2
    for d = -2, 2 do
      local b = step(a, d)
      if b <= DOM then add(b); add(-b) end
    end
  end
  return list
end

return {
  title = "SinCos over a fixed table of angles: zeros, domain ends, grid, uniform, "
       .. "log-uniform, near multiples of pi/2",
  clauses = { "MATH-030", "MATH-031", "MATH-032", "MATH-033", "MATH-034", "MATH-035",
              "MATH-036", "MATH-037", "MATH-050" },
  run = function(t)
    local b = t:table()
    local list = angles()
    for _, a in ipairs(list) do
      local r = t:call("math.sincos", { a = a })
      local s, c = r.s, r.c -- numbers as decoded (b:f64 takes integers too; -0 stays -0)
      t:check(s >= -1 and s <= 1 and c >= -1 and c <= 1, "sin and cos within [-1, 1]")
      t:check(math.abs(s * s + c * c - 1) < 1e-15, "s^2 + c^2 = 1 within 1e-15")
      b:f64(a); b:f64(s); b:f64(c)
    end
    -- MATH-031: zeros keep their sign; MATH-037: odd/even symmetry.
    local z = t:call("math.sincos", { a = -0.0 })
    t:check(z.s == 0 and 1 / (z.s * 1.0) < 0 and z.c == 1, "SinCos(-0) = (-0, 1)")
    local p, m = t:call("math.sincos", { a = 12345.678 }), t:call("math.sincos", { a = -12345.678 })
    t:check(p.s == -m.s and p.c == m.c, "SinCos(-a) = (-s, c)")
    t:checkpoint("table", "table", b:hex())
  end,
}
