-- Deterministic math of spec/math.md: RoundHalfEven (MATH-007), binary32 conversion
-- (MATH-008, MATH-009), Orient2D on int64 and float32 (MATH-020 .. MATH-023), SinCos
-- (MATH-030 .. MATH-037) and the PRNG (MATH-040 .. MATH-045).
-- Lua 5.4 floats are binary64 and each arithmetic operator is one rounded IEEE operation
-- (MATH-002): the code below writes every operation in the order the spec writes it.
local M = {}

local TWO52 = 4503599627370496.0

-- MATH-007
function M.round_half_even(x)
  local t = x < 0 and -x or x
  if t >= TWO52 then return x end
  local r = (t + TWO52) - TWO52
  if x >= 0 then return r else return -r end
end

-- MATH-008: binary64 -> nearest binary32 (as a binary64 value); nil when it would be infinite.
local F32_LIMIT = 0x1.ffffffp127
function M.to_f32(x)
  if x ~= x then return nil end
  if x >= F32_LIMIT or x <= -F32_LIMIT then return nil end
  return (string.unpack("<f", string.pack("<f", x)))
end

-- MATH-009
function M.is_f32(x)
  if x ~= x or x == math.huge or x == -math.huge then return false end
  local y = M.to_f32(x)
  return y ~= nil and y == x
end

---------------------------------------------------------------------------------------------
-- MATH-020, MATH-021: sign of (bx-ax)(cy-ay) - (by-ay)(cx-ax), exactly, on signed 64-bit.

-- a - b as (sign, unsigned 64-bit magnitude held in a Lua integer).
local function diff(a, b)
  if a == b then return 0, 0 end
  if a > b then return 1, a - b end -- the wrapped difference is the exact magnitude
  return -1, b - a
end

-- 64 x 64 -> 128 unsigned product as (hi, lo).
local function mulu(a, b)
  local al, ah = a & 0xffffffff, a >> 32
  local bl, bh = b & 0xffffffff, b >> 32
  local ll, hl, lh, hh = al * bl, ah * bl, al * bh, ah * bh
  local cross = (ll >> 32) + (hl & 0xffffffff) + lh
  return (hl >> 32) + (cross >> 32) + hh, (cross << 32) | (ll & 0xffffffff)
end

local function cmp128(h1, l1, h2, l2)
  if h1 ~= h2 then return math.ult(h1, h2) and -1 or 1 end
  if l1 ~= l2 then return math.ult(l1, l2) and -1 or 1 end
  return 0
end

function M.orient2d_i64(ax, ay, bx, by, cx, cy)
  local s1, m1 = diff(bx, ax)
  local s2, m2 = diff(cy, ay)
  local s3, m3 = diff(by, ay)
  local s4, m4 = diff(cx, ax)
  local sp, sq = s1 * s2, s3 * s4 -- signs of the two products
  if sp ~= sq then
    local d = sp - sq
    return d > 0 and 1 or -1
  end
  if sp == 0 then return 0 end
  local h1, l1 = mulu(m1, m2)
  local h2, l2 = mulu(m3, m4)
  local c = cmp128(h1, l1, h2, l2)
  if c == 0 then return 0 end
  if c > 0 then return sp else return -sp end
end

-- MATH-033
local function two_sum(p, q)
  local s = p + q
  local bv = s - p
  local av = s - bv
  local e = (p - av) + (q - bv)
  return s, e
end
M.two_sum = two_sum

-- MATH-022, MATH-023: exact sign of the float32 orientation, by the six-term expansion.
function M.orient2d_f32(ax, ay, bx, by, cx, cy)
  local t = { bx * cy, -(bx * ay), -(ax * cy), -(by * cx), by * ax, ay * cx }
  local e = {}
  for i = 1, 6 do
    local q = t[i]
    for j = 1, #e do
      q, e[j] = two_sum(q, e[j])
    end
    e[#e + 1] = q
  end
  for j = #e, 1, -1 do
    if e[j] > 0 then return 1 elseif e[j] < 0 then return -1 end
  end
  return 0
end

---------------------------------------------------------------------------------------------
-- SinCos (MATH-030 .. MATH-037).

local INV_PIO2 = 0x1.45f306dc9c883p-1
local P1 = 0x1.921fb544p+0
local P2 = 0x1.0b4611a6p-34
local P3 = 0x1.3198a2ep-69
local P4 = 0x1.b839a252049c1p-104

local S = { -0x1.5555555555555p-3, 0x1.1111111111111p-7, -0x1.a01a01a01a01ap-13,
  0x1.71de3a556c734p-19, -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33,
  -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49 } -- S3 .. S17
local C = { 0x1.5555555555555p-5, -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16,
  -0x1.27e4fb7789f5cp-22, 0x1.1eed8eff8d898p-29, -0x1.93974a8c07c9dp-37,
  0x1.ae7f3e733b81fp-45, -0x1.6827863b97d97p-53 } -- C4 .. C18

M.SINCOS_MAX = 2097152.0

-- MATH-035
local function kernel_sin(x, y)
  local z = x * x
  local v = z * x
  local p = S[8]
  for i = 7, 1, -1 do p = S[i] + z * p end
  local w = v * p
  local t = y - (0.5 * z) * y
  return x + (w + t)
end

-- MATH-036
local function kernel_cos(x, y)
  local z = x * x
  local q = C[8]
  for i = 7, 1, -1 do q = C[i] + z * q end
  local hz = 0.5 * z
  local w = 1.0 - hz
  local e = (1.0 - w) - hz
  local f = (z * z) * q - x * y
  return w + (e + f)
end

-- The caller has checked MATH-030 (finite, |a| <= 2^21).
function M.sincos(a)
  if a == 0 then return a, 1.0 end -- MATH-031
  -- MATH-034
  local kf = M.round_half_even(a * INV_PIO2)
  local k = math.tointeger(kf)
  local K = kf + 0.0
  if K == 0 then K = 0.0 end -- +0 when k is 0
  local t1, t2, t3, t4 = K * P1, K * P2, K * P3, K * P4
  local h = a - t1
  local l, e
  h, l = two_sum(h, -t2)
  h, e = two_sum(h, -t3); l = l + e
  h, e = two_sum(h, -t4); l = l + e
  local x, y = two_sum(h, l)
  local sr, cr = kernel_sin(x, y), kernel_cos(x, y)
  local n = k & 3 -- MATH-037
  if n == 0 then return sr, cr
  elseif n == 1 then return cr, -sr
  elseif n == 2 then return -sr, -cr
  else return -cr, sr end
end

---------------------------------------------------------------------------------------------
-- PRNG: SplitMix64 seeding and xoshiro256** (MATH-040 .. MATH-045). A state is {s0,s1,s2,s3}.

local function rotl(v, r) return (v << r) | (v >> (64 - r)) end

-- MATH-041: one step on x; returns the new x and the output.
local function splitmix(x)
  x = x + 0x9e3779b97f4a7c15
  local z = x
  z = (z ~ (z >> 30)) * 0xbf58476d1ce4e5b9
  z = (z ~ (z >> 27)) * 0x94d049bb133111eb
  return x, z ~ (z >> 31)
end

-- MATH-042
function M.prng_seed(seed)
  local x, s = seed, {}
  for i = 1, 4 do x, s[i] = splitmix(x) end
  return s
end

-- MATH-043
function M.prng_next(s)
  local s0, s1, s2, s3 = s[1], s[2], s[3], s[4]
  local result = rotl(s1 * 5, 7) * 9
  local t = s1 << 17
  s2 = s2 ~ s0
  s3 = s3 ~ s1
  s1 = s1 ~ s2
  s0 = s0 ~ s3
  s2 = s2 ~ t
  s3 = rotl(s3, 45)
  s[1], s[2], s[3], s[4] = s0, s1, s2, s3
  return result
end

-- Unsigned 64-bit a mod n (n ~= 0).
local function umod(a, n)
  if n < 0 then -- n >= 2^63 as unsigned
    if math.ult(a, n) then return a end
    return a - n
  end
  local q = ((a >> 1) // n) << 1
  local r = a - q * n
  while not math.ult(r, n) do r = r - n end
  return r
end
M.umod = umod

-- MATH-044 (n ~= 0)
function M.prng_below(s, n)
  local r = umod(0 - n, n)
  while true do
    local x = M.prng_next(s)
    if not math.ult(x, r) then return umod(x, n) end
  end
end

-- MATH-045
function M.prng_unit(s)
  return (M.prng_next(s) >> 11) * 0x1p-53
end

return M
