-- conformance/scenarios/build3d/spans-stairs.lua
-- The span stages (rasterization, filters, compaction, erosion) on every tile of the
-- levels.md "stairs" generator at the three presets: the compact heightfield of each built
-- tile (spans, links, areas; SPAN-170), one checkpoint per built tile so that a mismatch
-- names the tile: the SPAN-171 bytes of each preset cut into the header and one record per
-- tile (SPAN-172); the pieces concatenate to the whole build's bytes.

-- u32 at byte offset off (0-based) of hex text h, little-endian.
local function u32(h, off)
  local s = h:sub(2 * off + 1, 2 * off + 8)
  return tonumber(s:sub(7, 8) .. s:sub(5, 6) .. s:sub(3, 4) .. s:sub(1, 2), 16)
end

-- SPAN-172: checkpoints "<name>-header" and "<name>-tile-<tx>-<tz>" of SPAN-171 bytes h.
local function checkpoint_tiles(t, name, h)
  local pieces = { h:sub(1, 40) }
  t:checkpoint(name .. "-header", "table", pieces[1])
  local off = 20
  for _ = 1, u32(h, 16) do
    local tx, tz, len = u32(h, off), u32(h, off + 4), u32(h, off + 8)
    local piece = h:sub(2 * off + 1, 2 * (off + 12 + len))
    t:checkpoint(string.format("%s-tile-%d-%d", name, tx, tz), "table", piece)
    pieces[#pieces + 1] = piece
    off = off + 12 + len
  end
  t:check(table.concat(pieces) == h, name .. ": the pieces concatenate to the build's bytes")
end

return {
  title = "Span stages on the stairs level at the three presets",
  clauses = { "SPAN-103", "SPAN-110", "SPAN-121", "SPAN-122", "SPAN-123", "SPAN-142",
              "SPAN-150", "SPAN-170", "SPAN-171", "SPAN-172", "SPAN-180", "SPAN-183", "SPAN-191" },
  run = function(t)
    for _, preset in ipairs({ "Humanoid", "Small", "Large" }) do
      local r = t:call("spans.build", { preset = preset,
                                        level = { name = "stairs", seed = "00000000000000a1", size = 6 } })
      t:check(r.built >= 1 and r.built <= r.ntx * r.ntz, "stairs/" .. preset .. ": some tiles built")
      checkpoint_tiles(t, "stairs-" .. preset, r.bytes)
    end
  end,
}
