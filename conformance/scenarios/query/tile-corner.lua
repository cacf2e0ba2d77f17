-- query/tile-corner: a vertex shared by tiles has one world point (QRY-010). The tiling's
-- tile width W = 8 x 0.3 is not a binary32 value: fW = 2.4000000953674316 while W and the
-- next tile's x0 are 2.3999999999999999. Three tiles of one square polygon each form an L
-- around the missing tile (0, 1); a path from tile (0, 0) to tile (1, 1) must bend at the
-- corner shared by the three tiles, and bends there once, at exactly (W, W) (QRY-082). With
-- FMT-007's `x0 + fW` for the side x = fW the two copies of that corner were 9.5e-8 apart and
-- the funnel turned backwards along that segment (four corners). Also: the portal ends on the
-- corner (QRY-063), crossings at both portals (QRY-084), nearest polygon and closest points
-- at the corner (QRY-045, QRY-052), both directions.
local Q = require("query")

local TILING = { origin = { 0, 0, 0 }, cell_size = 0.3, cell_height = 0.5, tile_cells = 8,
                 max_verts_per_poly = 6 }
local FW = string.unpack("<f", string.pack("<f", 8 * 0.3)) -- FMT-008
local W = 0.0 + 1.0 * (8 * 0.3)                              -- FMT-005: x1 of tile 0, x0 of tile 1

local function square(tx, tz)
  return { x = tx, z = tz, layer = 0, tiling = TILING, origin_y = 0,
           verts = { { 0, 0, 0 }, { FW, 0, 0 }, { FW, 0, FW }, { 0, 0, FW } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },
                       area = 0, flags = 1 } } }
end

return {
  title = "Query: one world point for a vertex on a tile corner (funnel around the corner)",
  clauses = { "QRY-010", "QRY-045", "QRY-052", "QRY-061", "QRY-063", "QRY-068", "QRY-082",
              "QRY-083", "QRY-084" },
  run = function(t)
    t:check(FW ~= W, "the tiling's fW differs from W")
    local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 8 }).handle
    local hs = {}
    for _, xz in ipairs({ { 0, 0 }, { 1, 0 }, { 1, 1 } }) do
      hs[#hs + 1] = t:call("tile.create", square(xz[1], xz[2])).handle
      t:call("mesh.add_tile", { mesh = m, tile = hs[#hs] })
    end
    local V = Q.views(t, hs)
    local b = t:table()
    local A, E = { 0.5, 0, 2.0 }, { 2.9, 0, 4.3 }
    for _, ends in ipairs({ { A, E }, { E, A } }) do
      local f = t:call("query.find_path", { mesh = m, start = ends[1], ["end"] = ends[2] })
      t:check(f.status == "found" and #f.path == 3, "around the corner: three polygons")
      Q.put_path(b, f)
      for _, mode in ipairs({ "none", "all" }) do
        local s = t:call("query.straight_path", { mesh = m, start = ends[1], ["end"] = ends[2],
                                                  path = Q.refs(f.path), crossings = mode })
        local k = 0
        for _, c in ipairs(s.corners) do
          if c.point[1] == W and c.point[3] == W then k = k + 1 end
        end
        t:check(#s.corners == 3 and k == 1 and s.corners[2].point[1] == W and s.corners[2].point[3] == W,
                "one bend, at the shared corner (W, W) exactly (crossings " .. mode .. ")")
        Q.check_corners(t, V, f.path, s.corners, "tile corner")
        Q.put_corners(b, s.corners)
      end
    end
    -- the corner from each tile: the same world point
    for _, q in ipairs({ { 0, 0, { 3, 0, 3 } }, { 1, 0, { 2, 0, 3 } }, { 1, 1, { 2, 0, 2 } } }) do
      local p = t:call("mesh.poly_ref", { mesh = m, x = q[1], z = q[2], layer = 0, poly = 0 }).ref
      local c = t:call("query.closest_point", { mesh = m, poly = p, pos = q[3] })
      t:check(not c.over and c.point[1] == W and c.point[3] == W,
              "closest point of tile (" .. q[1] .. ", " .. q[2] .. ") beyond the corner: (W, W)")
      Q.put_point(b, c.point)
    end
    local r = t:call("query.nearest_poly", { mesh = m, center = { 2.41, 0, 2.41 }, half_extents = { 0.1, 1, 0.1 } })
    t:check(r.found and r.poly.id[1] == 1 and r.poly.id[2] == 1, "nearest beyond the corner: tile (1, 1)")
    Q.put_poly(b, r.poly); Q.put_point(b, r.point)
    t:checkpoint("tile corner answers", "table", b:hex())
  end,
}
