-- conformance/scenarios/format/mut-mesh-far-tiles.lua
-- Neighbours at the ends of the signed 32-bit tile range (issue 13). FMT-002 bounds tile
-- coordinates only through FMT-006, so with a tile side W = 1 cell of 2^-12 every x and z
-- of i32 is a valid tile (|x * W| <= 2^19). AddTile looks for neighbours in the four
-- columns beside the tile (MESH-020, MESH-024); a column beside x = 2^31 - 2 is x = 2^31 - 1,
-- the last one, and beside x = -2^31 + 1 the first one, -2^31: both exist and must be
-- searched, while the columns past them (x +- 1 outside i32) do not exist. Four pairs of
-- tiles (on x and on z, at the top and at the bottom of the range; at the top the last
-- column added first, so only the second add's search can find the pair) are added and
-- linked (MESH-021, MESH-022); the checkpoint is the mesh (its links, MESH-043), and the
-- same four pairs placed near the origin give a mesh of the same length (checked): every
-- far pair is linked as a near pair is.
local MAX, MIN = 2147483647, -2147483648
local W = 0.000244140625 -- 2^-12: tile_cells 1 x cell_size 2^-12
local TILING = { origin = { 0, 0, 0 }, cell_size = W, cell_height = 0.25, tile_cells = 1,
                 max_verts_per_poly = 4 }

-- one square polygon over the whole tile; every edge a portal (0x8000 -x, 0x8001 +z,
-- 0x8002 +x, 0x8003 -z: the side codes of meshfix.strips)
local function square(x, z)
  return { x = x, z = z, layer = 0, tiling = TILING, origin_y = 0,
           verts = { { 0, 0, 0 }, { W, 0, 0 }, { W, 0, W }, { 0, 0, W } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },
                       area = 0, flags = 1 } } }
end

local FAR = { { MAX, 0 }, { MAX - 1, 0 }, { MIN, 5 }, { MIN + 1, 5 },
              { 7, MAX }, { 7, MAX - 1 }, { 9, MIN }, { 9, MIN + 1 } }
local NEAR = { { 20, 0 }, { 21, 0 }, { 30, 5 }, { 31, 5 },
               { 7, 40 }, { 7, 41 }, { 9, 50 }, { 9, 51 } }

return {
  title = "Mesh: tiles at both ends of the i32 coordinate range find their neighbours",
  clauses = { "FMT-002", "FMT-006", "MESH-020", "MESH-021", "MESH-022", "MESH-024", "MESH-043" },
  run = function(t)
    local function build(list)
      local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
      for _, p in ipairs(list) do
        t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", square(p[1], p[2])).handle })
      end
      return t:call("mesh.save", { mesh = m }).bytes
    end
    local far, near = build(FAR), build(NEAR)
    t:checkpoint("far", "mesh", far)
    t:check(#far == #near, "the far pairs have as many links as the same pairs near the origin")
    -- a lone tile at each end: no neighbour column outside i32, no link
    local lone = build({ { MAX, MAX }, { MIN, MIN } })
    t:checkpoint("lone", "mesh", lone)
    t:check(#lone < #build({ { 3, 3 }, { 3, 4 } }), "two lone corner tiles have fewer links than two neighbours")
  end,
}
