-- XXH3-64 (xxHash 0.8 XXH3_64bits, seed 0) in pure Lua 5.4, written from the public
-- algorithm description (CONF-060, FMT-043). Lua integers are 64-bit and wrap, and >> is a
-- logical shift, so u64 arithmetic maps directly onto them.
local M = {}

local SECRET = string.char(
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
  0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
  0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
  0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
  0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
  0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
  0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
  0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
  0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
  0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
  0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
  0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e)
local SECRET_SIZE = 192

local P32_1, P32_2, P32_3 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D
local P64_1, P64_2, P64_3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
local P64_4, P64_5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5

local unpack = string.unpack
local function r64(s, i) return (unpack("<i8", s, i + 1)) end -- 0-based offset
local function r32(s, i) return (unpack("<I4", s, i + 1)) end

-- 64 x 64 -> 128 unsigned product, returned as (lo, hi).
local function mul128(a, b)
  local al, ah = a & 0xffffffff, a >> 32
  local bl, bh = b & 0xffffffff, b >> 32
  local ll, hl, lh, hh = al * bl, ah * bl, al * bh, ah * bh
  local cross = (ll >> 32) + (hl & 0xffffffff) + lh
  local hi = (hl >> 32) + (cross >> 32) + hh
  local lo = (cross << 32) | (ll & 0xffffffff)
  return lo, hi
end
M.mul128 = mul128
local function fold64(a, b) local lo, hi = mul128(a, b); return lo ~ hi end

local function rotl(v, r) return (v << r) | (v >> (64 - r)) end
local function swap32(x)
  return ((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >> 8) & 0xff00) | ((x >> 24) & 0xff)
end
local function swap64(x) return (swap32(x & 0xffffffff) << 32) | swap32(x >> 32) end

local function avalanche64(h) -- XXH64's final mix
  h = h ~ (h >> 33); h = h * P64_2; h = h ~ (h >> 29); h = h * P64_3; return h ~ (h >> 32)
end
local function avalanche(h)
  h = h ~ (h >> 37); h = h * 0x165667919E3779F9; return h ~ (h >> 32)
end
local function rrmxmx(h, len)
  h = h ~ (rotl(h, 49) ~ rotl(h, 24))
  h = h * 0x9FB21C651E98DF25
  h = h ~ ((h >> 35) + len)
  h = h * 0x9FB21C651E98DF25
  return h ~ (h >> 28)
end
local function mix16(s, i, k)
  return fold64(r64(s, i) ~ r64(SECRET, k), r64(s, i + 8) ~ r64(SECRET, k + 8))
end

local function hash_long(s, len)
  local acc = { P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1 }
  local function acc512(ip, kp)
    for i = 0, 7 do
      local dv = r64(s, ip + 8 * i)
      local dk = dv ~ r64(SECRET, kp + 8 * i)
      local j = (i ~ 1) + 1
      acc[j] = acc[j] + dv
      acc[i + 1] = acc[i + 1] + (dk & 0xffffffff) * (dk >> 32)
    end
  end
  local stripes_per_block = (SECRET_SIZE - 64) // 8
  local block_len = 64 * stripes_per_block
  local nb_blocks = (len - 1) // block_len
  for n = 0, nb_blocks - 1 do
    for st = 0, stripes_per_block - 1 do acc512(n * block_len + st * 64, st * 8) end
    for i = 0, 7 do
      local a = acc[i + 1]
      a = a ~ (a >> 47); a = a ~ r64(SECRET, SECRET_SIZE - 64 + 8 * i); acc[i + 1] = a * P32_1
    end
  end
  local nb_stripes = ((len - 1) - block_len * nb_blocks) // 64
  for st = 0, nb_stripes - 1 do acc512(nb_blocks * block_len + st * 64, st * 8) end
  acc512(len - 64, SECRET_SIZE - 64 - 7)
  local result = len * P64_1
  for i = 0, 3 do
    result = result + fold64(acc[2 * i + 1] ~ r64(SECRET, 11 + 16 * i), acc[2 * i + 2] ~ r64(SECRET, 11 + 16 * i + 8))
  end
  return avalanche(result)
end

-- XXH3_64bits(s) with seed 0, as a Lua integer holding the u64 bits.
function M.hash64(s)
  local len = #s
  if len <= 16 then
    if len > 8 then
      local lo = r64(s, 0) ~ (r64(SECRET, 24) ~ r64(SECRET, 32))
      local hi = r64(s, len - 8) ~ (r64(SECRET, 40) ~ r64(SECRET, 48))
      return avalanche(len + swap64(lo) + hi + fold64(lo, hi))
    elseif len >= 4 then
      local in1, in2 = r32(s, 0), r32(s, len - 4)
      local bitflip = r64(SECRET, 8) ~ r64(SECRET, 16)
      return rrmxmx((in2 + (in1 << 32)) ~ bitflip, len)
    elseif len > 0 then
      local c1, c2, c3 = s:byte(1), s:byte((len >> 1) + 1), s:byte(len)
      local combined = (c1 << 16) | (c2 << 24) | c3 | (len << 8)
      return avalanche64(combined ~ (r32(SECRET, 0) ~ r32(SECRET, 4)))
    else
      return avalanche64(r64(SECRET, 56) ~ r64(SECRET, 64))
    end
  elseif len <= 128 then
    local acc = len * P64_1
    if len > 32 then
      if len > 64 then
        if len > 96 then acc = acc + mix16(s, 48, 96) + mix16(s, len - 64, 112) end
        acc = acc + mix16(s, 32, 64) + mix16(s, len - 48, 80)
      end
      acc = acc + mix16(s, 16, 32) + mix16(s, len - 32, 48)
    end
    acc = acc + mix16(s, 0, 0) + mix16(s, len - 16, 16)
    return avalanche(acc)
  elseif len <= 240 then
    local acc = len * P64_1
    for i = 0, 7 do acc = acc + mix16(s, 16 * i, 16 * i) end
    acc = avalanche(acc)
    for i = 8, len // 16 - 1 do acc = acc + mix16(s, 16 * i, 16 * (i - 8) + 3) end
    acc = acc + mix16(s, len - 16, 136 - 17)
    return avalanche(acc)
  end
  return hash_long(s, len)
end

function M.hex(s) return string.format("%016x", M.hash64(s)) end
return M
