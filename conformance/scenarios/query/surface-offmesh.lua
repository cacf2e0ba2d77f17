-- query/surface-offmesh: the surface queries read links only, never off-mesh connections
-- (spec/query-surface.md QSF-102). The islands of query/offmesh (conformance/lib/query.lua's
-- grid, world = local, cells of 1, column 2 missing; polygons in row-then-column order, so
-- cell (1, 1) is polygon 4 and cell (3, 1) polygon 5), joined by a bidirectional link slot
-- from (1.75, 1.5) in polygon 4 to (3.25, 1.5) in polygon 5. Expected by hand:
-- - find path from island A to island B crosses the link (QRY-071), so the connection exists;
-- - a raycast from (1.5, 1.5) in polygon 4 toward (3.5, 1.5) hits the wall x = 2 at t = 0.25,
--   edge 1 (the right edge), normal (-1, 0, 0), visiting polygon 4 alone;
-- - a move along the same segment stops at (2, 0, 1.5) in polygon 4, visiting polygon 4 alone;
-- - distance to wall from (3.25, 1.5) in polygon 5 with radius 3: 0.25 at (3, 0, 1.5), and at
--   most the 4 polygons of island B are searched;
-- - every answer of raycast, move, polygons in a box, random point and distance to wall is the
--   same on the same islands without the slot (hashed once, compared for each query).
local Q = require("query")
local S = require("query_surface")

local GAP = { ["2,0"] = true, ["2,1"] = true, ["2,2"] = true, ["2,3"] = true }

return {
  title = "Surface queries never cross an off-mesh link: raycast, move, box, random point, wall",
  clauses = { "QSF-102", "QSF-103", "QSF-106", "QSF-110", "QSF-116", "QRY-070", "QRY-071" },
  run = function(t)
    local function islands(slots)
      local d = Q.grid(0, 0, 0, 0, 4, GAP)
      if slots then d.offmesh = slots end
      local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
      t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", d).handle })
      return m
    end
    local slot = { start = { 1.75, 0, 1.5 }, ["end"] = { 3.25, 0, 1.5 }, radius = 0.25, flags = 1,
                   area = 0, bidirectional = true, user_id = 7 }
    local ml, m0 = islands({ slot }), islands(nil)
    local function ref(m, k) return t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = k }).ref end

    local fp = t:call("query.find_path", { mesh = ml, start = { 0.5, 0, 1.5 }, ["end"] = { 3.5, 0, 1.5 } })
    t:check(fp.status == "found", "find path crosses the link (the connection exists)")
    local f0 = t:call("query.find_path", { mesh = m0, start = { 0.5, 0, 1.5 }, ["end"] = { 3.5, 0, 1.5 } })
    t:check(f0.status == "no_path", "without the slot the islands are disconnected")

    local b = t:table()
    local function both(op, args_of, put)
      local rl = t:call(op, args_of(ml))
      local r0 = t:call(op, args_of(m0))
      local bl, b0 = t:table(), t:table()
      put(bl, rl)
      put(b0, r0)
      t:check(bl:hex() == b0:hex(), op .. ": the same answer with and without the link slot (QSF-102)")
      put(b, rl)
      return rl
    end
    local s, e = { 1.5, 0, 1.5 }, { 3.5, 0, 1.5 }
    local r = both("query.raycast", function(m) return { mesh = m, poly = ref(m, 4), start = s, ["end"] = e } end,
                   S.put_ray)
    t:check(r.status == "wall" and r.t == 0.25 and r.edge == 1 and r.normal[1] == -1 and r.normal[3] == 0 and
            #r.path == 1 and r.path[1].id[4] == 4, "raycast: the wall x = 2 at t = 0.25, polygon 4 alone")
    local mv = both("query.move_along_surface",
                    function(m) return { mesh = m, poly = ref(m, 4), start = s, ["end"] = e } end, S.put_move)
    t:check(mv.point[1] == 2 and mv.point[2] == 0 and mv.point[3] == 1.5 and mv.poly.id[4] == 4 and
            #mv.visited == 1, "move: stops at (2, 0, 1.5) in polygon 4")
    local w = both("query.distance_to_wall",
                   function(m) return { mesh = m, poly = ref(m, 5), center = { 3.25, 0, 1.5 }, radius = 3 } end,
                   S.put_wall)
    t:check(w.found and w.distance == 0.25 and w.point[1] == 3 and w.point[3] == 1.5 and w.visited <= 4,
            "distance to wall: 0.25 at x = 3, island B alone searched")
    both("query.polys_in_box",
         function(m) return { mesh = m, center = { 2, 0, 2 }, half_extents = { 2, 1, 2 } } end, S.put_box)
    local function prng() return t:call("prng.new", { seed = "00000000000051ab" }).handle end
    both("query.random_point", function(m) return { mesh = m, prng = prng() } end, S.put_random)
    t:checkpoint("surface answers", "table", b:hex())
  end,
}
