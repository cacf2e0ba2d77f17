-- query/mut-nearest: nearest-polygon cases where the order in which a port looks at the
-- polygons must not matter (QRY-052: the answer is defined over all polygons), written
-- against the mutation sample of ref/query/ (issue 14); expected values by hand from
-- QRY-013, QRY-045, QRY-051, QRY-052 (grid meshes of conformance/lib/query.lua: unit cells,
-- tile-local [0, 4], world = local + 4 * tile x or z):
-- 1. the nearest polygon comes after a farther one in canonical order, with a polygon between
--    them (in that order) that is farther than both;
-- 2. two layers over one spot: the upper one nearer, the lower one first in canonical order;
-- 3. an exact tie between a polygon over which the centre lies (distance: the vertical only)
--    and a higher neighbouring tile's polygon reached sideways: the smaller canonical id wins
--    although the other is the one a bounding-box distance puts first;
-- 4. boxes across tile columns: the tiles left and right of the centre, and a far one;
-- 5. a filter that excludes the nearest polygon (QRY-031);
-- 6. a polygon whose box meets the search box while its closest point lies outside it.
local Q = require("query")

local function id(x, z, l, p) return { x, z, l, p } end

return {
  title = "Nearest polygon: canonical order against distance order, layers, exact ties, filters",
  clauses = { "QRY-031", "QRY-045", "QRY-050", "QRY-051", "QRY-052", "QRY-090" },
  run = function(t)
    local function same_id(p, w) return p.id[1] == w[1] and p.id[2] == w[2] and p.id[3] == w[3] and
                                         p.id[4] == w[4] end
    local function new_mesh(n)
      return t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = n or 16 }).handle
    end
    local function add(m, desc)
      t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", desc).handle })
    end
    local b = t:table()
    local function near(m, c, h, filter)
      local r = t:call("query.nearest_poly", { mesh = m, center = c, half_extents = h, filter = filter })
      b:bool(r.found)
      if r.found then Q.put_poly(b, r.poly); Q.put_point(b, r.point) end
      return r
    end

    -- 1. cells (0,0) = polygon 0, (3,0) = 1, (0,1) = 2 only. The centre (0.5, 0, 1.1) is over
    -- polygon 2 (distance 0); polygon 0 is 0.1 away, polygon 1 (x in [3, 4]) 2.5 away.
    local holes = {}
    for i = 0, 3 do for j = 0, 3 do holes[i .. "," .. j] = true end end
    holes["0,0"], holes["3,0"], holes["0,1"] = nil, nil, nil
    local m1 = new_mesh()
    add(m1, Q.grid(0, 0, 0, 0, 4, holes))
    local r = near(m1, { 0.5, 0, 1.1 }, { 3.5, 1, 1 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 2)) and r.point[1] == 0.5 and r.point[3] == 1.1,
            "case 1: polygon 2, the one under the centre, after nearer-in-order 0 and far 1")
    r = near(m1, { 0.5, 0, 0.9 }, { 3.5, 1, 1 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 0)), "case 1: polygon 0 under the centre")
    r = near(m1, { 2.5, 0, 0.5 }, { 1.75, 1, 1 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 1)) and r.point[1] == 3 and r.point[3] == 0.5,
            "case 1: polygon 1 (0.5 away) before polygon 0 (1.5 away) and 2")
    r = near(m1, { 2.5, 0, 1.5 }, { 1.75, 1, 1 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 1)) and r.point[1] == 3 and r.point[3] == 1,
            "case 1: polygon 1's corner (0.5, 0.5 away) before polygon 2's edge (1.5)")

    -- 2. layers 0 (y = 0) and 1 (y = 2) over the same tile; centre at y = 1.6
    local m2 = new_mesh()
    add(m2, Q.grid(0, 0, 0, 0, 2))
    add(m2, Q.grid(0, 0, 1, 2, 2))
    r = near(m2, { 1, 1.6, 1 }, { 0.5, 2, 0.5 })
    t:check(r.found and same_id(r.poly, id(0, 0, 1, 0)) and r.point[2] == 2,
            "case 2: the upper layer, 0.4 away, over the lower, 1.6 away")
    r = near(m2, { 3, 0.4, 3 }, { 0.5, 2, 0.5 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 3)) and r.point[2] == 0,
            "case 2: the lower layer, 0.4 away")
    r = near(m2, { 3, 1, 3 }, { 0.5, 2, 0.5 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 3)), "case 2: equally far: the lower layer's smaller id")

    -- 3. tile (0,0) at y = 0.5, tile (1,0) at y = 0 (climb 0.5: linked); the centre (4.5, 0.5,
    -- 0.5) is 0.5 above polygon 0 of tile (1,0) and 0.5 beside polygon 3 of tile (0,0): 0.25 both
    local m3 = new_mesh()
    add(m3, Q.grid(0, 0, 0, 0.5, 4))
    add(m3, Q.grid(1, 0, 0, 0, 4))
    r = near(m3, { 4.5, 0.5, 0.5 }, { 1, 1, 1 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 3)) and r.point[1] == 4 and r.point[2] == 0.5,
            "case 3: the exact tie goes to tile (0, 0), reached sideways")
    r = near(m3, { 4.5, 0.49, 0.5 }, { 1, 1, 1 })
    t:check(r.found and same_id(r.poly, id(1, 0, 0, 0)), "case 3: slightly lower: tile (1, 0)")
    r = near(m3, { 3.5, 0, 0.5 }, { 1, 1, 1 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 3)) and r.point[1] == 3.5 and r.point[2] == 0.5,
            "case 3: 0.5 under tile (0, 0), 0.5 beside tile (1, 0): the tie, tile (0, 0) again")

    -- 4. a row of tiles x = -2 .. 2 (world x in [-8, 12]); polygons of columns 0 and 3 only
    local m4 = new_mesh()
    local cols = {}
    for i = 0, 3 do for j = 0, 3 do cols[i .. "," .. j] = (i == 1 or i == 2) or nil end end
    for tx = -2, 2 do add(m4, Q.grid(tx, 0, 0, 0.25 * (tx + 2), 4, cols)) end
    for _, c in ipairs({ { -4.2, 0.5, 1.5 }, { -3.8, 0.5, 1.5 }, { 0.2, 0.75, 2.5 }, { -0.2, 0.25, 2.5 },
                         { 7.5, 1, 0.5 }, { 8.6, 1, 0.5 }, { -9, 0, 0.5 }, { 12.9, 1, 3.5 },
                         { 2, 0.5, 2.5 }, { -6, 0.25, 2 } }) do
      r = near(m4, c, { 1.25, 1, 1 })
    end
    r = near(m4, { -4.2, 0, 1.5 }, { 1.25, 1, 1 })
    t:check(r.found and same_id(r.poly, id(-2, 0, 0, 3)), "case 4: left of the column line x = -4")
    r = near(m4, { -3.8, 0.5, 1.5 }, { 1.25, 1, 1 })
    t:check(r.found and same_id(r.poly, id(-1, 0, 0, 2)), "case 4: right of it")
    r = near(m4, { 2, 0.5, 2.5 }, { 0.75, 1, 1 })
    t:check(not r.found, "case 4: in a gap wider than the box")
    r = near(m4, { 2, 0.5, 2.5 }, { 1.25, 1, 1 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 4)), "case 4: a wider box reaches both sides; the tie to the smaller id")
    r = near(m4, { 12.9, 1, 3.5 }, { 1.25, 1, 1 })
    t:check(r.found and same_id(r.poly, id(2, 0, 0, 7)), "case 4: past the last tile")

    -- 5. filters: polygon 2 excluded (flags 2), then only flags 2 included
    local m5 = new_mesh()
    add(m5, Q.grid(0, 0, 0, 0, 4, holes, { flags = function(i, j) return (i == 0 and j == 1) and 2 or 1 end }))
    r = near(m5, { 0.5, 0, 1.1 }, { 3.5, 1, 1 }, { exclude = 2 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 0)) and r.point[3] == 1, "case 5: excluded: the next nearest")
    r = near(m5, { 0.5, 0, 0.5 }, { 3.5, 1, 1 }, { include = 2 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 2)) and r.point[3] == 1, "case 5: only flags 2")
    r = near(m5, { 3.5, 0, 0.5 }, { 0.5, 1, 0.5 }, { include = 2 })
    t:check(not r.found, "case 5: the only polygon in the box does not pass")
    -- 6. a triangle whose box meets the search box but whose closest point to the centre is
    -- outside it in x only (QRY-051: every coordinate of the point is checked)
    local m6 = new_mesh()
    add(m6, { x = 0, z = 0, layer = 0, tiling = Q.TILING, origin_y = 0,
              verts = { { 2, 0, 1 }, { 3.5, 0, 1 }, { 1.375, 0, 3.875 } },
              polys = { { verts = { 0, 1, 2 }, neis = { 0, 0, 0 }, area = 0, flags = 1 } } })
    r = near(m6, { 1, 0, 1 }, { 0.5, 1, 0.5 })
    t:check(not r.found, "case 6: the closest point (x 1.96) is outside the box (x <= 1.5)")
    r = near(m6, { 1, 0, 1 }, { 1, 1, 0.5 })
    t:check(r.found and same_id(r.poly, id(0, 0, 0, 0)), "case 6: a wider box takes it")
    r = near(m6, { 2.5, 0, 0.2 }, { 1, 0.5, 0.5 })
    t:check(not r.found, "case 6: beside its lowest edge, out of reach")
    t:checkpoint("nearest", "table", b:hex())
  end,
}
