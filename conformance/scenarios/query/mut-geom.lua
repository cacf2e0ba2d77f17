-- query/mut-geom: the geometry of one polygon on its boundary and on a slope, written against
-- the mutation sample of ref/query/ (issue 14); every value by hand from the clauses:
-- 1. QRY-040: the closed polygon: a vertex and an edge point are inside (GetPolyHeight answers
--    inside, ClosestPointOnPoly answers the point itself with over true, QRY-044, QRY-045);
-- 2. QRY-043 step 2: a sloped quad without a detail mesh (y = z / 4 over a 4 x 4 square): the
--    height in each fan triangle is the plane's, not the closest edge's (step 3);
-- 3. ClosestPointOnPolyBoundary (QRY-046) inside and outside, and its position check (QRY-020)
--    before the reference (QRY-022).
local Q = require("query")

return {
  title = "Polygon geometry: the closed boundary, fan heights on a slope, boundary points",
  clauses = { "QRY-020", "QRY-022", "QRY-040", "QRY-041", "QRY-042", "QRY-043", "QRY-044",
              "QRY-045", "QRY-046", "QRY-090", "QRY-092" },
  run = function(t)
    local b = t:table()
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", Q.grid(0, 0, 0, 0, 2)).handle })
    -- the slope: tile (1, 0), one quad, vertices (0,0,0) (4,0,0) (4,1,4) (0,1,4) local
    local slope = { x = 1, z = 0, layer = 0, tiling = Q.TILING, origin_y = 0,
                    verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 1, 4 }, { 0, 1, 4 } },
                    polys = { { verts = { 0, 1, 2, 3 }, neis = { 0, 0, 0, 0 }, area = 0, flags = 1 } } }
    t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", slope).handle })
    local p0 = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 0 }).ref
    local ps = t:call("mesh.poly_ref", { mesh = m, x = 1, z = 0, layer = 0, poly = 0 }).ref

    -- 1. polygon 0 of tile (0, 0) is the square [0, 2] x [0, 2] at y = 0
    for _, xz in ipairs({ { 0, 0 }, { 2, 2 }, { 1, 0 }, { 2, 1.5 }, { 0, 0.25 }, { 1.25, 2 }, { 1, 1 } }) do
      local h = t:call("query.poly_height", { mesh = m, poly = p0, x = xz[1], z = xz[2] })
      b:bool(h.inside)
      t:check(h.inside and h.height == 0, "boundary point " .. xz[1] .. "," .. xz[2] .. " is inside (QRY-040)")
      local c = t:call("query.closest_point", { mesh = m, poly = p0, pos = { xz[1], 0.5, xz[2] } })
      b:bool(c.over); Q.put_point(b, c.point)
      t:check(c.over and c.point[1] == xz[1] and c.point[2] == 0 and c.point[3] == xz[2],
              "closest point of a boundary point: itself, over")
    end
    local h = t:call("query.poly_height", { mesh = m, poly = p0, x = 2.25, z = 1 })
    t:check(not h.inside, "outside by 0.25: not inside")
    local c = t:call("query.closest_point", { mesh = m, poly = p0, pos = { 2.25, 0.5, 1 } })
    t:check(not c.over and c.point[1] == 2 and c.point[3] == 1, "outside: the edge point, not over")

    -- 2. the slope (world x = 4 + local x): first fan triangle (v0, v1, v2) holds z < x,
    -- the second (v0, v2, v3) z > x; the plane is y = z / 4
    for _, xz in ipairs({ { 3, 1 }, { 1, 3 }, { 3.5, 0.5 }, { 0.5, 2 }, { 2, 2 }, { 4, 4 }, { 2.5, 0.25 } }) do
      h = t:call("query.poly_height", { mesh = m, poly = ps, x = 4 + xz[1], z = xz[2] })
      b:bool(h.inside); b:f64(h.height)
      t:check(h.inside and math.abs(h.height - xz[2] / 4) < 1e-12,
              "slope height at " .. xz[1] .. "," .. xz[2] .. ": the plane's (QRY-043 step 2)")
    end
    c = t:call("query.closest_point", { mesh = m, poly = ps, pos = { 7, 5, 1 } })
    b:bool(c.over); Q.put_point(b, c.point)
    t:check(c.over and c.point[1] == 7 and math.abs(c.point[2] - 0.25) < 1e-12, "slope: over, the plane's height")
    c = t:call("query.closest_point", { mesh = m, poly = ps, pos = { 9, 0, 2 } })
    b:bool(c.over); Q.put_point(b, c.point)
    t:check(not c.over and c.point[1] == 8 and c.point[3] == 2 and c.point[2] == 0.5,
            "slope: beyond the edge x = 8: the edge point at height 0.5")

    -- 3. ClosestPointOnPolyBoundary
    local cb = t:call("query.closest_point_boundary", { mesh = m, poly = p0, pos = { 1.5, 3, 0.5 } })
    Q.put_point(b, cb.point)
    t:check(cb.point[1] == 1.5 and cb.point[2] == 0 and cb.point[3] == 0, "boundary: the nearest edge z = 0")
    cb = t:call("query.closest_point_boundary", { mesh = m, poly = ps, pos = { 6, 0, 3.5 } })
    Q.put_point(b, cb.point)
    t:check(cb.point[1] == 6 and cb.point[3] == 4 and cb.point[2] == 1, "boundary on the slope: the top edge, height 1")
    cb = t:call("query.closest_point_boundary", { mesh = m, poly = ps, pos = { 3, 0, 2 } })
    Q.put_point(b, cb.point)
    t:check(cb.point[1] == 4 and cb.point[3] == 2 and cb.point[2] == 0.5, "boundary from outside: the edge x = 4")
    local NAN = 0 / 0
    t:expect_error("query.closest_point_boundary", { mesh = m, poly = p0, pos = { 0, 0, NAN } },
                   { kind = "out_of_range", field = "pos[2]", value = "NaN" })
    t:expect_error("query.closest_point_boundary", { mesh = m, poly = "0000000000000000", pos = { 1 / 0, 0, 0 } },
                   { kind = "out_of_range", field = "pos[0]", value = "Infinity" })
    t:expect_error("query.closest_point_boundary", { mesh = m, poly = "0000000000000000", pos = { 0, 0, 0 } },
                   { kind = "argument", field = "poly", value = "0000000000000000" })
    t:checkpoint("geometry", "table", b:hex())
  end,
}
