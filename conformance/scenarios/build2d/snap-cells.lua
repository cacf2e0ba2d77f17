-- conformance/scenarios/build2d/snap-cells.lua
-- Hot-pixel cells met exactly (build2d-geometry.md G2D-054 .. G2D-057) and in-circle
-- signs of large triangles (G2D-202), on inputs whose answers a slip in exact arithmetic
-- changes (issue 13, the seed-1314 survivors of ref/build2d/geometry):
--   * spike: one outline whose bottom edge runs from (-100, 0) to (100, 1), across x = 0,
--     and whose own spike comes down to the vertex (0, 1). The edge passes at y = 1/2 +
--     1/400 at x = 1/2, inside the cell of (0, 1) (x in [-1/2, 1/2] closed, y in (1/2, 3/2)
--     open), so the first pass splits it there (G2D-055, G2D-057) and the outline pinches
--     into two parts touching at (0, 1). A port that measures the edge's length as
--     |q.x + p.x| + |dy| instead of |q.x - p.x| + |dy| in a prefilter (the survivor
--     arrange.c:465; the length is 1 here instead of 201) rejects the pixel.
--   * corner-1 .. 4: an outline with the unit diagonal (0, 2) -> (1, 1) and, one unit below
--     its start, its own vertex (0, 1) (even x, odd y), mirrored in x, in y and in both.
--     The diagonal touches the cell of (0, 1) only at the corner (1/2, 3/2), which belongs
--     to the cell of (0, 2) (both coordinates round there, ties to even): by G2D-054 and
--     G2D-055 the diagonal does not meet (0, 1). A port whose upper bound of the t interval
--     is raised by an open bound beyond it (the survivor arrange.c:176) routes the diagonal
--     through (0, 1). The mirrors put the corner at each parity the rule distinguishes.
--   * star: a 12-gon of radius 300 to 900 m in one tile of 4096 cells (Large, the 1/512
--     grid): its triangles span 2^18 to 2^20 grid units, so each product of the in-circle
--     determinant exceeds 2^64 and the 128 x 128 bit products need their carries (the
--     survivor cdt.c:72, a dropped carry, no longer ends: a timeout).
-- One mesh checkpoint per input.
local S0 = { preset = "Large", cell_size = 16, tile_cells = 16, snap_bits = 0, agent_radius = 0,
             origin = { -512, -512 } }

local function mesh(t, r) return t:call("mesh.save", { mesh = r.handle }).bytes end

return {
  title = "Hot-pixel cells met across x = 0 and at a corner; in-circle signs of 2^20-unit triangles",
  clauses = { "G2D-054", "G2D-055", "G2D-056", "G2D-057", "G2D-202", "T2D-020", "T2D-034" },
  run = function(t)
    local P = { { -100, 0 }, { 100, 1 }, { 100, 50 }, { 1, 50 }, { 0, 1 }, { -1, 50 }, { -100, 50 } }
    t:checkpoint("spike", "mesh", mesh(t, t:call("build2d.outlines", { settings = S0, outlines = { P } })))
    local Q = { { 0, 2 }, { 1, 1 }, { 10, 1 }, { 10, -10 }, { 0, 1 }, { -10, -10 }, { -10, 10 }, { 0, 10 } }
    for k, f in ipairs({ { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } }) do
      local R = {}
      for i, v in ipairs(Q) do R[i] = { v[1] * f[1], v[2] * f[2] } end
      t:checkpoint("corner-" .. k, "mesh", mesh(t, t:call("build2d.outlines", { settings = S0, outlines = { R } })))
    end
    -- 12 corners at radii 300 .. 900 m around (1024, 1024), written out (no libm here)
    local star = { { 1850, 1024 }, { 1662, 1392 }, { 1408, 1690 }, { 1024, 1559 }, { 598, 1761 },
                   { 327, 1426 }, { 532, 1024 }, { 662, 815 }, { 732, 519 }, { 1023, 422 },
                   { 1425, 329 }, { 1744, 608 } }
    local rs = t:call("build2d.outlines", { settings = { preset = "Large", tile_cells = 4096, agent_radius = 0 },
                                            outlines = { star } })
    t:check(#rs.tiles == 1, "the star lies in one tile")
    t:checkpoint("star", "mesh", mesh(t, rs))
  end,
}
