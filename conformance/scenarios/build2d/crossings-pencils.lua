-- conformance/scenarios/build2d/crossings-pencils.lua
-- G2D-070's crossing limit reached exactly and exceeded by one, in the arrangement of one
-- outline (G2D-023 stage A arranges each outline alone): 2^22 proper crossings in a pass
-- build; 2^22 + 1 is a limit error naming `crossings` with the value 4194305.
--
-- The count, by hand. A "pencil" (X, L, F) is a zigzag of F long edges, edge i joining
-- (X - L, -i) and (X + L, i) (i = 0 .. F-1, even edges run left to right, odd ones back),
-- consecutive long edges joined by unit edges on x = X + L ([i, i+1], i even) and x = X - L
-- ([-i-1, -i-2], i even); F is even, so a pencil starts at (X - L, 0) and ends at
-- (X - L, -(F - 1)). Every long edge passes through (X, 0), its midpoint, with slope i / L,
-- all different: every two long edges of a pencil cross properly there (G2D-052), C(F, 2)
-- crossings, all at one hot pixel. The unit edges are disjoint and meet long edges only at
-- their ends. Pencils lie apart in x and are joined by paths that run down to y = -3000,
-- across, and up at x = X' - L' - 1 to (X' - L' - 1, 0), one step left of the next start;
-- the last pencil returns along y = -3001 and up at x = X1 - L1 - 2. Those paths meet
-- nothing but their own ends. So one pass finds the sum of C(F, 2):
--   F = 2896, 68, 12:  4191960 + 2278 + 66 = 4194304 = 2^22 (the outline builds);
--   with F = 2 more:   2^22 + 1 (the limit error).
-- Snap rounding: the crossings are the pencils' centres, grid points; the hot pixels are
-- the centres and the vertices, and a long edge of slope i / L with i < L meets no vertex's
-- cell but its own ends; the first pass splits each long edge at its centre, the second
-- (no crossing left) confirms it (G2D-058).

local function pencil(pts, X, L, F)
  for i = 0, F - 1 do
    if i % 2 == 0 then
      pts[#pts + 1] = { X - L, -i }; pts[#pts + 1] = { X + L, i }
    else
      pts[#pts + 1] = { X + L, i }; pts[#pts + 1] = { X - L, -i }
    end
  end
end

local function outline(groups)
  local pts = {}
  for j, g in ipairs(groups) do
    local X, L, F = g[1], g[2], g[3]
    pencil(pts, X, L, F)
    local nxt = groups[j + 1]
    if nxt then
      local sx = nxt[1] - nxt[2]
      pts[#pts + 1] = { X - L, -3000 }; pts[#pts + 1] = { sx - 1, -3000 }
      pts[#pts + 1] = { sx - 1, 0 }
    else
      local fx = groups[1][1] - groups[1][2]
      pts[#pts + 1] = { X - L, -3001 }; pts[#pts + 1] = { fx - 2, -3001 }
      pts[#pts + 1] = { fx - 2, 0 }
    end
  end
  return pts
end

return {
  title = "Arrangement crossings in one outline: 2^22 builds, 2^22 + 1 is a limit error",
  clauses = { "G2D-052", "G2D-058", "G2D-070", "G2D-023", "T2D-020" },
  run = function(t)
    -- SnapBits 0 (grid unit 1 >= CellSize / 256 = 1/16, T2D-020), no shrink, one tile
    -- W = 8192 * 16 = 131072 from (-65536, -65536) holding the outline.
    local settings = { preset = "Large", cell_size = 16, tile_cells = 8192, snap_bits = 0,
                       agent_radius = 0, origin = { -65536, -65536 } }
    local g = { { 0, 4096, 2896 }, { 4234, 128, 68 }, { 4404, 32, 12 } }
    local m = t:call("build2d.outlines", { settings = settings, outlines = { outline(g) } })
    t:check(#m.tiles == 1, "2^22 crossings: the outline builds, one tile")
    t:checkpoint("crossings-2^22", "mesh", t:call("mesh.save", { mesh = m.handle }).bytes)
    g[4] = { 4454, 8, 2 }
    t:expect_error("build2d.outlines", { settings = settings, outlines = { outline(g) } },
                   { kind = "limit", field = "crossings", value = "4194305" })
  end,
}
