-- conformance/scenarios/build3d/settings-errors.lua
-- One expected error per validation rule of NavSettings (SPAN-030, SPAN-031), per decoding
-- rule of the protocol (SPAN-093) and per preset-name rule (SPAN-090).

local function copy(v)
  if type(v) ~= "table" then return v end
  local r = {}
  for k, x in pairs(v) do r[k] = copy(x) end
  return r
end

local VOL = { points = { { 0, 0 }, { 4, 0 }, { 4, 4 } }, ymin = 0, ymax = 2, area = 3 }

return {
  title = "Settings validation: every rule names the setting and the value",
  clauses = { "SPAN-030", "SPAN-031", "SPAN-032", "SPAN-033", "SPAN-004", "SPAN-090", "SPAN-091", "SPAN-093" },
  run = function(t)
    local base = t:call("settings.preset", { name = "Humanoid" }).settings
    local function bad(mut, kind, field, value)
      local s = copy(base)
      mut(s)
      t:expect_error("settings.validate", { settings = s }, { kind = kind, field = field, value = value })
    end
    local function good(mut)
      local s = copy(base)
      mut(s)
      t:call("settings.validate", { settings = s })
    end
    -- SPAN-030 rules 1 .. 16, in table order
    bad(function(s) s.cell_size = 0 end, "out_of_range", "settings.cell_size", "0")
    bad(function(s) s.cell_size = 0 / 0 end, "out_of_range", "settings.cell_size", "NaN")
    bad(function(s) s.cell_size = 65537 end, "out_of_range", "settings.cell_size", "65537")
    good(function(s) s.cell_size = 0x1p-16; s.agent_radius = 0; s.max_edge_len = 0 end)
    bad(function(s) s.cell_height = 1 / 0 end, "out_of_range", "settings.cell_height", "Infinity")
    bad(function(s) s.agent_radius = -0.5 end, "out_of_range", "settings.agent_radius", "-0.5")
    bad(function(s) s.cell_size = 1; s.agent_radius = 256 end, "out_of_range", "settings.agent_radius", "256")
    good(function(s) s.cell_size = 1; s.agent_radius = 255 end)
    -- a quotient row names its own field with that field's value, even when the earlier
    -- field (here cell_size, valid on its own) made the quotient fail
    bad(function(s) s.cell_size = 0.001; s.agent_radius = 0.6 end, "out_of_range",
        "settings.agent_radius", "0.6")
    bad(function(s) s.agent_height = 0 end, "out_of_range", "settings.agent_height", "0")
    bad(function(s) s.cell_height = 1; s.agent_height = 255.5 end, "out_of_range",
        "settings.agent_height", "255.5")
    bad(function(s) s.agent_climb = -1 / 0 end, "out_of_range", "settings.agent_climb", "-Infinity")
    bad(function(s) s.cell_height = 1; s.agent_climb = 256 end, "out_of_range", "settings.agent_climb", "256")
    good(function(s) s.cell_height = 1; s.agent_climb = 255.75 end)
    bad(function(s) s.max_slope = 90.5 end, "out_of_range", "settings.max_slope", "90.5")
    bad(function(s) s.max_slope = -1 end, "out_of_range", "settings.max_slope", "-1")
    good(function(s) s.max_slope = 90 end)
    bad(function(s) s.tile_cells = 0 end, "out_of_range", "settings.tile_cells", "0")
    bad(function(s) s.tile_cells = 8193 end, "out_of_range", "settings.tile_cells", "8193")
    bad(function(s) s.partition = "voronoi" end, "argument", "settings.partition", "voronoi")
    bad(function(s) s.partition = 3 end, "argument", "settings.partition", "")
    bad(function(s) s.min_region_area = 16777217 end, "out_of_range", "settings.min_region_area", "16777217")
    bad(function(s) s.merge_region_area = 16777217 end, "out_of_range", "settings.merge_region_area",
        "16777217")
    bad(function(s) s.max_simplification_error = 1025 end, "out_of_range",
        "settings.max_simplification_error", "1025")
    bad(function(s) s.max_edge_len = -3 end, "out_of_range", "settings.max_edge_len", "-3")
    bad(function(s) s.max_edge_len = 65536 * 0.3 end, "out_of_range", "settings.max_edge_len")
    bad(function(s) s.max_verts_per_poly = 2 end, "out_of_range", "settings.max_verts_per_poly", "2")
    bad(function(s) s.max_verts_per_poly = 13 end, "out_of_range", "settings.max_verts_per_poly", "13")
    bad(function(s) s.detail_sample_distance = 65537 end, "out_of_range",
        "settings.detail_sample_distance", "65537")
    bad(function(s) s.detail_sample_max_error = -0.5 end, "out_of_range",
        "settings.detail_sample_max_error", "-0.5")
    -- first failure in table order wins
    bad(function(s) s.tile_cells = 0; s.agent_height = 0 end, "out_of_range", "settings.agent_height", "0")
    -- SPAN-031, volume rules
    bad(function(s) local v = copy(VOL); v.points = { { 0, 0 }, { 1, 1 } }; s.volumes = { VOL, v } end,
        "out_of_range", "settings.volumes[1].npoints", "2")
    bad(function(s) local v = copy(VOL); v.points[2][2] = 2097153; s.volumes = { v } end,
        "out_of_range", "settings.volumes[0].points[1].z", "2097153")
    bad(function(s) local v = copy(VOL); v.ymin = 0 / 0; s.volumes = { v } end,
        "out_of_range", "settings.volumes[0].ymin", "NaN")
    bad(function(s) local v = copy(VOL); v.ymin = 5; s.volumes = { v } end,
        "out_of_range", "settings.volumes[0].ymax", "2")
    bad(function(s) local v = copy(VOL); v.area = 64; s.volumes = { v } end,
        "out_of_range", "settings.volumes[0].area", "64")
    -- SPAN-093, decoding
    bad(function(s) s.cell_size = nil end, "argument", "settings.cell_size")
    bad(function(s) s.cell_size = "0.3" end, "argument", "settings.cell_size")
    bad(function(s) s.tile_cells = 64.5 end, "argument", "settings.tile_cells")
    bad(function(s) s.tile_cells = -1 end, "out_of_range", "settings.tile_cells", "-1")
    bad(function(s) s.min_region_area = 4294967296 end, "out_of_range", "settings.min_region_area",
        "4294967296")
    bad(function(s) s.volumes = 3 end, "argument", "settings.volumes")
    bad(function(s) s.volumes = { 7 } end, "argument", "settings.volumes[0]")
    bad(function(s) local v = copy(VOL); v.points = { { 0, 0, 0 }, { 1, 0 }, { 0, 1 } }; s.volumes = { v } end,
        "argument", "settings.volumes[0].points[0]")
    bad(function(s)
      local v = copy(VOL)
      v.points = {}
      for i = 1, 13 do v.points[i] = { i, 0 } end
      s.volumes = { v }
    end, "out_of_range", "settings.volumes[0].npoints", "13")
    -- SPAN-033, obstacles
    local CYL = { shape = "cylinder", center = { 10, 0, 10 }, radius = 2, height = 3 }
    local BOX = { shape = "box", bmin = { -1, 0, 0 }, bmax = { 1, 0, 4 } }
    local OBB = { shape = "oriented_box", center = { 0, 0, 0 }, half = { 1, 0, 2 }, yaw = 0.5 }
    good(function(s) s.obstacles = { CYL, BOX, OBB } end)
    bad(function(s) local o = copy(CYL); o.radius = 0; s.obstacles = { o } end,
        "out_of_range", "settings.obstacles[0].radius", "0")
    bad(function(s) local o = copy(CYL); o.center = { 2097150, 0, 0 }; o.radius = 2.5; s.obstacles = { o } end,
        "out_of_range", "settings.obstacles[0].radius", "2.5")
    bad(function(s) local o = copy(CYL); o.height = -1; s.obstacles = { BOX, o } end,
        "out_of_range", "settings.obstacles[1].height", "-1")
    bad(function(s) local o = copy(BOX); o.bmin = { -1, 0, 5 }; s.obstacles = { o } end,
        "out_of_range", "settings.obstacles[0].bmax.z", "4")
    bad(function(s) local o = copy(OBB); o.half = { 1, -0.5, 2 }; s.obstacles = { o } end,
        "out_of_range", "settings.obstacles[0].half.y", "-0.5")
    bad(function(s) local o = copy(OBB); o.yaw = 1 / 0; s.obstacles = { o } end,
        "out_of_range", "settings.obstacles[0].yaw", "Infinity")
    bad(function(s) local o = copy(OBB); o.yaw = 0; o.center = { 2097151.5, 0, 0 }; s.obstacles = { o } end,
        "out_of_range", "settings.obstacles[0].half.x", "1")
    bad(function(s) local o = copy(OBB); o.shape = "sphere"; s.obstacles = { o } end,
        "argument", "settings.obstacles[0].shape")
    bad(function(s) local o = copy(BOX); o.bmax = { 1, 2 }; s.obstacles = { o } end,
        "argument", "settings.obstacles[0].bmax")
    t:expect_error("settings.validate", {}, { kind = "argument", field = "settings" })
    -- SPAN-090
    t:expect_error("settings.preset", { name = "humanoid" }, { kind = "argument", field = "name",
                                                               value = "humanoid" })
    t:expect_error("settings.preset", { name = 1 }, { kind = "argument", field = "name" })
    -- LVL-022 / LVL-070 errors of level.generate
    t:expect_error("level.generate", { name = "maze", seed = "0000000000000000", size = 4 },
                   { kind = "argument", field = "name", value = "maze" })
    t:expect_error("level.generate", { name = "city", seed = "00", size = 4 },
                   { kind = "argument", field = "seed" })
    t:expect_error("level.generate", { name = "city", seed = "0000000000000000", size = 2.5 },
                   { kind = "argument", field = "size" })
    t:expect_error("level.generate", { name = "city", seed = "0000000000000000", size = 17 },
                   { kind = "out_of_range", field = "size", value = "17" })
    t:expect_error("level.generate", { name = "terrain", seed = "0000000000000000", size = -1 },
                   { kind = "out_of_range", field = "size", value = "-1" })
    t:expect_error("level.generate", { name = "dungeon", seed = "0000000000000000", size = 9 },
                   { kind = "out_of_range", field = "size", value = "9" })
    -- every level's size range (LVL-030 .. LVL-060) exceeded by one at both ends
    for _, lv in ipairs({ { "terrain", 1, 1024 }, { "city", 1, 16 }, { "stairs", 1, 64 },
                          { "dungeon", 10, 128 }, { "hills", 1, 256 } }) do
      for _, size in ipairs({ lv[2] - 1, lv[3] + 1 }) do
        t:expect_error("level.generate", { name = lv[1], seed = "0000000000000000", size = size },
                       { kind = "out_of_range", field = "size", value = tostring(size) })
      end
    end
    local s = copy(base)
    s.max_slope = 85
    t:expect_error("level.generate", { name = "stairs", seed = "0000000000000000", size = 2, settings = s },
                   { kind = "out_of_range", field = "settings.max_slope", value = "85" })
    s.max_slope = 0 / 0
    t:expect_error("level.generate", { name = "stairs", seed = "0000000000000000", size = 2, settings = s },
                   { kind = "out_of_range", field = "settings.max_slope", value = "NaN" })
  end,
}
