-- conformance/scenarios/build3d/budget.lua
-- The work budget of a 3D build (build3d-spans.md section 11, SPAN-200 .. SPAN-205): each
-- default limit exactly reached passes, one step above is a limit error naming the limit
-- with the estimate, checked before any tile; a host's `limits` raises a limit.
-- The soups are one vertical triangle (never walkable, SPAN-104): no tile is built
-- (SPAN-182), so a build at the limit costs nothing, yet the budget counts every tile.

local function wall(t, x, z)
  local b = t:table()
  b:bytes("4f505453")
  b:u32(1)
  b:u32(3)
  b:u32(1)
  for _, v in ipairs({ { 0, 0, 0 }, { x, 0, z }, { x, 1, z } }) do b:f64(v[1]); b:f64(v[2]); b:f64(v[3]) end
  b:u32(0); b:u32(1); b:u32(2)
  return b:hex()
end

return {
  title = "Work budget of the 3D builds: default limits at and one above, host limits",
  clauses = { "SPAN-200", "SPAN-201", "SPAN-202", "SPAN-203", "SPAN-204", "SPAN-205" },
  run = function(t)
    local s = t:call("settings.preset", { name = "Humanoid" }).settings
    -- cell 1, radius 1 cell: Border 4, GridCells = tile_cells + 8 (SPAN-022)
    s.cell_size = 1
    s.agent_radius = 1
    s.detail_sample_distance = 0
    -- max_tile_grid_cells: 2040 + 8 = 2048, 2048^2 = 2^22 passes; 2049^2 = 4198401 fails
    s.tile_cells = 2040
    local ok = t:call("build3d.soup", { settings = s, soup = wall(t, 10, 10) })
    t:check(ok.ntx == 1 and ok.ntz == 1 and ok.built == 0 and #ok.tiles == 0,
            "2^22 cells per tile: within the budget, the wall builds no tile")
    t:checkpoint("at-tile-limit", "mesh", t:call("mesh.save", { mesh = ok.mesh }).bytes)
    s.tile_cells = 2041
    t:expect_error("build3d.soup", { settings = s, soup = wall(t, 10, 10) },
                   { kind = "limit", field = "limits.max_tile_grid_cells", value = "4198401" })
    t:expect_error("build3d.chunk", { settings = s, soup = wall(t, 10, 10), chunk_size = 4 },
                   { kind = "limit", field = "limits.max_tile_grid_cells", value = "4198401" })
    local raised = t:call("build3d.soup", { settings = s, soup = wall(t, 10, 10),
                                            limits = { max_tile_grid_cells = 4198401 } })
    t:check(raised.built == 0 and raised.ntx == 1, "a host limit of 4198401 admits it")
    -- max_tiles: 256 x 256 tiles of 1 cell = 2^16 passes; 256 x 257 = 65792 fails
    s.tile_cells = 1
    local g = t:call("build3d.soup", { settings = s, soup = wall(t, 256, 256) })
    t:check(g.ntx == 256 and g.ntz == 256 and g.built == 0, "65536 tiles: within the budget")
    t:expect_error("build3d.soup", { settings = s, soup = wall(t, 256, 257) },
                   { kind = "limit", field = "limits.max_tiles", value = "65792" })
    -- max_build_cells: tiles of 56 + 8 = 64 cells, 64 x 64 tiles = 2^24 cells passes;
    -- 64 x 65 tiles = 17039360 fails
    s.tile_cells = 56
    local c = t:call("build3d.soup", { settings = s, soup = wall(t, 3584, 3584) })
    t:check(c.ntx == 64 and c.ntz == 64 and c.built == 0, "2^24 cells: within the budget")
    t:expect_error("build3d.soup", { settings = s, soup = wall(t, 3584, 3585) },
                   { kind = "limit", field = "limits.max_build_cells", value = "17039360" })
    -- SPAN-203: the order of the table (both tiles and cells over: tiles named)
    t:expect_error("build3d.soup", { settings = s, soup = wall(t, 3584, 3585),
                                     limits = { max_tiles = 4000 } },
                   { kind = "limit", field = "limits.max_tiles", value = "4160" })
    local c2 = t:call("build3d.soup", { settings = s, soup = wall(t, 3584, 3585),
                                        limits = { max_build_cells = 17039360, max_tiles = 0 } })
    t:check(c2.ntz == 65, "raised max_build_cells; 0 keeps max_tiles' default")
    -- SPAN-205: the argument's form
    t:expect_error("build3d.soup", { settings = s, soup = wall(t, 10, 10), limits = 5 },
                   { kind = "argument", field = "limits" })
    t:expect_error("build3d.soup", { settings = s, soup = wall(t, 10, 10), limits = { tiles = 1 } },
                   { kind = "argument", field = "limits" })
    t:expect_error("build3d.soup", { settings = s, soup = wall(t, 10, 10),
                                     limits = { max_tiles = -1 } },
                   { kind = "argument", field = "limits.max_tiles" })
  end,
}
