-- spans3d.lua -- shared by the build3d/spans-<level> scenarios (require "spans3d").
--
-- checkpoint_tiles(t, name, h): SPAN-172 checkpoints "<name>-header" and
-- "<name>-tile-<tx>-<tz>" of the SPAN-171 bytes h (hex text), so that a mismatch names the
-- tile; checks that the pieces concatenate to the whole build's bytes.
local M = {}

-- u32 at byte offset off (0-based) of hex text h, little-endian.
local function u32(h, off)
  local s = h:sub(2 * off + 1, 2 * off + 8)
  return tonumber(s:sub(7, 8) .. s:sub(5, 6) .. s:sub(3, 4) .. s:sub(1, 2), 16)
end

function M.checkpoint_tiles(t, name, h)
  local pieces = { h:sub(1, 40) }
  t:checkpoint(name .. "-header", "table", pieces[1], "spans-header")
  local off = 20
  for _ = 1, u32(h, 16) do
    local tx, tz, len = u32(h, off), u32(h, off + 4), u32(h, off + 8)
    local piece = h:sub(2 * off + 1, 2 * (off + 12 + len))
    t:checkpoint(string.format("%s-tile-%d-%d", name, tx, tz), "table", piece, "spans-tile")
    pieces[#pieces + 1] = piece
    off = off + 12 + len
  end
  t:check(table.concat(pieces) == h, name .. ": the pieces concatenate to the build's bytes")
end

return M
