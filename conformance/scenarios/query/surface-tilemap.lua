-- query/surface-tilemap: PRNG-drawn raycasts and moves along the surface (spec/query-surface.md)
-- on a mesh of the 2D builder (the tile map of query/build2d-tilemap: 40 x 24 cells of 2 with
-- blocked cells and one obstacle, preset Large, tiles of 16 cells).
local Q = require("query")
local S = require("query_surface")

local W, H = 40, 24
local function walkable(col, row)
  if row >= 8 and row <= 15 and col >= 12 and col <= 15 then return false end
  return (col * 7 + row * 3) % 13 ~= 0
end

return S.scenario("tilemap", "Raycast and move along surface on a 2D-built tile map",
  function(t)
    local cells = {}
    for row = 0, H - 1 do
      for col = 0, W - 1 do cells[#cells + 1] = walkable(col, row) and 1 or 0 end
    end
    local r = t:call("build2d.tilemap", {
      settings = { preset = "Large", tile_cells = 16, agent_radius = 0.5 }, width = W, height = H, cells = cells,
      map_origin = { 0, 0 }, map_cell = 2,
      obstacles = { { { 40, 20 }, { 48, 20 }, { 48, 26 }, { 40, 26 } } } })
    local tiles = {}
    for _, ti in ipairs(r.tiles) do
      tiles[#tiles + 1] = { x = ti.x, z = ti.z, layer = 0, tile = ti.handle }
    end
    return { mesh = r.handle, tiles = tiles }
  end, 300, 100, 40)
