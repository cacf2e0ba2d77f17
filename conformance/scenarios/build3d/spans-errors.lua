-- conformance/scenarios/build3d/spans-errors.lua
-- Argument and input errors of the span stage operations (SPAN-190, SPAN-191): each names
-- its field.

local FLOOR = "4f505453" .. "01000000" .. "03000000" .. "01000000"
  .. string.rep("00", 24) .. "0000000000000000" .. "0000000000000000" .. "0000000000000840"
  .. "0000000000000840" .. "0000000000000000" .. "0000000000000000"
  .. "00000000" .. "01000000" .. "02000000"

return {
  title = "Span stage operations: argument and input errors",
  clauses = { "SPAN-190", "SPAN-191", "SPAN-192", "SPAN-031", "SPAN-051", "SPAN-052", "SPAN-072",
              "SPAN-181", "SPAN-183", "LVL-011" },
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
    -- LVL-011: a bad magic has the four bytes read as value (CONF-013, bytes in hex)
    t:expect_error("spans.build_tile", { preset = "Humanoid", tile = { 0, 0 },
                                         soup = "4f50544d" .. string.rep("00", 12) },
                   { kind = "format", field = "soup.magic", value = "4f50544d" })
    -- SPAN-190 step 1: volumes beside settings is reported before the settings are read
    t:expect_error("spans.build_tile", { settings = { cell_size = 0 }, soup = FLOOR, tile = { 0, 0 },
                                         volumes = { { points = { { 0, 0 }, { 1, 0 }, { 1, 1 } },
                                                       ymin = 0, ymax = 1, area = 3 } } },
                   { kind = "argument", field = "volumes", value = "" })
    -- SPAN-190 step 2: a level that is not an object (null too) has no name; with a preset,
    -- the generator's errors take the prefix level.
    t:expect_error("spans.build_tile", { preset = "Humanoid", level = 5, tile = { 0, 0 } },
                   { kind = "argument", field = "level.name", value = "" })
    t:expect_error("spans.build", { preset = "Humanoid", level = t.null },
                   { kind = "argument", field = "level.name", value = "" })
    t:expect_error("spans.build", { preset = "Small",
                                    level = { name = "stairs", seed = "0000000000000001", size = 0 } },
                   { kind = "out_of_range", field = "level.size", value = "0" })
    t:expect_error("spans.build", { preset = "Humanoid",
                                    level = { name = "city", seed = "0000000000000001", size = -1 } },
                   { kind = "argument", field = "level.size", value = "" })
    -- SPAN-051, SPAN-181, SPAN-183: a soup with no vertex has one tile a side, not built
    local EMPTY = "4f505453" .. "01000000" .. string.rep("00", 8)
    local e = t:call("spans.build", { preset = "Humanoid", soup = EMPTY })
    t:check(e.ntx == 1 and e.ntz == 1 and e.built == 0, "no vertex: ntx = ntz = 1, nothing built")
    local e1 = t:call("spans.build_tile", { preset = "Humanoid", soup = EMPTY, tile = { 0, 0 } })
    t:check(e1.built == false and e1.nspans == 0 and e1.bytes == "", "no vertex: tile (0, 0) not built")
    -- SPAN-072 step 4: a col_start error has the entry's value
    local function cols(cs)
      return { preset = "Humanoid", tile = { 0, 0 },
               columns = { origin = { 0, 0, 0 }, width = 2, depth = 1, col_start = cs,
                           spans = { { 0, 1, 0 } } } }
    end
    t:expect_error("spans.build_columns", cols({ 1, 1, 1 }),
                   { kind = "argument", field = "columns.col_start[0]", value = "1" })
    t:expect_error("spans.build_columns", cols({ 0, 2, 1 }),
                   { kind = "argument", field = "columns.col_start[2]", value = "1" })
    t:expect_error("spans.build_columns", cols({ 0, 0, 0 }),
                   { kind = "argument", field = "columns.col_start[2]", value = "0" })
  end,
}
