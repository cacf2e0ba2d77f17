-- conformance/scenarios/build3d/tilecache-obstacle-edges.lua
-- RT-021's footprint tests include their boundary: a cell whose centre lies exactly on an
-- obstacle's edge is covered. On a small cache (tilecache.lua unit_settings, walled
-- 11 x 11 columns of unit cells, 6 cells a tile, agent radius 0 so the growth g is 0:
-- cell centres at k + 1/2), each case puts one edge exactly on a row or a column of
-- centres: a box's bmin.x, bmax.x, bmin.z and bmax.z, the height range's ends on the floor
-- (y = 10), and a cylinder whose radius reaches a centre exactly (dx^2 + dz^2 = r^2 with
-- dx = 3, dz = 4, r = 5). After Update the mesh is a checkpoint, and each case is checked
-- against the same obstacle moved off the centres by 1/64 (the edge then misses the row or
-- column): the meshes must differ, so the boundary decides. A port testing with < instead
-- of <= fails (the issue-13 survivor obstacles.c:209, `p->x0 <= x` written `<`).
local tc = require("tilecache")

local function box(x0, x1, z0, z1, y0, y1)
  return { shape = "box", bmin = { x0, y0 or 5, z0 }, bmax = { x1, y1 or 15, z1 } }
end

local E = 1 / 64
local CASES = {
  { "box-xmin", box(3.5, 4.9, 2.2, 7.8), box(3.5 + E, 4.9, 2.2, 7.8) },
  { "box-xmax", box(2.1, 4.5, 2.2, 7.8), box(2.1, 4.5 - E, 2.2, 7.8) },
  { "box-zmin", box(2.2, 7.8, 3.5, 4.9), box(2.2, 7.8, 3.5 + E, 4.9) },
  { "box-zmax", box(2.2, 7.8, 2.1, 4.5), box(2.2, 7.8, 2.1, 4.5 - E) },
  { "box-ymin", box(2.2, 7.8, 2.2, 7.8, 10, 15), box(2.2, 7.8, 2.2, 7.8, 10 + E, 15) },
  { "box-ymax", box(2.2, 7.8, 2.2, 7.8, 5, 10), box(2.2, 7.8, 2.2, 7.8, 5, 10 - E) },
  { "cylinder-radius",
    { shape = "cylinder", center = { 1.5, 5, 1.5 }, radius = 5, height = 10 },
    { shape = "cylinder", center = { 1.5, 5, 1.5 }, radius = 5 - E, height = 10 } },
}

return {
  title = "Obstacle footprints and heights include their boundary (RT-021): edges on cell centres",
  clauses = { "RT-020", "RT-021", "RT-022", "RT-060" },
  run = function(t)
    local s = tc.unit_settings(t, 6)
    local function mesh_with(o)
      local c = t:call("tilecache.heightfield", { settings = s, columns = tc.walled_columns(11, 11) }).cache
      t:call("tilecache.add_obstacle", { cache = c, obstacle = o })
      t:call("tilecache.update", { cache = c })
      local m = t:call("mesh.save", { mesh = c + 1 }).bytes
      t:call("drop", { handle = c })
      return m
    end
    for _, k in ipairs(CASES) do
      local on, off = mesh_with(k[2]), mesh_with(k[3])
      t:check(on ~= off, k[1] .. ": the edge on the centres covers one more row or column")
      t:checkpoint(k[1], "mesh", on)
    end
  end,
}
