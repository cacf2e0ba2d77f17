-- conformance/scenarios/build3d/spans-settings.lua
-- The span operations with a full settings object instead of a preset (SPAN-190, SPAN-191):
-- the settings win over the preset, every setting is decoded and validated as
-- settings.validate does (SPAN-093, SPAN-030), and changed settings change the result as
-- build3d-spans.md says (counts derived by hand).

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

local function copy(v)
  if type(v) ~= "table" then return v end
  local r = {}
  for k, x in pairs(v) do r[k] = copy(x) end
  return r
end

return {
  title = "Span operations with a full settings object",
  clauses = { "SPAN-021", "SPAN-022", "SPAN-030", "SPAN-093", "SPAN-102", "SPAN-155",
              "SPAN-162", "SPAN-183", "SPAN-190", "SPAN-191" },
  run = function(t)
    -- The 3 x 3 floor of spans-tile: Humanoid gives 64 open spans, 16 walkable.
    local floor = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 } },
                       { { 0, 1, 2 }, { 0, 2, 3 } })
    local H = t:call("settings.preset", { name = "Humanoid" }).settings
    local p = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 } })
    local s = t:call("spans.build_tile", { settings = H, soup = floor, tile = { 0, 0 } })
    t:check(s.bytes == p.bytes, "the preset as a settings object gives the preset's bytes")
    -- settings win: the preset is not read when settings are given
    local w = t:call("spans.build_tile", { settings = H, preset = "Tiny", soup = floor, tile = { 0, 0 } })
    t:check(w.bytes == p.bytes, "settings given: the preset is ignored")

    -- agent_radius 0.3: WalkableRadius 1, Border 4 (grid 72 x 72). The ledge ring goes as
    -- before (64 open spans); erosion threshold 2 removes only the 28 boundary spans of the
    -- 8 x 8 block: 36 walkable.
    local r1 = copy(H)
    r1.agent_radius = 0.3
    local a = t:call("spans.build_tile", { settings = r1, soup = floor, tile = { 0, 0 } })
    t:check(a.nspans == 64 and a.walkable == 36, "radius 1 cell: 64 open, 36 walkable")
    t:checkpoint("floor-radius-0.3", "table", a.bytes, "chf")

    -- agent_radius 0: no erosion (SPAN-155): all 64 open spans stay walkable.
    local r0 = copy(H)
    r0.agent_radius = 0
    local z = t:call("spans.build_tile", { settings = r0, soup = floor, tile = { 0, 0 } })
    t:check(z.nspans == 64 and z.walkable == 64, "radius 0: 64 walkable")

    -- Volumes inside the settings object act as the volumes argument with a preset.
    local vols = { { points = { { -1, -1 }, { 4, -1 }, { 4, 4 }, { -1, 4 } }, ymin = -1, ymax = 1, area = 5 },
                   { points = { { 1.2, -1 }, { 1.5, -1 }, { 1.5, 4 }, { 1.2, 4 } }, ymin = 0, ymax = 0.1, area = 0 } }
    local pv = t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 }, volumes = vols })
    local hv = copy(H)
    hv.volumes = vols
    local sv = t:call("spans.build_tile", { settings = hv, soup = floor, tile = { 0, 0 } })
    t:check(sv.bytes == pv.bytes and sv.walkable == 12, "settings.volumes = volumes argument")

    -- tile_cells 4 with spans.build: ntx is the least n with X(4 n) = fl(n * 4 * 0.3) >= 3:
    -- n = 3 (3.5999999999999996); 3 x 3 tiles, every bordered grid meets the floor.
    local t4 = copy(H)
    t4.tile_cells = 4
    local b = t:call("spans.build", { settings = t4, soup = floor })
    t:check(b.ntx == 3 and b.ntz == 3 and b.built == 9, "tile_cells 4: 3 x 3 tiles, 9 built")
    t:checkpoint("floor-tile-cells-4", "table", b.bytes, "spans")

    -- A generated level with settings: the stairs follow the settings (LVL-050); the
    -- Humanoid object gives the preset's bytes.
    local lv = { name = "stairs", seed = "00000000000000a1", size = 2 }
    local lp = t:call("spans.build", { preset = "Humanoid", level = lv })
    local ls = t:call("spans.build", { settings = H, level = lv })
    t:check(lp.bytes == ls.bytes, "stairs: settings object = preset")

    -- Errors: decoding and validation as settings.validate, prefixed settings.
    local function bad(mut, kind, field, value)
      local x = copy(H)
      mut(x)
      t:expect_error("spans.build_tile", { settings = x, soup = floor, tile = { 0, 0 } },
                     { kind = kind, field = field, value = value })
    end
    bad(function(x) x.cell_size = nil end, "argument", "settings.cell_size")
    bad(function(x) x.tile_cells = 64.5 end, "argument", "settings.tile_cells")
    bad(function(x) x.partition = "voronoi" end, "argument", "settings.partition")
    bad(function(x) x.cell_size = 0 end, "out_of_range", "settings.cell_size", "0")
    bad(function(x) x.agent_height = 0 end, "out_of_range", "settings.agent_height", "0")
    bad(function(x) x.max_slope = 90.5 end, "out_of_range", "settings.max_slope", "90.5")
    bad(function(x) x.max_verts_per_poly = 13 end, "out_of_range", "settings.max_verts_per_poly", "13")
    bad(function(x) x.detail_sample_max_error = -0.5 end, "out_of_range",
        "settings.detail_sample_max_error", "-0.5")
    bad(function(x) x.volumes = { { points = { { 0, 0 }, { 1, 0 }, { 1, 1 } }, ymin = 2, ymax = 1, area = 3 } } end,
        "out_of_range", "settings.volumes[0].ymax", "1")
    -- the settings are checked before the input: a bad soup is not reached
    local x = copy(H)
    x.cell_height = 0
    t:expect_error("spans.build", { settings = x, soup = "4f50" },
                   { kind = "out_of_range", field = "settings.cell_height" })
    t:expect_error("spans.build_tile", { settings = 7, soup = floor, tile = { 0, 0 } },
                   { kind = "argument", field = "settings" })
    t:expect_error("spans.build_tile", { settings = H, soup = floor, tile = { 0, 0 }, volumes = vols },
                   { kind = "argument", field = "volumes" })
    -- a rule stairs puts on the settings names the settings (LVL-050, LVL-070)
    local st = copy(H)
    st.max_slope = 85
    t:expect_error("spans.build", { settings = st, level = lv },
                   { kind = "out_of_range", field = "settings.max_slope", value = "85" })
  end,
}
