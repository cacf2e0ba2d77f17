-- conformance/scenarios/conformance/xxh3-vectors.lua
-- The XXH3-64 test vectors of CONF-065: the pattern input b_i = (31 i + 7) mod 256 at every
-- length of the table, each checkpointed as a "table" artifact. The checkpoint hashes are
-- computed by the runner (CONF-060) and compared here with the values written in the spec,
-- and the golden file records them once more. The 1024-byte input also travels through the
-- port (echo, CONF-034, CONF-053), so its bytes are compared as an answer as well.

local VECTORS = { -- CONF-065
  { 0, "2d06800538d394c2" }, { 1, "4c5cca45d0f4811f" }, { 3, "15f7093b173d005c" },
  { 4, "dca012f95811b6b9" }, { 8, "dec6a9a43575982e" }, { 9, "cbe393399f17ffbd" },
  { 16, "7e484c18d74895d0" }, { 17, "208bde5ee2bed407" }, { 128, "f92b70eaa21a6288" },
  { 129, "f8f76713f2bb60fa" }, { 240, "ccc7375172c41f03" }, { 241, "0b3b630948ce4a00" },
  { 1024, "23bc880ebf0d29c6" }, { 100000, "ccf90df7e7e37036" },
}

local function pattern_hex(n)
  local t = {}
  for i = 0, n - 1 do t[#t + 1] = string.format("%02x", (31 * i + 7) % 256) end
  return table.concat(t)
end

return {
  title = "XXH3-64 test vectors: the pattern input at every length class boundary",
  clauses = { "CONF-060", "CONF-063", "CONF-065" },
  run = function(t)
    local full = pattern_hex(100000)
    for _, v in ipairs(VECTORS) do
      local n, want = v[1], v[2]
      local tb = t:table()
      tb:bytes(full:sub(1, 2 * n))
      local cp = t:checkpoint(string.format("pattern %d bytes", n), "table", tb:hex())
      t:check(cp ~= nil and cp.length == n and cp.hash == want,
        string.format("XXH3-64 of the %d-byte pattern is %s (CONF-065), got %s", n, want,
          cp and tostring(cp.hash) or "no checkpoint"))
    end
    local r = t:call("echo", { bytes = t:array({ full:sub(1, 2048) }) })
    t:check(r.bytes[1] == full:sub(1, 2048), "the 1024-byte pattern round-trips through echo")
  end,
}
