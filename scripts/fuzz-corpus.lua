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
-- request stream with the mesh oracles), in <out>/mesh_ops/. Re-running adds nothing twice.
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

local added, seen = 0, 0
local function emit(harness, hex)
  if #hex % 2 ~= 0 or hex:find("[^0-9a-f]") then return end -- not a byte string
  local bytes = unhex(hex)
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
