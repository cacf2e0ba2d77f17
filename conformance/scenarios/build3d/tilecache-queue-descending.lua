-- conformance/scenarios/build3d/tilecache-queue-descending.lua
-- One Update that swaps tiles queued right to left (RT-051: each operation appends its
-- tiles to the queue; RT-065: the swaps go into the mesh in queue order, as one batch whose
-- links are those of ReplaceTile one after another, MESH-012 .. MESH-024). On a small cache
-- (tilecache.lua unit_settings, walled 27 x 8 columns of unit cells, 6 cells a tile: tiles
-- 0 .. 4 in x, 0 .. 1 in z), a box obstacle is added in the middle of tile (3, 0) and then
-- one in the middle of tile (1, 0), so the queue is (3, 0), (1, 0), and one Update swaps
-- both. The tile between them, (2, 0), faces both changed tiles, and its links to each must
-- be recomputed (MESH-021). The mesh is checkpointed, and must equal the mesh of the same
-- obstacles added left to right: the mesh is a function of the set of tiles (MESH-024), not
-- of the order the batch met them in. A port that sorts the batch's changed columns with a
-- comparator calling "x greater" equal (the survivor mesh_batch.c:43 '1' -> '0') keeps
-- them right to left, its binary search misses (1, 0), and tile (2, 0) keeps stale links.
local tc = require("tilecache")

local function box(tx)
  local x = 6 * tx + 2.2
  return { shape = "box", bmin = { x, 5, 1.2 }, bmax = { x + 1.6, 15, 3.8 } }
end

return {
  title = "One Update swaps tiles queued right to left; the mesh equals the left-to-right one",
  clauses = { "RT-051", "RT-060", "RT-065", "MESH-021", "MESH-024" },
  run = function(t)
    local s = tc.unit_settings(t, 6)
    local function mesh_after(order)
      local c = t:call("tilecache.heightfield", { settings = s, columns = tc.walled_columns(27, 8) }).cache
      for _, tx in ipairs(order) do t:call("tilecache.add_obstacle", { cache = c, obstacle = box(tx) }) end
      local u = t:call("tilecache.update", { cache = c })
      local m = t:call("mesh.save", { mesh = c + 1 }).bytes
      t:call("drop", { handle = c })
      return m, u
    end
    local plain = mesh_after({})
    local desc, u = mesh_after({ 3, 1 })
    local asc = mesh_after({ 1, 3 })
    t:check(desc ~= plain, "the obstacles change the mesh")
    t:check(desc == asc, "right to left and left to right give the same mesh")
    t:checkpoint("right-to-left", "mesh", desc)
  end,
}
