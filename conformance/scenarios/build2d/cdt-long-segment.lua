-- conformance/scenarios/build2d/cdt-long-segment.lua
-- One boundary segment crossed by many Delaunay edges (G2D-204): two combs face each other
-- across the segment (0, 0)-(100, 0), the upper one's teeth at y = 0.25 / 0.5 above it,
-- the lower one's at -0.25 / -0.5 below, one unit apart. The Delaunay triangulation joins
-- the teeth across the segment, so inserting it removes some two hundred triangles and
-- retriangulates the two pseudo-polygons of about a hundred points each (the lists of the
-- insertion grow past their first 64 entries twice). One tile (cell 1, 512 cells a side:
-- origin (-10, -10): no cut line meets the combs), so the segment is inserted whole.

local function combs(len)
  len = len or 100
  local up = { { 0, 0 }, { len, 0 } }
  for x = len - 1, 1, -1 do up[#up + 1] = { x, x % 2 == 1 and 0.25 or 0.5 } end
  local lo = {}
  for x = 1, len - 1 do lo[#lo + 1] = { x, x % 2 == 1 and -0.25 or -0.5 } end
  lo[#lo + 1] = { len, -1 }
  lo[#lo + 1] = { 0, -1 }
  return { up, lo }
end

return {
  title = "CDT: a segment crossed by two hundred Delaunay edges (G2D-204)",
  clauses = { "G2D-203", "G2D-204", "G2D-206", "G2D-207", "T2D-035" },
  run = function(t)
    local s = { preset = "Humanoid", agent_radius = 0, cell_size = 1, tile_cells = 512, origin = { -10, -10 } }
    local m = t:call("build2d.outlines", { settings = s, outlines = combs() })
    t:check(#m.tiles == 1, "one tile")
    t:checkpoint("combs", "mesh", t:call("mesh.save", { mesh = m.handle }).bytes)
    -- the same combs as obstacles cut from a box: the segment is a hole's boundary
    local box = { { { -1, -2 }, { 101, -2 }, { 101, 2 }, { -1, 2 } } }
    local h = t:call("build2d.outlines", { settings = s, outlines = box, obstacles = combs() })
    t:checkpoint("combs-as-holes", "mesh", t:call("mesh.save", { mesh = h.handle }).bytes)
    -- 1000 teeth a side (cell 4, one tile of 2048): the insertion's lists grow to 2048
    local big = { preset = "Humanoid", agent_radius = 0, cell_size = 4, tile_cells = 512, origin = { -10, -10 } }
    local k = t:call("build2d.outlines", { settings = big, outlines = combs(1000) })
    t:check(#k.tiles == 1, "one tile of the long combs")
    t:checkpoint("long-combs", "mesh", t:call("mesh.save", { mesh = k.handle }).bytes)
  end,
}
