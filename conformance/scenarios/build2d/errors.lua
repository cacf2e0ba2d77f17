-- Errors of the 2D builder's settings, limits and protocol arguments (T2D-012, T2D-021,
-- T2D-022, T2D-032, T2D-070 .. T2D-073).
local SQ = { { { 0, 0 }, { 10, 0 }, { 10, 10 }, { 0, 10 } } }

return {
  title = "Settings, snap grid, limits and argument errors of build2d.*",
  clauses = { "T2D-012", "T2D-021", "T2D-022", "T2D-032", "T2D-070", "T2D-071", "T2D-073" },
  run = function(t)
    local function err(settings, outlines, kind, field, value)
      t:expect_error("build2d.outlines", { settings = settings, outlines = outlines or SQ },
                     { kind = kind, field = field, value = value })
    end
    err({ preset = "Huge" }, nil, "argument", "settings.preset")
    err({ preset = "Large", foo = 1 }, nil, "argument", "settings.foo")
    err({ preset = "Large", cell_size = "x" }, nil, "argument", "settings.cell_size")
    err({ preset = "Large", snap_bits = 10 }, nil, "argument", "SnapBits", "10")
    err({ preset = "Large", snap_bits = 17 }, nil, "out_of_range", "SnapBits", "17")
    err({ preset = "Large", tile_cells = 8193 }, nil, "out_of_range", "TileSize", "8193")
    err({ preset = "Large", cell_size = 300 }, nil, "out_of_range", "CellSize")
    err({ preset = "Large", cell_size = 0, tile_cells = 0 }, nil, "out_of_range", "CellSize", "0")
    err({ preset = "Large", max_verts_per_poly = 13 }, nil, "out_of_range", "MaxVertsPerPoly", "13")
    err({ preset = "Large", area = 64 }, nil, "out_of_range", "Area", "64")
    err({ preset = "Large", origin = { 0, 1 / 0 } }, nil, "out_of_range", "TileOrigin.z", "Infinity")
    local tiny = { preset = "Large", cell_size = 1, tile_cells = 1, snap_bits = 0, agent_radius = 0 }
    err(tiny, { { { 0, 0 }, { 5000, 0 }, { 5000, 2 }, { 0, 2 } } }, "limit", "tile_lines.x", "4097")
    err(tiny, { { { 0, 0 }, { 2000, 0 }, { 2000, 2000 }, { 0, 2000 } } }, "limit", "tile_crossings", "3996001")
    err({ preset = "Large" }, { { { 0, 0 }, { 1 } } }, "argument", "outlines[0][1]")
    t:expect_error("build2d.outlines", { settings = { preset = "Large" } }, { kind = "argument", field = "outlines" })
    local f = t:call("build2d.finest_snap_bits", { cell_size = 0.3 })
    t:check(f.snap_bits == 9, "FinestSnapBits(0.3) = 9")
    t:check(t:call("build2d.finest_snap_bits", { cell_size = 300 }).snap_bits == -1, "none above 256")
    t:expect_error("build2d.finest_snap_bits", { cell_size = 0 }, { kind = "out_of_range", field = "cell_size" })
    -- an empty region: a mesh without tiles
    local e = t:call("build2d.outlines", { settings = { preset = "Large" }, outlines = t:array({}) })
    t:check(#e.tiles == 0, "no tiles")
    t:checkpoint("empty", "mesh", t:call("mesh.save", { mesh = e.handle }).bytes)
  end,
}
