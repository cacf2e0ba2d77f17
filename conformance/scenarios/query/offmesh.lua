-- query/offmesh: off-mesh links connected by the queries (spec/query.md QRY-070 .. QRY-072,
-- navmesh-mesh.md MESH-025). Tiles of conformance/lib/query.lua (world = local, cells of 1):
-- tile (0, 0) with column 2 missing, so its two islands are joined only by a link slot from
-- polygon (1, 1) to polygon (3, 1); tile (1, 0) 3 higher (beyond twice the climb: not stitched),
-- reached only by a second, bidirectional slot (a ladder). Path found with the link; the link
-- one-way, filtered out by its flags, dearer by its area; the slot's end beyond its radius; the
-- tile replaced without slots (disconnected), then by its view with a slot added (found); the ladder's tile removed and added back (the
-- connections follow the set of tiles); the tiles added in reverse order give the same answers.
local Q = require("query")

local GAP = { ["2,0"] = true, ["2,1"] = true, ["2,2"] = true, ["2,3"] = true }

local function link(sx, sz, ex, ey, ez, bidir, flags, area)
  return { start = { sx, 0, sz }, ["end"] = { ex, ey, ez }, radius = 0.25, flags = flags or 1,
           area = area or 0, bidirectional = bidir or false, user_id = 7 }
end

local function islands(slots)
  local d = Q.grid(0, 0, 0, 0, 4, GAP)
  if #slots > 0 then d.offmesh = slots end
  return d
end

local function ids(list)
  local out = {}
  for i, p in ipairs(list) do out[i] = p.id[4] end
  return table.concat(out, ",")
end

return {
  title = "Query: off-mesh links connected, traversed by find path, OFFMESH corners",
  clauses = { "QRY-062", "QRY-070", "QRY-071", "QRY-072", "QRY-080", "QRY-083", "MESH-025" },
  run = function(t)
    local function new_mesh()
      return t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 8 }).handle
    end
    local b = t:table()
    local A, E = { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }
    local function path(m, s, e, filter)
      local f = t:call("query.find_path", { mesh = m, start = s, ["end"] = e, filter = filter })
      Q.put_path(b, f)
      return f
    end
    local function straight(m, s, e, f, mode)
      local r = t:call("query.straight_path", { mesh = m, start = s, ["end"] = e, path = Q.refs(f.path),
                                                crossings = mode or "none" })
      Q.put_corners(b, r.corners)
      return r.corners
    end

    -- no slot: the islands are disconnected
    local m0 = new_mesh()
    t:call("mesh.add_tile", { mesh = m0, tile = t:call("tile.create", islands({})).handle })
    local f = path(m0, A, E)
    t:check(f.status == "no_path" and f.reason == "disconnected", "no link: disconnected")

    -- one-way link from (1.75, 1.5) in polygon 4 to (3.25, 1.5) in polygon 5
    local m = new_mesh()
    local h1 = t:call("tile.create", islands({ link(1.75, 1.5, 3.25, 0, 1.5) })).handle
    t:call("mesh.add_tile", { mesh = m, tile = h1 })
    f = path(m, A, E)
    t:check(f.status == "found" and ids(f.path):find("4,5,") ~= nil, "the link is crossed: ... 4, 5 ... (QRY-071)")
    local cs = straight(m, A, E, f)
    t:check(#cs == 4 and cs[1].flags == 1 and cs[2].flags == 4 and cs[3].flags == 4 and cs[4].flags == 2,
            "corners START, OFFMESH, OFFMESH, END (QRY-072)")
    t:check(cs[2].point[1] == 1.75 and cs[2].point[3] == 1.5 and cs[3].point[1] == 3.25 and
            cs[2].poly.id[4] == 4 and cs[3].poly.id[4] == 5, "the link's ends, in polygons 4 and 5")
    straight(m, A, E, f, "all")
    local cost1 = f.cost
    -- one way: the reverse is disconnected, and a straight path 5 -> 4 is refused
    local back = path(m, E, A)
    t:check(back.status == "no_path" and back.reason == "disconnected", "one-way link: no way back")
    local p4 = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 4 }).ref
    local p5 = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 5 }).ref
    t:expect_error("query.straight_path", { mesh = m, start = E, ["end"] = A, path = { p5, p4 } },
                   { kind = "argument", field = "path[1]", value = p4 })
    -- the link's area: area 5 costs 3, so the path costs 2 x 1.5 more
    local m2 = new_mesh()
    t:call("mesh.add_tile", { mesh = m2, tile = t:call("tile.create", islands({ link(1.75, 1.5, 3.25, 0, 1.5, false, 2, 5) })).handle })
    local costs = {}
    for i = 1, 64 do costs[i] = 1 end
    costs[6] = 3
    f = path(m2, A, E, { costs = costs })
    t:check(f.status == "found" and math.abs(f.cost - cost1 - 3) < 1e-12, "area 5 at cost 3: 3 more")
    f = path(m2, A, E, { include = 1 })
    t:check(f.status == "no_path", "link flags 2 not included: no path (QRY-071)")
    f = path(m2, A, E, { exclude = 2 })
    t:check(f.status == "no_path", "link flags 2 excluded: no path")
    -- the end beyond the radius (the middle of the gap): no connection
    local m3 = new_mesh()
    t:call("mesh.add_tile", { mesh = m3, tile = t:call("tile.create", islands({ link(1.75, 1.5, 2.5, 0, 1.5) })).handle })
    f = path(m3, A, E)
    t:check(f.status == "no_path", "the end snaps to nothing: disconnected")
    -- the link removed: the tile replaced by one without slots
    t:call("mesh.replace_tile", { mesh = m, tile = t:call("tile.create", islands({})).handle })
    f = path(m, A, E)
    t:check(f.status == "no_path" and f.reason == "disconnected", "link removed: disconnected")
    -- a slot added to the tile the mesh holds: tile.view, offmesh, tile.create (FMT-073), replace
    local v = t:call("tile.view", { tile = t:call("tile.create", islands({})).handle })
    v.offmesh = { link(1.75, 1.5, 3.25, 0, 1.5) }
    local hv = t:call("tile.create", v)
    t:call("mesh.replace_tile", { mesh = m, tile = hv.handle })
    f = path(m, A, E)
    t:check(f.status == "found" and f.cost == cost1, "a slot added by view and create: the same path again")

    -- a bidirectional ladder to tile (1, 0), 3 higher (not stitched), and the gap link back
    local function ladder_tiles()
      return { t:call("tile.create", islands({ link(1.75, 1.5, 3.25, 0, 1.5, true),
                                               link(3.5, 3.5, 4.5, 3, 3.5, true) })).handle,
               t:call("tile.create", Q.grid(1, 0, 0, 3, 4)).handle }
    end
    local hs = ladder_tiles()
    local m4 = new_mesh()
    for _, h in ipairs(hs) do t:call("mesh.add_tile", { mesh = m4, tile = h }) end
    local top = { 7.5, 3, 0.5 }
    f = path(m4, A, top)
    t:check(f.status == "found" and f.path[#f.path].id[1] == 1, "up the ladder to tile (1, 0)")
    cs = straight(m4, A, top, f, "all")
    local n4 = 0
    for _, c in ipairs(cs) do if c.flags == 4 then n4 = n4 + 1 end end
    t:check(n4 == 4, "two links, four OFFMESH corners")
    Q.check_corners(t, Q.views(t, hs), f.path, cs, "offmesh")
    local down = path(m4, top, A)
    t:check(down.status == "found", "bidirectional: down again")
    straight(m4, top, A, down)
    -- the same tiles added in reverse order: the same answers (QRY-070, MESH-024)
    local r4 = Q.reordered(t, m4, hs)
    local f2 = t:call("query.find_path", { mesh = r4, start = A, ["end"] = top })
    t:check(Q.same_path(f, f2), "tiles added in reverse order: the same path")
    -- the ladder's tile removed: its end snaps to nothing; added back: the path again
    t:call("mesh.remove_tile", { mesh = m4, x = 1, z = 0, layer = 0 })
    f = path(m4, A, { 3.5, 0, 3.5 })
    t:check(f.status == "found", "without tile (1, 0): the gap link still works")
    t:call("mesh.add_tile", { mesh = m4, tile = t:call("tile.create", Q.grid(1, 0, 0, 3, 4)).handle })
    f = path(m4, A, top)
    t:check(f.status == "found" and f.path[#f.path].id[1] == 1, "tile (1, 0) back: up the ladder again")
    t:checkpoint("offmesh answers", "table", b:hex())
  end,
}
