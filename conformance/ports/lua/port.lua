-- OnePath protocol server in pure Lua 5.4 (spec/conformance.md, docs/porting.md).
-- One JSON request per line on stdin, one answer per line on stdout (CONF-020).
local json = require("json")
local P = require("proto")
local fail = P.fail

local OPS = {}
local session = P.new_session()

-- Op modules register themselves into OPS; hello lists exactly the ops registered
-- (CONF-050). `--only math,tile` registers the session ops and the named modules only
-- (math, tile, mesh, query): a partial port, whose missing ops the runner skips (CONF-055).
local only
if arg and arg[1] == "--only" and arg[2] then
  only = {}
  for m in arg[2]:gmatch("[^,]+") do only[m] = true end
elseif arg and arg[1] then
  io.stderr:write("usage: port.lua [--only MODULE,...]   (modules: math, tile, mesh, query, corridor)\n")
  os.exit(2)
end
require("ops_session")(OPS, session)
for _, m in ipairs({ "math", "tile", "mesh", "query", "corridor" }) do
  if not only or only[m] then require("ops_" .. m)(OPS, session) end
end

local MAX_LINE = 67108864

local function error_answer(id, e)
  return json.encode({
    id = id == nil and json.null or id,
    error = { kind = e.kind, field = P.cut(e.field, 95), value = P.cut(e.value, 63),
              message = e.message or "" },
  })
end

-- CONF-024: envelope checks, then the op.
local function handle(line)
  if #line > MAX_LINE then
    return error_answer(nil, { kind = "limit", field = "request", value = tostring(#line),
      message = "request line longer than 2^26 bytes: " .. #line })
  end
  local req, jerr = json.decode(line)
  if not req then
    return error_answer(nil, { kind = jerr.kind, field = "request", value = "",
      message = jerr.what .. " at byte " .. (jerr.pos - 1) })
  end
  if not P.is_obj(req) then
    return error_answer(nil, { kind = "argument", field = "request", value = "", message = "a request is an object" })
  end
  local idv = req.map.id
  local id = P.as_int(idv)
  if id ~= nil and (math.type(id) ~= "integer" or id < 0 or id > 9007199254740991) then id = nil end
  for _, k in ipairs(req.keys) do
    if k ~= "id" and k ~= "op" and k ~= "args" then
      return error_answer(id, { kind = "argument", field = "request", value = k, message = "unknown request member " .. k })
    end
  end
  if id == nil then
    return error_answer(nil, { kind = "argument", field = "id", value = "", message = "id must be an integer in 0 .. 2^53-1" })
  end
  local op = req.map.op
  if type(op) ~= "string" then
    return error_answer(id, { kind = "argument", field = "op", value = "", message = "op must be a string" })
  end
  local args = req.map.args
  if args == nil then args = { [json.OBJ] = true, keys = {}, map = {} }
  elseif not P.is_obj(args) then
    return error_answer(id, { kind = "argument", field = "args", value = "", message = "args must be an object" })
  end
  local fn = OPS[op]
  if not fn then
    return error_answer(id, { kind = "argument", field = "op", value = op, message = "no such op: " .. op })
  end
  local okc, res = pcall(fn, args)
  if okc then return json.encode({ id = id, ok = res }) end
  if type(res) == "table" and res.op_error then return error_answer(id, res) end
  if type(res) == "string" and res:find("not enough memory") then
    return error_answer(id, { kind = "out_of_memory", field = "request", value = "", message = res })
  end
  error(res, 0) -- a bug of this port: let it show
end

local out = io.stdout
while true do
  local line = io.read("L")
  if line == nil then break end
  if line:sub(-1) == "\n" then line = line:sub(1, -2) end
  if #line > 0 then
    out:write(handle(line), "\n")
    out:flush()
  end
end
os.exit(0)
