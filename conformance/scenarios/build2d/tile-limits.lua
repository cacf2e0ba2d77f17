-- conformance/scenarios/build2d/tile-limits.lua
-- A tile's vertex and polygon limits reached exactly and exceeded by one (build2d-tiles.md
-- T2D-055, navmesh-format.md FMT-030; issue 13, the survivor build2d.c:212, and issue 17:
-- a tile of 65,535 points cost 24 s before the triangulation's randomised insertion order,
-- G2D-205, and costs under a second now). One tile of 4096 cells (Large, cell 16, the unit
-- grid, no shrink), so every input below lies in tile (0, 0):
--   * verts-65535: 16,383 unit squares two units apart (4 kept points and 1 polygon each)
--     and one right triangle of legs 2 (3 points): 65,535 kept points, the most a tile may
--     hold. (A triangle of legs 1 would vanish: its hypotenuse meets the corner (1/2, 1/2 +
--     k) of its own right-angle vertex's cell, G2D-054, and snaps through it.)
--     16,384 squares are 65,536 points: a `limit` error naming `header.nverts` with 65536.
--   * polys-32767: one outline of two zigzag rows, (i, i mod 2) and (i, 64 + i mod 2) for
--     i = 0 .. 26,215, closed at both ends: its partition (MaxVertsPerPoly 6) has 32,767
--     polygons, the most a tile may hold; one unit square more is 32,768, a `limit` error
--     naming `header.npolys`.
-- The two tiles at the limits are checkpointed, and their counts checked through tile.view.
local S = { preset = "Large", cell_size = 16, tile_cells = 4096, snap_bits = 0, agent_radius = 0 }

local function squares(n, out)
  out = out or {}
  for i = 0, n - 1 do
    local x, y = 2 * (i % 128), 200 + 2 * (i // 128)
    out[#out + 1] = { { x, y }, { x + 1, y }, { x + 1, y + 1 }, { x, y + 1 } }
  end
  return out
end

local function zigzag(n)
  local ring = {}
  for i = 0, n do ring[#ring + 1] = { i, i % 2 } end
  for i = n, 0, -1 do ring[#ring + 1] = { i, 64 + i % 2 } end
  return ring
end

local function one_tile(t, r, what)
  t:check(#r.tiles == 1 and r.tiles[1].x == 0 and r.tiles[1].z == 0, what .. ": one tile at (0, 0)")
  return r.tiles[1].handle
end

return {
  title = "A 2D tile of exactly 65,535 points and one of exactly 32,767 polygons; one more of each is a limit error",
  clauses = { "T2D-055", "T2D-042", "FMT-030", "G2D-205" },
  run = function(t)
    local v = squares(16383)
    v[#v + 1] = { { 300, 0 }, { 302, 0 }, { 300, 2 } }
    local tv = one_tile(t, t:call("build2d.outlines", { settings = S, outlines = v }), "verts-65535")
    local view = t:call("tile.view", { tile = tv })
    t:check(#view.verts == 65535 and #view.polys == 16384, "65,535 kept points in 16,384 polygons")
    t:checkpoint("verts-65535", "tile", t:call("tile.save", { tile = tv }).bytes)
    t:expect_error("build2d.outlines", { settings = S, outlines = squares(16384) },
                   { kind = "limit", field = "header.nverts", value = "65536" })

    local z = zigzag(26215)
    local tp = one_tile(t, t:call("build2d.outlines", { settings = S, outlines = { z } }), "polys-32767")
    view = t:call("tile.view", { tile = tp })
    t:check(#view.polys == 32767, "32,767 polygons")
    t:checkpoint("polys-32767", "tile", t:call("tile.save", { tile = tp }).bytes)
    t:expect_error("build2d.outlines", { settings = S, outlines = squares(1, { z }) },
                   { kind = "limit", field = "header.npolys", value = "32768" })
  end,
}
