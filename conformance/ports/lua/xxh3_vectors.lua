-- Checks xxh3.lua against the test vectors of CONF-065, read from the spec text itself
-- (spec/conformance.md). Usage: lua5.4 xxh3_vectors.lua SOURCE_DIR (run from anywhere).
-- Prints one line per vector and exits non-zero when any differs or none was found.
local src = arg[1] or "."
package.path = src .. "/conformance/ports/lua/?.lua;" .. package.path
local xxh3 = require("xxh3")

local f = assert(io.open(src .. "/spec/conformance.md", "rb"))
local text = f:read("a")
f:close()
-- The table follows the CONF-065 marker, up to the next clause marker.
local at = text:find("**[CONF-065]**", 1, true)
assert(at, "CONF-065 not found in spec/conformance.md")
local stop = text:find("**[CONF-", at + 10, true) or #text
local block = text:sub(at, stop)

local t = {}
for i = 0, 99999 do t[#t + 1] = string.char((31 * i + 7) % 256) end
local pattern = table.concat(t)

local n, bad = 0, 0
for len, want in block:gmatch("\n| (%d+) | `(%x+)` |") do
  len = tonumber(len)
  local got = xxh3.hex(pattern:sub(1, len))
  n = n + 1
  if got ~= want then bad = bad + 1 end
  print(string.format("%-4s n = %6d  spec %s  xxh3.lua %s", got == want and "ok" or "FAIL", len, want, got))
end
print(string.format("%d vectors, %d differ", n, bad))
os.exit((n >= 14 and bad == 0) and 0 or 1)
