-- fuzz-corpus.lua -- seed corpora for the byte-parsing fuzz harnesses, built from the
-- conformance scenarios' flat traces (op-conform export-traces).
--
--   build/op-conform export-traces /tmp/traces
--   lua5.4 scripts/fuzz-corpus.lua /tmp/traces fuzz/corpus
--
-- Every tile or snapshot byte string that a trace sends (tile.load, mesh.snapshot_load,
-- including the malformed ones the error scenarios try) or expects back (tile.save,
-- mesh.snapshot_save) becomes one file, and so does each scenario's request stream (one
-- request per line, for protocol_request), named by the FNV-1a 64 hash of its bytes, in
-- <out>/tile_bytes/, <out>/snapshot_bytes/ or <out>/protocol_request/. A request stream that
-- uses mesh.* ops is also a seed of the structured harness mesh_ops (its text mode replays a
-- request stream with the mesh oracles), in <out>/mesh_ops/. The OBJ text of every obj.parse
-- request (its JSON string unescaped to bytes) goes to <out>/obj_text/. (Tile cache snapshots
-- of the scenarios are not seeds of tilecache_snapshot: they come from other caches and stop
-- at `params` or `fingerprint`; fuzz/mkcorpus_bytes.c writes that corpus from the harness's
-- own fixture.) Re-running adds nothing twice.
local lfs = require "lfs"

local traces, out = arg[1], arg[2]
if not traces or not out then
  io.stderr:write("usage: lua5.4 scripts/fuzz-corpus.lua TRACES_DIR OUT_DIR\n")
  os.exit(2)
end

-- The harness that parses the bytes of each op (request side and answer side).
local HARNESS = {
  ["tile.load"] = "tile_bytes", ["tile.save"] = "tile_bytes",
  ["mesh.snapshot_load"] = "snapshot_bytes", ["mesh.snapshot_save"] = "snapshot_bytes",
}

local function fnv1a64(s)
  local h = -3750763034362895579 -- 0xcbf29ce484222325
  for i = 1, #s do
    h = h ~ s:byte(i)
    h = h * 1099511628211
  end
  return string.format("%016x", h)
end

local function unhex(h)
  return (h:gsub("..", function(p) return string.char(tonumber(p, 16)) end))
end

local function mkdir_p(path)
  local acc = ""
  for part in path:gmatch("[^/]+") do
    acc = (acc == "" and path:sub(1, 1) == "/") and "/" .. part or (acc == "" and part or acc .. "/" .. part)
    lfs.mkdir(acc)
  end
end

-- The JSON string that starts right after position i (the opening quote), unescaped to its
-- bytes (\uXXXX as UTF-8, surrogate pairs joined; \u0000 a NUL byte), or nil when malformed.
local SIMPLE = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
local function json_string(line, i)
  local parts, j = {}, i
  while j <= #line do
    local c = line:sub(j, j)
    if c == '"' then return table.concat(parts) end
    if c ~= "\\" then
      parts[#parts + 1] = c; j = j + 1
    else
      local e = line:sub(j + 1, j + 1)
      if SIMPLE[e] then
        parts[#parts + 1] = SIMPLE[e]; j = j + 2
      elseif e == "u" then
        local cp = tonumber(line:sub(j + 2, j + 5), 16)
        if not cp then return nil end
        j = j + 6
        local lo = line:match("^\\u(%x%x%x%x)", j)
        if cp >= 0xD800 and cp < 0xDC00 and lo and tonumber(lo, 16) >= 0xDC00 and tonumber(lo, 16) < 0xE000 then
          cp = 0x10000 + (cp - 0xD800) * 0x400 + (tonumber(lo, 16) - 0xDC00); j = j + 6
        end
        parts[#parts + 1] = utf8.char(cp)
      else
        return nil
      end
    end
  end
  return nil
end

local added, seen = 0, 0
local function emit_bytes(harness, bytes)
  local dir = out .. "/" .. harness
  mkdir_p(dir)
  local path = dir .. "/" .. fnv1a64(bytes)
  seen = seen + 1
  if lfs.attributes(path) then return end
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
  added = added + 1
end

local function emit(harness, hex)
  if #hex % 2 ~= 0 or hex:find("[^0-9a-f]") then return end -- not a byte string
  emit_bytes(harness, unhex(hex))
end

local function scan(path)
  local requests = {}
  for line in io.lines(path) do
    local req = line:match('^{"request":(%b{})')
    if req then requests[#requests + 1] = req end
    local op = line:match('"op":"([%w_%.]+)"')
    local harness = op and HARNESS[op]
    if harness then
      for hex in line:gmatch('"bytes":"([0-9a-f]*)"') do emit(harness, hex) end
    end
    -- obj.parse sends OBJ text as a JSON string: its bytes are an obj_text seed.
    if op == "obj.parse" then
      local at = line:find('"text":"', 1, true)
      local text = at and json_string(line, at + 8)
      if text then emit_bytes("obj_text", text) end
    end
  end
  -- The whole request stream of a scenario is one protocol_request input (small ones only).
  local stream = table.concat(requests, "\n")
  if #requests > 0 and #stream <= 65536 then
    local hex = (stream:gsub(".", function(c) return string.format("%02x", c:byte()) end))
    emit("protocol_request", hex)
    if stream:find('"op":"mesh%.') then emit("mesh_ops", hex) end
    if stream:find('"op":"tilecache%.') then emit("tilecache_history", hex) end
  end
end

local function walk(dir)
  local names = {}
  for e in lfs.dir(dir) do if e:sub(1, 1) ~= "." then names[#names + 1] = e end end
  table.sort(names)
  for _, e in ipairs(names) do
    local p = dir .. "/" .. e
    if lfs.attributes(p, "mode") == "directory" then walk(p)
    elseif p:match("%.jsonl$") then scan(p) end
  end
end

walk(traces)
print(string.format("fuzz-corpus: %d byte strings seen, %d new files under %s", seen, added, out))
