-- conformance/scenarios/format/mut-tile-canon.lua
-- Two details of a tile's canonical bytes that no other scenario pins (issue 13):
-- 1. FMT-012: tile.create stores +0 for every -0 it is given, in the off-mesh link slots too
--    (FMT-027: start and end points, each coordinate) and in the detail vertices (FMT-024).
--    A tile given -0 in every one of those coordinates saves to the same bytes as the one
--    given +0 (checked), and tile.view shows +0 (checked by the bits of each value).
-- 2. FMT-043, FMT-051 step 10: a tile whose stored content id is not the hash of the bytes
--    before it is a format error `content_id` whose value is the stored id, as 16 lower-case
--    hex digits of the little-endian u64 in the last 8 bytes (CONF-013: the value text). The
--    expected value is derived here from the corrupted bytes themselves.
-- Checkpoint: the tile given -0 (its bytes, equal to the +0 tile's).
local function bits(x) return string.pack("<d", x) end
local POS0 = bits(0.0)

local function tile(z)
  return {
    x = 0, z = 0, layer = 0, origin_y = 0,
    tiling = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
               max_verts_per_poly = 6 },
    verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
    polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 }, area = 0,
                flags = 1 } },
    detail = { { vert_base = 0, vert_count = 1, tri_base = 0, tri_count = 4 } },
    detail_verts = { { 2, z, 2 } },
    detail_tris = { { 0, 1, 4, 0x01 }, { 1, 2, 4, 0x01 }, { 2, 3, 4, 0x01 }, { 3, 0, 4, 0x01 } },
    offmesh = {
      { start = { z, z, 1 }, ["end"] = { z, z, z }, radius = 0.5, flags = 1, area = 0,
        bidirectional = true, user_id = 1 },
      { start = { 1, z, z }, ["end"] = { 3, z, z }, radius = 0.25, flags = 2, area = 1,
        bidirectional = false, user_id = 2 },
    },
  }
end

return {
  title = "Tile: -0 in off-mesh links and detail vertices is stored as +0; a bad content id names the stored id",
  clauses = { "FMT-012", "FMT-024", "FMT-027", "FMT-043", "FMT-051", "CONF-013" },
  run = function(t)
    local neg = t:call("tile.create", tile(-0.0)).handle
    local pos = t:call("tile.create", tile(0.0)).handle
    local nb = t:call("tile.save", { tile = neg }).bytes
    t:check(nb == t:call("tile.save", { tile = pos }).bytes, "-0 and +0 give the same tile bytes")
    local v = t:call("tile.view", { tile = neg })
    local ok = true
    local function plus0(x) -- a zero must be +0; other values are not looked at
      x = t:num(x)
      if x == 0 and bits(x) ~= POS0 then ok = false end
    end
    plus0(v.detail_verts[1][2])
    for _, l in ipairs(v.offmesh) do
      for k = 1, 3 do plus0(l.start[k]); plus0(l["end"][k]) end
    end
    t:check(ok, "every zero of the view is +0")
    t:checkpoint("tile given -0", "tile", nb)

    -- the content id's last byte changed: the error's value is the stored (wrong) id
    local last = nb:sub(-2)
    local bad = nb:sub(1, -3) .. (last == "00" and "01" or "00")
    local id = {}
    for k = 7, 0, -1 do id[#id + 1] = bad:sub(#bad - 15 + 2 * k, #bad - 14 + 2 * k) end
    t:expect_error("tile.load", { bytes = bad },
                   { kind = "format", field = "content_id", value = table.concat(id) })
  end,
}
