-- conformance/scenarios/build2d/budget.lua
-- The work budget of the 2D builder (build2d-tiles.md section 8, T2D-080 .. T2D-083):
-- checked after the shrink and the cut-line limits, before the arrangement; at the limit
-- passes, above is a limit error naming the limit with the estimate.
local function sq(x, z) return { { { 0, 0 }, { x, 0 }, { x, z }, { 0, z } } } end

return {
  title = "Work budget of build2d.*: default and host limits, at and above",
  clauses = { "T2D-080", "T2D-081", "T2D-082", "T2D-083" },
  run = function(t)
    -- max_grid_cells: tiles of 8192^2 = 2^26 cells; one cut line per axis, 4 tiles = 2^28
    -- passes; two X cut lines, 6 tiles = 402653184 fails
    local big = { preset = "Large", cell_size = 1, tile_cells = 8192, agent_radius = 0, snap_bits = 0 }
    local m = t:call("build2d.outlines", { settings = big, outlines = sq(8193, 8193) })
    t:check(#m.tiles == 4, "2^28 grid cells: within the budget, four tiles")
    t:checkpoint("at-cell-limit", "mesh", t:call("mesh.save", { mesh = m.handle }).bytes)
    t:expect_error("build2d.outlines", { settings = big, outlines = sq(16385, 8193) },
                   { kind = "limit", field = "limits.max_grid_cells", value = "402653184" })
    -- max_tiles: 128 x 129 cut lines = 129 x 130 = 16770 tiles > 2^14 (before any arrangement)
    local tiny = { preset = "Large", cell_size = 1, tile_cells = 1, agent_radius = 0, snap_bits = 0 }
    t:expect_error("build2d.outlines", { settings = tiny, outlines = sq(129, 130) },
                   { kind = "limit", field = "limits.max_tiles", value = "16770" })
    t:expect_error("build2d.tilemap", { settings = tiny, width = 1, height = 1, cells = { 1 },
                                        map_origin = { 0, 0 }, map_cell = 130 },
                   { kind = "limit", field = "limits.max_tiles", value = "16900" })
    -- a host's limits: 3 x 3 tiles pass at max_tiles 9, fail at 8
    local h = t:call("build2d.outlines", { settings = tiny, outlines = sq(3, 3), limits = { max_tiles = 9 } })
    t:check(#h.tiles == 9, "nine tiles at max_tiles 9")
    t:checkpoint("host-limit", "mesh", t:call("mesh.save", { mesh = h.handle }).bytes)
    t:expect_error("build2d.outlines", { settings = tiny, outlines = sq(3, 3), limits = { max_tiles = 8 } },
                   { kind = "limit", field = "limits.max_tiles", value = "9" })
    t:expect_error("build2d.outlines", { settings = tiny, outlines = sq(3, 3), limits = { max_grid_cells = 8 } },
                   { kind = "limit", field = "limits.max_grid_cells", value = "9" })
    -- T2D-032 comes first: 4097 cut lines on X is still tile_lines.x
    t:expect_error("build2d.outlines", { settings = tiny, outlines = sq(5000, 2) },
                   { kind = "limit", field = "tile_lines.x", value = "4097" })
    -- T2D-083: the argument's form
    t:expect_error("build2d.outlines", { settings = tiny, outlines = sq(3, 3), limits = "x" },
                   { kind = "argument", field = "limits" })
    t:expect_error("build2d.outlines", { settings = tiny, outlines = sq(3, 3), limits = { max_tiles = 0.5 } },
                   { kind = "argument", field = "limits.max_tiles" })
  end,
}
