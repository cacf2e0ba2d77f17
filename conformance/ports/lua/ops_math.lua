-- Protocol ops of spec/math.md section 5 (MATH-050 .. MATH-055).
local json = require("json")
local P = require("proto")
local m = require("opmath")
local fail = P.fail

-- MATH-051: a decimal string coordinate; returns an integer, or raises.
local function dec_i64(s, field)
  local neg, digits = s:match("^(%-?)(%d+)$")
  if not digits then fail("argument", field, "") end
  digits = digits:gsub("^0+", "")
  if digits == "" then return 0 end
  local text = neg .. digits
  local limit = neg == "-" and "9223372036854775808" or "9223372036854775807"
  if #digits > 19 or (#digits == 19 and digits > limit) then fail("out_of_range", field, s) end
  if text == "-9223372036854775808" then return math.mininteger end
  return math.tointeger(tonumber(text))
end

local function point(args, name, coord)
  local p = args.map[name]
  if not P.is_arr(p) or p.n ~= 2 then fail("argument", name, "") end
  return coord(p[1], name .. "[0]"), coord(p[2], name .. "[1]")
end

local function i64_coord(v, field)
  if type(v) == "string" then return dec_i64(v, field) end
  local n = P.as_int(v)
  if n == nil then fail("argument", field, "") end
  if n > (1 << 53) or n < -(1 << 53) then fail("argument", field, P.vint(n)) end
  return n
end

-- MATH-052: a coordinate is a JSON number (the non-finite strings are not of the form:
-- empty value, CONF-035); a number that is not exactly a binary32 carries its value text.
local function f32_coord(v, field)
  local f = P.is_num(v) and P.as_double(v) or nil
  if f == nil then fail("argument", field, "") end
  if not m.is_f32(f) then fail("argument", field, P.vdouble(f)) end
  return f
end

local function count_arg(args)
  return P.int_arg(args.map.count, "count", 0, 65536)
end

return function(OPS, session)
  OPS["math.sincos"] = function(args)
    local a = P.as_double(args.map.a)
    if a == nil then fail("argument", "a", "") end
    if a ~= a or a > m.SINCOS_MAX or a < -m.SINCOS_MAX then -- MATH-030 (also catches +-inf)
      fail("out_of_range", "a", P.vdouble(a), "SinCos needs a finite |a| <= 2^21: a = " .. P.vdouble(a))
    end
    local s, c = m.sincos(a)
    return { s = s, c = c }
  end

  OPS["math.orient2d_i64"] = function(args)
    local ax, ay = point(args, "a", i64_coord)
    local bx, by = point(args, "b", i64_coord)
    local cx, cy = point(args, "c", i64_coord)
    return { sign = m.orient2d_i64(ax, ay, bx, by, cx, cy) }
  end

  OPS["math.orient2d_f32"] = function(args)
    local ax, ay = point(args, "a", f32_coord)
    local bx, by = point(args, "b", f32_coord)
    local cx, cy = point(args, "c", f32_coord)
    return { sign = m.orient2d_f32(ax, ay, bx, by, cx, cy) }
  end

  OPS["prng.new"] = function(args)
    local seed = P.as_u64(args.map.seed)
    if seed == nil then fail("argument", "seed", "") end
    return { handle = session:add("prng", m.prng_seed(seed)) }
  end

  -- MATH-054: all arguments are validated before the PRNG advances (MATH-055).
  OPS["prng.next_u64"] = function(args)
    local g = session:get(args.map.prng, "prng", "prng")
    local n = count_arg(args)
    local r = json.array({})
    for i = 1, n do r[i] = P.u64hex(m.prng_next(g)) end
    r.n = n
    return { values = r }
  end

  OPS["prng.below"] = function(args)
    local g = session:get(args.map.prng, "prng", "prng")
    -- MATH-054: prng, then count, then n.
    local n = count_arg(args)
    local nv = P.as_u64(args.map.n)
    if nv == nil then fail("argument", "n", "") end
    if nv == 0 then fail("out_of_range", "n", args.map.n) end
    local r = json.array({})
    for i = 1, n do r[i] = P.u64hex(m.prng_below(g, nv)) end
    r.n = n
    return { values = r }
  end

  OPS["prng.unit"] = function(args)
    local g = session:get(args.map.prng, "prng", "prng")
    local n = count_arg(args)
    local r = json.array({})
    for i = 1, n do r[i] = m.prng_unit(g) end
    r.n = n
    return { values = r }
  end
end
