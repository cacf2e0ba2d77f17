-- conformance/scenarios/build3d/spans-errors.lua
-- Argument and input errors of the span stage operations (SPAN-190, SPAN-191): each names
-- its field.

local FLOOR = "4f505453" .. "01000000" .. "03000000" .. "01000000"
  .. string.rep("00", 24) .. "0000000000000000" .. "0000000000000000" .. "0000000000000840"
  .. "0000000000000840" .. "0000000000000000" .. "0000000000000000"
  .. "00000000" .. "01000000" .. "02000000"

return {
  title = "Span stage operations: argument and input errors",
  clauses = { "SPAN-190", "SPAN-191", "SPAN-031", "SPAN-052" },
  run = function(t)
    t:expect_error("spans.build_tile", { preset = "Tiny", soup = FLOOR, tile = { 0, 0 } },
                   { kind = "argument", field = "preset" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", tile = { 0, 0 } },
                   { kind = "argument", field = "soup" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = FLOOR,
                                         level = { name = "city", seed = "0000000000000001", size = 1 },
                                         tile = { 0, 0 } },
                   { kind = "argument", field = "soup" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = FLOOR, tile = { 0 } },
                   { kind = "argument", field = "tile" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = FLOOR, tile = { 0, 0.5 } },
                   { kind = "argument", field = "tile" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = "4f50", tile = { 0, 0 } },
                   { kind = "format", field = "soup.length" })
    t:expect_error("spans.build", { preset = "Humanoid",
                                    level = { name = "maze", seed = "0000000000000001", size = 1 } },
                   { kind = "argument", field = "level.name" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = FLOOR, tile = { 0, 0 },
                                         volumes = { { points = { { 0, 0 }, { 1, 0 } }, ymin = 0, ymax = 1, area = 3 } } },
                   { kind = "out_of_range", field = "volumes[0].npoints" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = FLOOR, tile = { 0, 0 },
                                         volumes = { { points = { { 0, 0 }, { 1, 0 }, { 1, 1 } }, ymin = 2, ymax = 1, area = 3 } } },
                   { kind = "out_of_range", field = "volumes[0].ymax" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = FLOOR, tile = { 0, 0 },
                                         volumes = { { points = { { 0, 0 }, { 1, 0 }, { 1, 1 } }, ymin = 0, ymax = 1, area = 64 } } },
                   { kind = "out_of_range", field = "volumes[0].area" })
    local ok = t:call("spans.build_tile", { preset = "Humanoid", soup = FLOOR, tile = { 0, 0 } })
    t:check(ok.built == true, "the one-triangle floor builds")
  end,
}
