-- FMT-012: a section that wants a canonical +0 says so: tile.create replaces every -0.0 it
-- is given by +0.0 (moved from math/signed-zeros, which keeps the math part, MATH-011). The
-- tile given with -0 everywhere saves to the same bytes as the one given with +0.
local function bits(x) return string.pack("<d", x) end
local POS0 = bits(0.0)

local function quad(z)
  return {
    x = 0, z = 0, layer = 0, origin_y = z,
    tiling = { origin = { z, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8, max_verts_per_poly = 6 },
    verts = { { z, z, z }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
    polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 }, area = 0, flags = 1 } } }
end

return {
  title = "Signed zeros in a tile: tile.create stores +0 where -0 was given",
  clauses = { "FMT-012" },
  run = function(t)
    local neg = t:call("tile.create", quad(-0.0)).handle
    local v = t:call("tile.view", { tile = neg })
    t:check(bits(t:num(v.origin_y)) == POS0 and bits(t:num(v.tiling.origin[1])) == POS0
            and bits(t:num(v.verts[1][1])) == POS0 and bits(t:num(v.verts[1][2])) == POS0,
            "the tile stores +0 where -0 was given (FMT-012)")
    local pos = t:call("tile.create", quad(0.0)).handle
    local nb = t:call("tile.save", { tile = neg }).bytes
    t:check(nb == t:call("tile.save", { tile = pos }).bytes, "-0 and +0 give the same tile bytes")
    t:checkpoint("tile given -0", "tile", nb)
  end,
}
