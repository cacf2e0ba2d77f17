-- conform.lua -- the scenario DSL of op-conform (conformance/README.md,
-- spec/conformance.md CONF-060 .. CONF-084), built on the runner's C module "opc".
--
-- A scenario file returns { title = ..., clauses = { ... }, run = function(t) ... end }.
-- M.list finds them, M.run runs one against the current transport and returns
--   { failures = {text...}, checkpoints = {{name, kind, length, hash, parts}...},
--     errors_checked = n, calls = n, ops = {sorted op names the scenario needs, CONF-054},
--     trace = {json lines} (when asked) }.

local opc = require "opc"
local lfs = require "lfs"

local M = {}

local KINDS = { tile = true, mesh = true, snapshot = true, table = true }
local STOP = {} -- metatable of the error value that ends a scenario without a traceback

local function stop(msg) error(setmetatable({ msg = msg }, STOP), 0) end

local function sorted_entries(dir)
  local out = {}
  local ok, iter, st = pcall(lfs.dir, dir)
  if not ok then return out end
  for e in iter, st do
    if e:sub(1, 1) ~= "." then out[#out + 1] = e end
  end
  -- CONF-085: byte order of the NAMES, i.e. of the file names without their extension
  -- ("a.lua" before "a-b.lua"); Lua's < on strings is byte order in the C locale.
  local function stem(e) return (e:gsub("%.[^.]*$", "")) end
  table.sort(out, function(a, b)
    local sa, sb = stem(a), stem(b)
    if sa ~= sb then return sa < sb end
    return a < b
  end)
  return out
end

-- Loads and validates a scenario file.
function M.load(path)
  local chunk, err = loadfile(path, "t")
  if not chunk then error(err, 0) end
  local scn = chunk()
  if type(scn) ~= "table" then error(path .. ": a scenario returns a table", 0) end
  if type(scn.title) ~= "string" then error(path .. ": title must be a string", 0) end
  if type(scn.run) ~= "function" then error(path .. ": run must be a function", 0) end
  if type(scn.clauses) ~= "table" then error(path .. ": clauses must be a list", 0) end
  for i, c in ipairs(scn.clauses) do
    if type(c) ~= "string" or not c:match("^%u[%u%d]*%-%d%d%d$") then
      error(string.format("%s: clauses[%d] is not a clause id (PREFIX-NNN)", path, i), 0)
    end
  end
  return scn
end

-- Every conformance/scenarios/<group>/<name>.lua, sorted by group then name.
function M.list(root)
  local out = {}
  for _, group in ipairs(sorted_entries(root)) do
    local gdir = root .. "/" .. group
    if lfs.attributes(gdir, "mode") == "directory" then
      for _, file in ipairs(sorted_entries(gdir)) do
        local base = file:match("^(.+)%.lua$")
        if base then
          local path = gdir .. "/" .. file
          local ok, scn = pcall(M.load, path)
          out[#out + 1] = {
            name = group .. "/" .. base,
            path = path,
            title = ok and scn.title or ("(cannot load: " .. tostring(scn) .. ")"),
            clauses = ok and table.concat(scn.clauses, " ") or "",
          }
        end
      end
    end
  end
  return out
end

-- ------------------------------------------------------------------ values

local function is_array(v) return getmetatable(v) == opc.array_mt end

local function array(v)
  return setmetatable(v or {}, opc.array_mt)
end

-- A protocol double (number or "NaN" / "Infinity" / "-Infinity") as a Lua number.
local function num(v)
  if type(v) == "number" then return v end
  if v == "NaN" then return 0 / 0 end
  if v == "Infinity" then return 1 / 0 end
  if v == "-Infinity" then return -1 / 0 end
  error("not a protocol double: " .. tostring(v), 2)
end

local function short(s, n)
  n = n or 300
  if #s <= n then return s end
  return s:sub(1, n) .. string.format("... (%d bytes)", #s)
end

local function describe_error(e)
  return string.format("%s, field \"%s\", value \"%s\": %s", tostring(e.kind), tostring(e.field),
    tostring(e.value), tostring(e.message))
end

-- ------------------------------------------------------------------ table builder

local B = {}
B.__index = B

local function add(b, s) b.parts[#b.parts + 1] = s; return b end
-- CONF-063: a NaN is written as the quiet NaN with sign 0 and payload 0, whatever the
-- platform's NaN bits are (x86 makes 0/0 negative).
function B:f64(x)
  x = num(x)
  if x ~= x then return add(self, string.pack("<I8", 0x7ff8000000000000)) end
  return add(self, string.pack("<d", x))
end
function B:f32(x)
  x = num(x)
  if x ~= x then return add(self, string.pack("<I4", 0x7fc00000)) end
  return add(self, string.pack("<f", x))
end
function B:i64(n) return add(self, string.pack("<i8", n)) end
function B:i32(n) return add(self, string.pack("<i4", n)) end
function B:u32(n) return add(self, string.pack("<I4", n)) end
function B:u16(n) return add(self, string.pack("<I2", n)) end
function B:u8(n) return add(self, string.pack("<I1", n)) end
function B:bool(v) return add(self, string.pack("<I1", v and 1 or 0)) end
function B:u64hex(s)
  if type(s) ~= "string" or not s:match("^%x+$") or #s ~= 16 or s:match("%u") then
    error("u64hex wants 16 lower-case hex digits, got " .. tostring(s), 2)
  end
  local bytes = {}
  for i = 15, 1, -2 do bytes[#bytes + 1] = string.char(tonumber(s:sub(i, i + 1), 16)) end
  return add(self, table.concat(bytes))
end
function B:bytes(hex)
  if type(hex) ~= "string" or #hex % 2 ~= 0 or hex:match("[^0-9a-f]") then
    error("bytes wants lower-case hex text", 2)
  end
  return add(self, (hex:gsub("..", function(h) return string.char(tonumber(h, 16)) end)))
end
function B:hex()
  return (table.concat(self.parts):gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- ------------------------------------------------------------------ the t object

local T = {}
T.__index = T

local function failure(t, msg) t._res.failures[#t._res.failures + 1] = msg end

-- Remembers where each long string of an answer lives, so a checkpoint can be traced
-- back to (answer id, path) for flat traces and for the shadow comparison.
local function index_strings(t, v, id, path)
  if type(v) == "string" then
    if #v >= 32 and not t._where[v] then
      local p = {}
      for i, k in ipairs(path) do p[i] = k end
      t._where[v] = { id = id, path = p }
    end
  elseif type(v) == "table" then
    if is_array(v) then
      for i, x in ipairs(v) do
        path[#path + 1] = i - 1
        index_strings(t, x, id, path)
        path[#path] = nil
      end
    else
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = k end
      table.sort(keys)
      for _, k in ipairs(keys) do
        path[#path + 1] = k
        index_strings(t, v[k], id, path)
        path[#path] = nil
      end
    end
  end
end

local function follow(v, path)
  for _, k in ipairs(path) do
    if type(v) ~= "table" then return nil end
    if type(k) == "number" then v = v[k + 1] else v = v[k] end
  end
  return v
end

-- CONF-054: the op a request needs is its op name when the request passes the envelope
-- checks 1 .. 5 of CONF-024 and the name is an op of the reference (its hello's list).
-- `req` is the decoded request (nil when it is not JSON).
local function envelope_op(req)
  if type(req) ~= "table" or is_array(req) then return nil end
  for k in pairs(req) do
    if k ~= "id" and k ~= "op" and k ~= "args" then return nil end
  end
  local id = req.id
  if math.type(id) ~= "integer" or id < 0 or id > 9007199254740991 then return nil end
  if type(req.op) ~= "string" then return nil end
  if req.args ~= nil and (type(req.args) ~= "table" or is_array(req.args)) then return nil end
  return req.op
end

local function note_op(t, op)
  if op and t._ref_ops[op] then t._res.ops[op] = true end
end

-- Sends one line; compares with the shadow reference when there is one (CONF-082).
local function send(t, line, op, any_ok, label)
  local okx, a_text, s_text = pcall(opc.exchange, line)
  if not okx then stop(string.format("%s: %s", label, tostring(a_text))) end
  t._res.calls = t._res.calls + 1
  local a, err = opc.json_decode(a_text)
  if type(a) ~= "table" then
    stop(string.format("%s: the answer is not a JSON object (%s): %s", label, tostring(err), short(a_text)))
  end
  local s
  if s_text then
    s = opc.json_decode(s_text)
    local diff = opc.compare(opc.expect_of(s_text, any_ok), a_text)
    if diff then
      failure(t, string.format("%s: the answer differs from the reference: %s\n  request:   %s\n"
        .. "  port:      %s\n  reference: %s", label, diff, short(line), short(a_text), short(s_text)))
    end
  end
  if op == nil then op = envelope_op(opc.json_decode(line)) end
  note_op(t, op)
  return a, a_text, s, s_text
end

-- CONF-081: the trace expectation of an error request is the reference's whole error (kind,
-- field and value), not only what the scenario states, so that check-traces compares what
-- run --port compares (CONF-082, CONF-090). The reference's answer is the shadow's when
-- there is one, else the in-process answer.
local function ref_expect(a_text, s_text, any_ok)
  return opc.expect_of(s_text or a_text, any_ok)
end

function T:call(op, args)
  if type(op) ~= "string" then error("t:call: op must be a string", 2) end
  self._id = self._id + 1
  local id = self._id
  local line = opc.json_encode({ id = id, op = op, args = args or {} })
  local label = string.format("request %d (%s)", id, op)
  local a, a_text, s = send(self, line, op, op == "hello", label)
  if self._trace then
    self._trace[#self._trace + 1] = '{"request":' .. line .. ',"expect":'
      .. opc.expect_of(a_text, op == "hello") .. '}'
  end
  if a.id ~= id then stop(string.format("%s: the answer has id %s", label, tostring(a.id))) end
  if a.error then
    stop(string.format("%s failed: %s", label, describe_error(a.error)))
  end
  if type(a.ok) ~= "table" then stop(label .. ": the answer has neither ok nor error") end
  self._answers[id] = a
  if s then self._shadow[id] = s end
  index_strings(self, a.ok, id, {})
  return a.ok
end

local function check_want(want, level)
  if type(want) ~= "table" or type(want.kind) ~= "string" or type(want.field) ~= "string" then
    error("expect_error wants { kind = K, field = F [, value = V] } with strings", level)
  end
  if want.value ~= nil and type(want.value) ~= "string" then
    error("expect_error: value is compared as text; give it as a string", level)
  end
end

-- Compares an error answer with want; records a failure and returns false on mismatch.
local function match_error(t, a, want, label)
  if not a.error then
    failure(t, string.format("%s: expected error %s naming \"%s\", got an ok answer", label, want.kind,
      want.field))
    return false
  end
  local e = a.error
  if e.kind ~= want.kind or e.field ~= want.field or (want.value ~= nil and e.value ~= want.value) then
    failure(t, string.format("%s: expected error %s, field \"%s\"%s; got %s", label, want.kind, want.field,
      want.value ~= nil and (", value \"" .. want.value .. "\"") or "", describe_error(e)))
    return false
  end
  return true
end

function T:expect_error(op, args, want)
  check_want(want, 3)
  self._id = self._id + 1
  local id = self._id
  local line = opc.json_encode({ id = id, op = op, args = args or {} })
  local label = string.format("request %d (%s)", id, op)
  self._res.errors_checked = self._res.errors_checked + 1
  local a, a_text, _, s_text = send(self, line, op, false, label)
  if self._trace then
    self._trace[#self._trace + 1] = '{"request":' .. line .. ',"expect":'
      .. ref_expect(a_text, s_text, false) .. '}'
  end
  if a.id ~= id then failure(self, string.format("%s: the answer has id %s", label, tostring(a.id))) end
  match_error(self, a, want, label)
  return a.error
end

-- A raw request line (protocol tests: malformed text, odd ids). want = nil expects any ok
-- answer; a table expects that error. Returns the decoded answer.
function T:raw(line, want)
  if type(line) ~= "string" then error("t:raw wants the request text", 2) end
  if want ~= nil then check_want(want, 3) end
  self._raw = self._raw + 1
  local label = string.format("raw request %d", self._raw)
  local a, a_text, _, s_text = send(self, line, nil, want == nil, label)
  if self._trace then
    self._trace[#self._trace + 1] = '{"raw":' .. opc.json_encode(line) .. ',"expect":'
      .. (want and ref_expect(a_text, s_text, false) or '{"ok":null}') .. '}'
  end
  if want then
    self._res.errors_checked = self._res.errors_checked + 1
    match_error(self, a, want, label)
  elseif not a.ok then
    failure(self, label .. ": expected an ok answer, got " .. (a.error and describe_error(a.error) or "neither"))
  end
  return a
end

-- layout (CONF-200, table checkpoints only, optional) names the byte layout a mismatch is
-- explained by; it is not recorded in the golden file and changes no hash.
function T:checkpoint(name, kind, hex, layout)
  -- CONF-064: printable ASCII, no leading or trailing space, 1..80 bytes
  if type(name) ~= "string" or #name == 0 or #name > 80 or name:match("[^\32-\126]")
      or name:match("^ ") or name:match(" $") then
    error("checkpoint names are 1..80 printable ASCII characters without outer spaces", 2)
  end
  if not KINDS[kind] then error("checkpoint kind must be tile, mesh, snapshot or table", 2) end
  if type(hex) ~= "string" then error("checkpoint bytes must be hex text", 2) end
  if layout ~= nil and type(layout) ~= "string" then error("a checkpoint layout is a string", 2) end
  local info, err = opc.artifact(kind, hex, layout)
  if not info then
    failure(self, string.format("checkpoint %s: %s", name, err))
    return nil
  end
  local cp = { name = name, kind = kind, length = info.length, hash = info.hash, parts = info.parts }
  local cps = self._res.checkpoints
  cps[#cps + 1] = cp
  local loc = self._where[hex]
  if loc and self._shadow[loc.id] then
    local ref = follow(self._shadow[loc.id].ok, loc.path)
    if type(ref) == "string" and ref ~= hex then
      failure(self, string.format("checkpoint %s (%s) differs from the reference: %s", name, kind,
        opc.diff(kind, ref, hex, layout, name)))
    end
  end
  if self._trace then
    local rec = { checkpoint = name, kind = kind, length = info.length, hash = info.hash }
    if loc then
      rec.answer = loc.id
      rec.path = array({ table.unpack(loc.path) })
    end
    self._trace[#self._trace + 1] = opc.json_encode(rec)
  end
  return cp
end

function T:table() return setmetatable({ parts = {} }, B) end

function T:check(cond, message)
  if not cond then failure(self, "check failed: " .. tostring(message)) end
  return cond
end

T.num = function(_, v) return num(v) end
T.array = function(_, v) return array(v) end
T.null = opc.null

-- ------------------------------------------------------------------ running

function M.run(path, name, opts)
  local res = { failures = {}, checkpoints = {}, errors_checked = 0, calls = 0, ops = {} }
  local ok, scn = pcall(M.load, path)
  if not ok then
    res.failures[1] = "cannot load the scenario: " .. tostring(scn)
    return res
  end
  local t = setmetatable({ _res = res, _id = 0, _raw = 0, _answers = {}, _shadow = {}, _where = {},
    _trace = opts.trace and {} or nil, name = name, _ref_ops = {} }, T)
  for op in (opts.ref_ops or ""):gmatch("%S+") do t._ref_ops[op] = true end
  if t._trace then
    res.trace = t._trace
    t._trace[1] = false -- the header, written once the ops are known (CONF-081)
  end
  local okr, err = xpcall(scn.run, function(e)
    if getmetatable(e) == STOP then return e.msg end
    return debug.traceback(tostring(e), 2)
  end, t)
  if not okr then failure(t, "scenario stopped: " .. tostring(err)) end
  -- CONF-054: the ops the scenario needs, sorted by byte value
  local ops = {}
  for op in pairs(res.ops) do ops[#ops + 1] = op end
  table.sort(ops)
  res.ops = ops
  if t._trace then
    t._trace[1] = opc.json_encode({ trace = "onepath-trace/1", scenario = name, title = scn.title,
      clauses = array({ table.unpack(scn.clauses) }), ops = array({ table.unpack(ops) }) })
  end
  return res
end

return M
