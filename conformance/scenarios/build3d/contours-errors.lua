-- conformance/scenarios/build3d/contours-errors.lua
-- Argument errors of contours.build_tile (REG-223): each names its field; and the errors
-- and values of the regions operations' chf bytes (REG-180 .. REG-182).

local FLOOR = "4f505453" .. "01000000" .. "03000000" .. "01000000"
  .. string.rep("00", 24) .. "0000000000000000" .. "0000000000000000" .. "0000000000000840"
  .. "0000000000000840" .. "0000000000000000" .. "0000000000000000"
  .. "00000000" .. "01000000" .. "02000000"

-- little-endian u32 as hex
local function u32(n)
  return string.format("%02x%02x%02x%02x", n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255)
end

-- SPAN-170 bytes: a header, the column counts, the spans (y, h, area, four links)
local function chf(w, d, h, wh, wc, counts, spans)
  local t = { "4f50434846303031", u32(0), u32(0), u32(w), u32(d), u32(h), u32(wh), u32(wc),
              u32(#spans) }
  for _, c in ipairs(counts) do t[#t + 1] = string.format("%02x", c) end
  for _, s in ipairs(spans) do
    t[#t + 1] = string.format("%02x%02x%02x%02x%02x%02x%02x%02x", s[1] & 255, s[1] >> 8, s[2],
      s[3], s[4] or 63, s[5] or 63, s[6] or 63, s[7] or 63)
  end
  return table.concat(t)
end

return {
  title = "Contour stage operation: argument errors; chf errors of the regions operations",
  clauses = { "REG-223", "REG-180", "REG-181", "REG-182" },
  run = function(t)
    t:expect_error("contours.build_tile", { preset = "Tiny", soup = FLOOR, tile = { 0, 0 } },
                   { kind = "argument", field = "preset" })
    t:expect_error("contours.build_tile", { preset = "Humanoid", partition = "voronoi",
                                            soup = FLOOR, tile = { 0, 0 } },
                   { kind = "argument", field = "partition", value = "voronoi" })
    -- REG-223: a partition that is not a string has the empty value; partition is read
    -- before the triangles and the tile, so it wins over their errors
    t:expect_error("contours.build_tile", { preset = "Humanoid", partition = 7,
                                            soup = FLOOR, tile = { 0, 0 } },
                   { kind = "argument", field = "partition", value = "" })
    t:expect_error("contours.build_tile", { preset = "Humanoid", partition = "voronoi",
                                            soup = "4f50", tile = { 0 } },
                   { kind = "argument", field = "partition", value = "voronoi" })
    local ok0 = t:call("contours.build_tile", { preset = "Humanoid", partition = t.null,
                                                soup = FLOOR, tile = { 0, 0 } })
    t:check(ok0.built == true, "a null partition is the preset's")
    t:expect_error("contours.build_tile", { preset = "Humanoid", tile = { 0, 0 } },
                   { kind = "argument", field = "soup" })
    t:expect_error("contours.build_tile", { preset = "Humanoid", soup = FLOOR, tile = { 0 } },
                   { kind = "argument", field = "tile" })
    t:expect_error("contours.build_tile", { preset = "Humanoid", soup = "4f50", tile = { 0, 0 } },
                   { kind = "format", field = "soup.length" })
    t:expect_error("contours.build_tile", { preset = "Humanoid", tile = { 0, 0 },
                                            level = { name = "maze", seed = "0000000000000001", size = 1 } },
                   { kind = "argument", field = "level.name" })
    local ok = t:call("contours.build_tile", { preset = "Humanoid", soup = FLOOR, tile = { 0, 0 } })
    t:check(ok.built == true, "the small floor's tile is built")
    -- REG-180: the partition's value; REG-181: each chf error's field and value
    local one = chf(1, 1, 1, 2, 1, { 1 }, { { 0, 1, 0 } })
    local function reg(c, want)
      t:expect_error("regions.build", { chf = c, partition = "monotone", border = 0,
                                        min_region_area = 0 }, want)
    end
    t:expect_error("regions.build", { chf = one, partition = "voronoi", border = 0, min_region_area = 0 },
                   { kind = "argument", field = "partition", value = "voronoi" })
    t:expect_error("regions.build", { chf = one, partition = 1, border = 0, min_region_area = 0 },
                   { kind = "argument", field = "partition", value = "" })
    reg("zz", { kind = "argument", field = "chf", value = "" })
    reg("4f504348", { kind = "format", field = "chf.magic", value = "4" })
    reg(chf(0, 1, 1, 2, 1, {}, {}), { kind = "format", field = "chf.width", value = "0" })
    reg(chf(1, 16385, 1, 2, 1, {}, {}), { kind = "format", field = "chf.depth", value = "16385" })
    reg(chf(1, 1, 65536, 2, 1, { 0 }, {}), { kind = "format", field = "chf.height", value = "65536" })
    reg(chf(1, 1, 1, 0x80000000, 1, { 0 }, {}),
        { kind = "format", field = "chf.walkable_height", value = "2147483648" })
    reg(chf(1, 1, 1, 2, 0xffffffff, { 0 }, {}),
        { kind = "format", field = "chf.walkable_climb", value = "4294967295" })
    reg(one .. "00", { kind = "format", field = "chf.nspans", value = "1" })
    reg(chf(2, 1, 1, 2, 1, { 0, 64 }, { { 0, 1, 0 } }), { kind = "format", field = "chf.count", value = "64" })
    reg(chf(2, 1, 1, 2, 1, { 1, 1 }, { { 0, 1, 0 } }), { kind = "format", field = "chf.nspans", value = "1" })
    reg(chf(1, 1, 1, 2, 1, { 1 }, { { 0, 1, 64 } }), { kind = "format", field = "chf.area", value = "64" })
    reg(chf(2, 1, 1, 2, 1, { 1, 1 }, { { 0, 1, 1, 63, 63, 0 }, { 0, 1, 1, 5 } }),
        { kind = "format", field = "chf.link", value = "5" })
    -- REG-182: no walkable span: no layer, every span in layer 0
    local l1 = t:call("regions.layers", { chf = one })
    t:check(l1.nlayers == 0 and #l1.layers == 1 and l1.layers[1] == 0, "no walkable span: nlayers 0")
    local l0 = t:call("regions.layers", { chf = chf(1, 1, 1, 2, 1, { 0 }, {}) })
    t:check(l0.nlayers == 0 and #l0.layers == 0, "no span: nlayers 0, no layer")
  end,
}
