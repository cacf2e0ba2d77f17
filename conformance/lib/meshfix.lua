-- meshfix.lua -- tiles and references shared by the format/mesh-* and snapshot-*
-- scenarios (require "meshfix").
--
-- TILING: origin 0, cell 0.5, 8 cells a side, so tile-local x and z run over [0, 4].
-- strips(x, z, layer, origin_y, cuts, flags): a tile cut into strips [z_k, z_k+1] across
--   x in [0, 4]; strip k is polygon k with edges 0 bottom (z = z_k), 1 right (x = 4, portal
--   +x), 2 top, 3 left (x = 0, portal -x); every polygon's flags are `flags`, or k + 1.
-- ref(gen, slot, poly): a polygon reference as 16 hex digits (MESH-010).
local M = {}

M.TILING = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
             max_verts_per_poly = 6 }

function M.strips(x, z, layer, origin_y, cuts, flags)
  local verts, polys, n = {}, {}, #cuts - 1
  for k = 0, n do
    verts[#verts + 1] = { 0, 0, cuts[k + 1] }
    verts[#verts + 1] = { 4, 0, cuts[k + 1] }
  end
  for k = 0, n - 1 do
    polys[#polys + 1] = {
      verts = { 2 * k, 2 * k + 1, 2 * k + 3, 2 * k + 2 },
      neis = { k == 0 and 0x8003 or k, 0x8002, k == n - 1 and 0x8001 or k + 2, 0x8000 },
      area = 0, flags = flags or k + 1,
    }
  end
  return { x = x, z = z, layer = layer, tiling = M.TILING, origin_y = origin_y,
           verts = verts, polys = polys }
end

function M.ref(gen, slot, poly) return string.format("%016x", (gen << 42) | (slot << 20) | poly) end

return M
