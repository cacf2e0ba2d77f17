-- conformance/scenarios/build3d/settings-presets.lua
-- The three presets (SPAN-040) and their derived cell values (SPAN-020 .. SPAN-025),
-- every value derived by hand in spec/build3d-spans.md's preset tables.

local WANT = {
  Humanoid = { cs = 0.3, ch = 0.1, r = 2, h = 20, c = 9, border = 5, grid = 74, tile = 64 },
  Small = { cs = 0.15, ch = 0.05, r = 2, h = 20, c = 8, border = 5, grid = 42, tile = 32 },
  Large = { cs = 0.5, ch = 0.3, r = 3, h = 14, c = 4, border = 6, grid = 140, tile = 128 },
}

return {
  title = "Settings presets Humanoid, Small, Large and their derived cell values",
  clauses = { "SPAN-001", "SPAN-002", "SPAN-020", "SPAN-021", "SPAN-022", "SPAN-023",
              "SPAN-024", "SPAN-025", "SPAN-040", "SPAN-090", "SPAN-091", "SPAN-093" },
  run = function(t)
    local b = t:table()
    for _, name in ipairs({ "Humanoid", "Small", "Large" }) do
      local w = WANT[name]
      local s = t:call("settings.preset", { name = name }).settings
      t:check(s.cell_size == w.cs and s.cell_height == w.ch, name .. ": cell size and height")
      t:check(s.tile_cells == w.tile and s.max_verts_per_poly == 6, name .. ": tile, verts")
      t:check(s.partition == "watershed" and s.volumes == nil, name .. ": partition, no volumes")
      local d = t:call("settings.validate", { settings = s }).derived
      t:check(d.walkable_radius == w.r, name .. ": WalkableRadius")
      t:check(d.walkable_height == w.h, name .. ": WalkableHeight")
      t:check(d.walkable_climb == w.c, name .. ": WalkableClimb")
      t:check(d.border == w.border, name .. ": Border = radius + 3")
      t:check(d.grid_cells == w.grid, name .. ": GridCells = tile + 2 border")
      t:check(d.max_edge_len == 40, name .. ": MaxEdgeLenCells")
      t:check(d.detail_sample_dist == w.cs * 6, name .. ": DetailSampleDist")
      t:check(d.slope_cos > 0.76 and d.slope_cos < 0.77 or d.slope_cos > 0.707 and d.slope_cos < 0.708,
              name .. ": SlopeCos near cos 40 or cos 45")
      b:i64(d.walkable_radius); b:i64(d.walkable_height); b:i64(d.walkable_climb)
      b:i64(d.border); b:i64(d.grid_cells); b:i64(d.max_edge_len)
      b:f64(d.slope_cos); b:f64(d.detail_sample_dist); b:f64(d.detail_sample_max_error)
    end
    t:checkpoint("derived", "table", b:hex())
    -- SPAN-020 at a rounded quotient: radius 0.6 / cell 0.2 = 2.9999999999999996 -> 3;
    -- climb 1.2 / 0.4 -> 2; height 0.9 / 0.2 = 4.5 -> 5.
    local s = t:call("settings.preset", { name = "Humanoid" }).settings
    s.cell_size = 0.2; s.cell_height = 0.4; s.agent_climb = 1.2; s.agent_height = 2
    local d = t:call("settings.validate", { settings = s }).derived
    t:check(d.walkable_radius == 3, "ceil(0.6 / 0.2) = 3")
    t:check(d.walkable_climb == 2, "floor(1.2 / 0.4) = 2")
    s.cell_height = 0.2; s.agent_height = 0.9
    d = t:call("settings.validate", { settings = s }).derived
    t:check(d.walkable_height == 5, "ceil(0.9 / 0.2) = ceil(4.5) = 5")
    -- a volume round-trips through validation
    s.volumes = { { points = { { 0, 0 }, { 4, 0 }, { 4, 4 } }, ymin = -1, ymax = 3, area = 5 } }
    t:call("settings.validate", { settings = s })
  end,
}
