-- v0 meshes keep off-mesh link slots in the tile's bytes and connect nothing (MESH-025).
local fx = require("meshfix")
local TILING = fx.TILING

local function square(x, z, offmesh)
  return { x = x, z = z, layer = 0, tiling = TILING, origin_y = 0,
           verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },
                       area = 0, flags = 1 } },
           offmesh = offmesh }
end

return {
  title = "Off-mesh link slots are stored with the tile and make no link in v0",
  clauses = { "MESH-025", "MESH-041", "MESH-043" },
  run = function(t)
    local function mesh(first)
      local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
      t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", first).handle })
      t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", square(1, 0)).handle })
      return t:call("mesh.save", { mesh = m }).bytes
    end
    local link = { start = { 1, 0, 1 }, ["end"] = { 5, 0, 1 }, radius = 0.5, flags = 1, area = 0,
                   bidirectional = true, user_id = 7 }
    local with = mesh(square(0, 0, { link }))
    local without = mesh(square(0, 0, nil))
    -- the only difference is the 36-byte off-mesh record inside tile (0,0,0)'s bytes (and
    -- its tile_length and content id); the link counts stay those of two plain squares
    t:check(#with == #without + 2 * 36, "36 bytes more, no extra link record")
    t:checkpoint("with-offmesh", "mesh", with)
  end,
}
