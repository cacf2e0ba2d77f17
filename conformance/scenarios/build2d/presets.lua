-- The three presets with their own agent radius (shrink, T2D-002 stage 2). Humanoid
-- (W = 19.2) and Small (W = 4.8) have tile lines off their grid (T2D-031 note), so their
-- regions stay inside one tile; Large (W = 64) crosses lines. A Humanoid region that
-- crosses line 1 (19.2) is refused, naming the line.
local UNIT = 512

local check_tiles = require("props2d").check_tiles -- T2D-043, G2D-225 properties

return {
  title = "Presets Humanoid, Small, Large with their radius; Humanoid across a tile line refused",
  clauses = { "T2D-002", "T2D-011", "T2D-021", "T2D-031", "T2D-043", "T2D-071" },
  run = function(t)
    local h = t:call("build2d.outlines", { settings = { preset = "Humanoid" },
      outlines = { { { 1, 1 }, { 18, 1 }, { 18, 10 }, { 9, 10 }, { 9, 6 }, { 1, 6 } } } })
    t:checkpoint("humanoid", "mesh", t:call("mesh.save", { mesh = h.handle }).bytes)
    t:check(#h.tiles == 1, "Humanoid: one tile")
    check_tiles(t, h, 19.2)
    local s = t:call("build2d.outlines", { settings = { preset = "Small" },
      outlines = { { { 0.5, 0.5 }, { 4.5, 0.5 }, { 4.5, 3 }, { 0.5, 3 } } },
      obstacles = { { { 2, 1.5 }, { 3, 1.5 }, { 2.5, 2.25 } } } })
    t:checkpoint("small", "mesh", t:call("mesh.save", { mesh = s.handle }).bytes)
    t:check(#s.tiles == 1, "Small: one tile")
    local l = t:call("build2d.outlines", { settings = { preset = "Large" },
      outlines = { { { 0, 0 }, { 300, 0 }, { 300, 150 }, { 150, 150 }, { 150, 75 }, { 0, 75 } } },
      obstacles = { { { 60, 20 }, { 100, 20 }, { 100, 50 }, { 60, 50 } } } })
    t:checkpoint("large", "mesh", t:call("mesh.save", { mesh = l.handle }).bytes)
    check_tiles(t, l, 64)
    -- shrunk by 1.5: x 1.5 .. 298.5 (5 columns: lines 64, 128, 192, 256), z 1.5 .. 148.5
    -- (3 rows: lines 64, 128); rows 0 and 1 hold all 5 columns (the lower arm reaches
    -- z 73.5), row 2 (z > 128) only x > 151.5: columns 2, 3, 4. 13 tiles.
    t:check(#l.tiles == 13, "Large: 5 + 5 + 3 tiles")
    t:expect_error("build2d.outlines", { settings = { preset = "Humanoid" },
      outlines = { { { 1, 1 }, { 30, 1 }, { 30, 10 }, { 1, 10 } } } },
      { kind = "argument", field = "tile_line.x", value = "19.2" })
  end,
}
