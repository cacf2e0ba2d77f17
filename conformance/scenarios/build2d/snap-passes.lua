-- conformance/scenarios/build2d/snap-passes.lua
-- G2D-058's maximum of snap-rounding passes, reached through the host's lowered maximum
-- limits.max_snap_passes (T2D-083): the Slice stage's arrangement may run k passes; a
-- build whose arrangement settles in its k-th pass (the pass whose output equals its
-- input) succeeds with the same mesh as with the default 64, one that needs a (k + 1)-th
-- fails with `limit` naming `passes`, the maximum k as value.
--
-- Two inputs on the 1/4 grid (snap_bits 2), found by trying random triangle pairs against
-- the reference: A's crossings are settled by the first pass and the second confirms it
-- (two passes, the common case of G2D-058's note); in B a piece made by the first pass
-- meets the cell of a hot pixel its segment did not meet, so the second pass changes the
-- list again and the third confirms it.

local S = { preset = "Humanoid", agent_radius = 0, cell_size = 0.25, tile_cells = 16, snap_bits = 2 }
local A = { { { 0, 0 }, { 4, 0 }, { 4, 4 }, { 0, 4 } }, { { 1.1, -1 }, { 3.3, 5.2 }, { 5.1, 2.9 } } }
local B = { { { 1.46, 2.905 }, { 2.04, 2.671 }, { 0.472, 5.159 } },
            { { 5.796, 5.655 }, { 0.943, 0.318 }, { 2.835, 5.124 } } }

local function mesh(t, r) return t:call("mesh.save", { mesh = r.handle }).bytes end

return {
  title = "2D build: the last snap pass and one pass too many (G2D-058, limits.max_snap_passes)",
  clauses = { "G2D-058", "G2D-070", "T2D-083" },
  run = function(t)
    local a = mesh(t, t:call("build2d.outlines", { settings = S, outlines = A }))
    t:checkpoint("A", "mesh", a)
    local a2 = mesh(t, t:call("build2d.outlines", { settings = S, outlines = A, limits = { max_snap_passes = 2 } }))
    t:check(a2 == a, "A settles in its second pass: the same mesh at a maximum of 2")
    t:expect_error("build2d.outlines", { settings = S, outlines = A, limits = { max_snap_passes = 1 } },
                   { kind = "limit", field = "passes", value = "1" })

    local b = mesh(t, t:call("build2d.outlines", { settings = S, outlines = B }))
    t:checkpoint("B", "mesh", b)
    local b3 = mesh(t, t:call("build2d.outlines", { settings = S, outlines = B, limits = { max_snap_passes = 3 } }))
    t:check(b3 == b, "B settles in its third pass: the same mesh at a maximum of 3")
    t:expect_error("build2d.outlines", { settings = S, outlines = B, limits = { max_snap_passes = 2 } },
                   { kind = "limit", field = "passes", value = "2" })
    local b64 = mesh(t, t:call("build2d.outlines", { settings = S, outlines = B, limits = { max_snap_passes = 64 } }))
    t:check(b64 == b, "64 is the default")
    local b0 = mesh(t, t:call("build2d.outlines", { settings = S, outlines = B, limits = { max_snap_passes = 0 } }))
    t:check(b0 == b, "0 keeps the default")

    -- T2D-083: the member's range
    t:expect_error("build2d.outlines", { settings = S, outlines = B, limits = { max_snap_passes = 65 } },
                   { kind = "argument", field = "limits.max_snap_passes", value = "" })
    t:expect_error("build2d.outlines", { settings = S, outlines = B, limits = { max_snap_passes = -1 } },
                   { kind = "argument", field = "limits.max_snap_passes", value = "" })
  end,
}
