-- conformance/scenarios/build3d/contours-errors.lua
-- Argument errors of contours.build_tile (REG-223): each names its field.

local FLOOR = "4f505453" .. "01000000" .. "03000000" .. "01000000"
  .. string.rep("00", 24) .. "0000000000000000" .. "0000000000000000" .. "0000000000000840"
  .. "0000000000000840" .. "0000000000000000" .. "0000000000000000"
  .. "00000000" .. "01000000" .. "02000000"

return {
  title = "Contour stage operation: argument errors",
  clauses = { "REG-223" },
  run = function(t)
    t:expect_error("contours.build_tile", { preset = "Tiny", soup = FLOOR, tile = { 0, 0 } },
                   { kind = "argument", field = "preset" })
    t:expect_error("contours.build_tile", { preset = "Humanoid", partition = "voronoi",
                                            soup = FLOOR, tile = { 0, 0 } },
                   { kind = "argument", field = "partition" })
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
  end,
}
