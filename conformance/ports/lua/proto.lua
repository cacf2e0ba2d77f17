-- Protocol helpers: errors (CONF-010 .. CONF-013, CONF-035), argument readers
-- (CONF-030 .. CONF-034) and the session's handle table (CONF-040 .. CONF-043).
local json = require("json")
local M = {}

-- Raise an error answer. `value` is already the value text (CONF-013).
function M.fail(kind, field, value, message)
  error({ op_error = true, kind = kind, field = field, value = value or "",
          message = message or (kind .. " error: " .. field .. " = " .. (value or "")) }, 0)
end
local fail = M.fail

-- CONF-013 value texts.
function M.vint(v) return string.format("%d", v) end
M.vdouble = json.fmt_double

-- CONF-012: cut to n bytes, dropping an incomplete UTF-8 sequence at the end.
function M.cut(s, n)
  if #s <= n then return s end
  s = s:sub(1, n)
  -- find the start of the last sequence
  local i = #s
  while i > 0 and (s:byte(i) & 0xC0) == 0x80 do i = i - 1 end
  if i == 0 then return s end
  local b = s:byte(i)
  local need = b < 0x80 and 1 or b >= 0xF0 and 4 or b >= 0xE0 and 3 or b >= 0xC0 and 2 or 1
  if #s - i + 1 < need then s = s:sub(1, i - 1) end
  return s
end

function M.is_num(v) return type(v) == "table" and v[json.NUM] == true end
function M.is_obj(v) return type(v) == "table" and v[json.OBJ] == true end
function M.is_arr(v) return type(v) == "table" and v[json.ARR] == true end

-- CONF-031: a protocol double, or nil when not of that form.
function M.as_double(v)
  if M.is_num(v) then return v.f end
  if v == "NaN" then return 0.0 / 0.0 end
  if v == "Infinity" then return math.huge end
  if v == "-Infinity" then return -math.huge end
  return nil
end

-- CONF-032: an integer. Returns a Lua integer, or nil when the argument is not a JSON number
-- with an integral value that fits 64 bits (signed). An integral value beyond 64 bits is not
-- of the form (CONF-032: kind argument, empty value).
function M.as_int(v)
  if not M.is_num(v) then return nil end
  if v.int then return v.int end
  if v.bigint then return nil end
  local f = v.f
  if f ~= math.floor(f) then return nil end
  if f >= -0x1p63 and f < 0x1p63 then return math.tointeger(f) end
  return nil
end

-- CONF-033
function M.as_u64(v)
  if type(v) ~= "string" or #v ~= 16 or v:find("[^0-9a-f]") then return nil end
  return (tonumber(v, 16))
end
function M.u64hex(x) return string.format("%016x", x) end

-- CONF-034
function M.as_bytes(v)
  if type(v) ~= "string" or #v % 2 ~= 0 or v:find("[^0-9a-f]") then return nil end
  return (v:gsub("..", function(h) return string.char(tonumber(h, 16)) end))
end
function M.hex(s)
  return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- Member of an args object (nil when absent).
function M.get(args, name) return args.map[name] end

-- A required integer argument in [lo, hi]: absent/mistyped/non-integral -> argument, empty
-- value; outside -> out_of_range with the value.
function M.int_arg(v, field, lo, hi)
  local n = M.as_int(v)
  if n == nil then fail("argument", field, "") end
  if n < lo or n > hi then fail("out_of_range", field, M.vint(n)) end
  return n
end

---------------------------------------------------------------------------------------------
-- Session: handles 1, 2, 3, ... over all kinds (CONF-040).
local Session = {}
Session.__index = Session
function M.new_session() return setmetatable({ next = 1, objs = {} }, Session) end
function Session:add(kind, obj)
  if self.next > 16777216 then fail("limit", "handle", "", "session handle limit reached") end
  local h = self.next
  self.next = h + 1
  self.objs[h] = { kind = kind, obj = obj }
  return h
end
-- CONF-042: the object of handle argument `field` of kind `kind`.
function Session:get(v, field, kind)
  local h = M.as_int(v)
  if h == nil then fail("argument", field, "") end
  local e = self.objs[h]
  if not e or e.kind ~= kind then
    fail("argument", field, M.vint(h), "no live " .. kind .. " has this handle: " .. field .. " = " .. M.vint(h))
  end
  return e.obj, h
end

return M
