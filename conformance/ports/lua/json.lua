-- Strict JSON for the port protocol (CONF-022, CONF-023, CONF-030 .. CONF-036).
--
-- Decoded values:
--   object  -> { [OBJ] = true, keys = {name, ...} (text order), map = {name = value} }
--   array   -> { [ARR] = true, n = count, [1..n] = values }
--   string  -> Lua string;  true/false -> Lua booleans;  null -> json.null
--   number  -> { [NUM] = true, text = literal, int = Lua integer or nil, f = binary64 }
--              `int` is set only for a literal without fraction and exponent whose exact
--              value fits a signed 64-bit integer (CONF-032); `bigint` marks such a literal
--              outside that range. `f` is the correctly rounded binary64 (CONF-031).
-- Encoding: Lua integers are written as decimal integers, Lua floats as binary64 in the
-- shortest round-trip form of CONF-030, tables marked with json.ARR as lists, other tables
-- as objects (keys sorted, which CONF-025 allows).
local M = {}
local OBJ, ARR, NUM = {}, {}, {}
M.OBJ, M.ARR, M.NUM = OBJ, ARR, NUM
M.null = setmetatable({}, { __name = "json.null" })

local MAX_DEPTH = 64

-- Error raised while decoding: { kind = "argument"|"limit", pos = byte offset }.
local function fail(kind, pos, what) error({ json_error = true, kind = kind, pos = pos, what = what }, 0) end

local byte, sub, find = string.byte, string.sub, string.find

local function decode(text)
  local pos = 1
  local len = #text

  local function skip()
    local _, e = find(text, "^[ \t\n\r]*", pos)
    pos = e + 1
  end

  local value -- forward

  local function str()
    -- pos is at the opening quote
    local parts = {}
    local i = pos + 1
    while true do
      local s, e = find(text, '^[^"\\%z\1-\31]+', i)
      if s then
        local seg = sub(text, s, e)
        if not utf8.len(seg) then fail("argument", s, "invalid UTF-8 in a string") end
        parts[#parts + 1] = seg
        i = e + 1
      end
      local c = byte(text, i)
      if c == nil then fail("argument", i, "unterminated string") end
      if c == 34 then pos = i + 1; return table.concat(parts) end
      if c < 32 then fail("argument", i, "control character in a string") end
      -- backslash
      local d = byte(text, i + 1)
      if d == 34 then parts[#parts + 1] = '"'; i = i + 2
      elseif d == 92 then parts[#parts + 1] = "\\"; i = i + 2
      elseif d == 47 then parts[#parts + 1] = "/"; i = i + 2
      elseif d == 98 then parts[#parts + 1] = "\b"; i = i + 2
      elseif d == 102 then parts[#parts + 1] = "\f"; i = i + 2
      elseif d == 110 then parts[#parts + 1] = "\n"; i = i + 2
      elseif d == 114 then parts[#parts + 1] = "\r"; i = i + 2
      elseif d == 116 then parts[#parts + 1] = "\t"; i = i + 2
      elseif d == 117 then
        local h = sub(text, i + 2, i + 5)
        if not find(h, "^%x%x%x%x$") then fail("argument", i, "bad \\u escape") end
        local cp = tonumber(h, 16)
        i = i + 6
        if cp >= 0xD800 and cp <= 0xDBFF then
          local h2 = sub(text, i + 2, i + 5)
          if sub(text, i, i + 1) ~= "\\u" or not find(h2, "^%x%x%x%x$") then
            fail("argument", i, "high surrogate without a low surrogate")
          end
          local lo = tonumber(h2, 16)
          if lo < 0xDC00 or lo > 0xDFFF then fail("argument", i, "high surrogate without a low surrogate") end
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
          i = i + 6
        elseif cp >= 0xDC00 and cp <= 0xDFFF then
          fail("argument", i - 6, "lone low surrogate")
        end
        parts[#parts + 1] = utf8.char(cp)
      else
        fail("argument", i, "bad escape")
      end
    end
  end

  local function number()
    local s, e = find(text, "^-?%d+", pos)
    if not s then fail("argument", pos, "unexpected character") end
    local intpart = sub(text, s, e)
    if find(intpart, "^-?0%d") then fail("argument", pos, "leading zero") end
    local isint = true
    local e2 = e
    if byte(text, e2 + 1) == 46 then -- '.'
      local _, fe = find(text, "^%d+", e2 + 2)
      if not fe then fail("argument", e2 + 2, "digit expected after the point") end
      e2 = fe; isint = false
    end
    local c = byte(text, e2 + 1)
    if c == 101 or c == 69 then
      local _, xe = find(text, "^[+-]?%d+", e2 + 2)
      if not xe then fail("argument", e2 + 2, "digit expected in the exponent") end
      e2 = xe; isint = false
    end
    local lit = sub(text, pos, e2)
    local n = { [NUM] = true, text = lit }
    if isint then
      local v = math.tointeger(tonumber(lit)) -- tonumber gives an integer when it fits
      if v and tostring(v) == lit or (v and lit == "-0") then
        n.int = v; n.f = v + 0.0
        if lit == "-0" then n.f = -0.0 end
      else
        n.bigint = true
        n.f = tonumber(lit .. ".0") or tonumber(lit) + 0.0
      end
    else
      n.f = tonumber(lit) -- a literal with a fraction or an exponent reads as a float (-0.0 kept)
    end
    if n.f == math.huge or n.f == -math.huge then fail("argument", pos, "number overflows binary64") end
    pos = e2 + 1
    return n
  end

  function value(depth)
    skip()
    local c = byte(text, pos)
    if c == 123 then -- {
      if depth > MAX_DEPTH then fail("limit", pos, "nesting deeper than 64") end
      pos = pos + 1
      local o = { [OBJ] = true, keys = {}, map = {} }
      skip()
      if byte(text, pos) == 125 then pos = pos + 1; return o end
      while true do
        skip()
        if byte(text, pos) ~= 34 then fail("argument", pos, "member name expected") end
        local kpos = pos
        local k = str()
        if o.map[k] ~= nil then fail("argument", kpos, "duplicate member name") end
        skip()
        if byte(text, pos) ~= 58 then fail("argument", pos, "':' expected") end
        pos = pos + 1
        local v = value(depth + 1)
        o.keys[#o.keys + 1] = k
        o.map[k] = v
        skip()
        local d = byte(text, pos)
        if d == 44 then pos = pos + 1
        elseif d == 125 then pos = pos + 1; return o
        else fail("argument", pos, "',' or '}' expected") end
      end
    elseif c == 91 then -- [
      if depth > MAX_DEPTH then fail("limit", pos, "nesting deeper than 64") end
      pos = pos + 1
      local a = { [ARR] = true, n = 0 }
      skip()
      if byte(text, pos) == 93 then pos = pos + 1; return a end
      while true do
        local v = value(depth + 1)
        a.n = a.n + 1; a[a.n] = v
        skip()
        local d = byte(text, pos)
        if d == 44 then pos = pos + 1
        elseif d == 93 then pos = pos + 1; return a
        else fail("argument", pos, "',' or ']' expected") end
      end
    elseif c == 34 then return str()
    elseif c == 116 then
      if sub(text, pos, pos + 3) ~= "true" then fail("argument", pos, "bad literal") end
      pos = pos + 4; return true
    elseif c == 102 then
      if sub(text, pos, pos + 4) ~= "false" then fail("argument", pos, "bad literal") end
      pos = pos + 5; return false
    elseif c == 110 then
      if sub(text, pos, pos + 3) ~= "null" then fail("argument", pos, "bad literal") end
      pos = pos + 4; return M.null
    elseif c == nil then fail("argument", pos, "unexpected end of text")
    else return number() end
  end

  local v = value(1)
  skip()
  if pos <= len then fail("argument", pos, "text after the value") end
  return v
end

-- Returns the value, or nil and { kind, pos, what }.
function M.decode(text)
  local ok, r = pcall(decode, text)
  if ok then return r end
  if type(r) == "table" and r.json_error then return nil, r end
  error(r, 0)
end

-- CONF-030: shortest round-trip text of a finite binary64.
function M.fmt_double(x)
  if x ~= x then return "NaN" end
  if x == math.huge then return "Infinity" end
  if x == -math.huge then return "-Infinity" end
  if x == 0 then
    if 1 / x < 0 then return "-0" end
    return "0"
  end
  for p = 1, 17 do
    local s = string.format("%." .. p .. "g", x)
    if tonumber(s) == x then return s end
  end
  return string.format("%.17g", x)
end

local function esc(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == '"' then return '\\"' elseif c == "\\" then return "\\\\"
    elseif c == "\n" then return "\\n" elseif c == "\r" then return "\\r"
    elseif c == "\t" then return "\\t"
    elseif c == "\127" then return c
    else return string.format("\\u%04x", byte(c)) end
  end) .. '"'
end

local function enc(v, out)
  local t = type(v)
  if t == "string" then out[#out + 1] = esc(v)
  elseif t == "boolean" then out[#out + 1] = v and "true" or "false"
  elseif t == "number" then
    if math.type(v) == "integer" then out[#out + 1] = string.format("%d", v)
    else
      local s = M.fmt_double(v)
      if v ~= v or v == math.huge or v == -math.huge then s = '"' .. s .. '"' end
      out[#out + 1] = s
    end
  elseif v == M.null or v == nil then out[#out + 1] = "null"
  elseif v[ARR] then
    out[#out + 1] = "["
    local n = v.n or #v
    for i = 1, n do
      if i > 1 then out[#out + 1] = "," end
      enc(v[i], out)
    end
    out[#out + 1] = "]"
  else
    local keys = {}
    for k in pairs(v) do if type(k) == "string" then keys[#keys + 1] = k end end
    table.sort(keys)
    out[#out + 1] = "{"
    for i, k in ipairs(keys) do
      if i > 1 then out[#out + 1] = "," end
      out[#out + 1] = esc(k); out[#out + 1] = ":"
      enc(v[k], out)
    end
    out[#out + 1] = "}"
  end
end

function M.encode(v)
  local out = {}
  enc(v, out)
  return table.concat(out)
end

-- Mark a Lua sequence as a JSON list (so that an empty one is written []).
function M.array(t) t = t or {}; t[ARR] = true; t.n = t.n or #t; return t end

return M
