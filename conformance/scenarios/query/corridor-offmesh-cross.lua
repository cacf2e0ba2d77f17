-- query/corridor-offmesh-cross: a corridor crosses an off-mesh link by MoveOverOffmesh
-- (spec/query-corridor.md QCR-223). query/offmesh's islands (conformance/lib/query.lua's grid,
-- world = local, cells of 1, column 2 missing; row-then-column order, so cell (1, 1) is
-- polygon 4 and cell (3, 1) polygon 5), joined by a link slot from (1.75, 1.5) to (3.25, 1.5),
-- user_id 7. Values derived by hand:
-- - at the corridor's start the head step is linked: no_link, nothing changes;
-- - after moving to (1.5, 1.5), 0.25 from the link's start: radius 0.2499 is too_far, radius
--   0.25 crosses (0.25^2 = 0.0625 is not above 0.0625: the boundary is inclusive); the list
--   loses polygon 4, the position becomes (3.25, 0, 1.5) in polygon 5 (b is inside it, so the
--   head point is b), the target stays; the answer names the link (a, b, flags 1, area 0,
--   user_id 7); the corners then end at the target with no OFFMESH flag, and a second call
--   answers no_link;
-- - a bidirectional slot is crossed back from polygon 5 (its reverse connection: a = (3.25,
--   1.5), b = (1.75, 1.5)) with radius 0 from exactly a;
-- - the distance on both axes: 0.3125 off by (0.1875, 0.25) crosses with radius 0.3125 and not
--   0.3124, in a corridor at its capacity (max_path 2);
-- - no_link for a one-polygon list (radius 2^22 accepted) and for a linked step that a
--   connection also joins (a full grid with a slot from polygon 5 down to polygon 1, the target
--   of polygon 5's first link);
-- - errors: radius -1 and 2^22 + 1 (out_of_range `radius`), an empty corridor (`corridor`
--   `empty`), a stale c[1] (argument `path[1]`; after a Reset to one polygon it is not read),
--   a stale head after the tile is removed and added again (argument `path[0]`).
local Q = require("query")
local C = require("query_corridor")

local GAP = { ["2,0"] = true, ["2,1"] = true, ["2,2"] = true, ["2,3"] = true }

return {
  title = "Path corridor over an off-mesh link: MoveOverOffmesh, its radius boundary, both directions, errors",
  clauses = { "QCR-202", "QCR-203", "QCR-223", "QCR-231", "QCR-290", "QCR-291", "QCR-292", "QRY-070", "QRY-072" },
  run = function(t)
    local function islands(bidir)
      local d = Q.grid(0, 0, 0, 0, 4, GAP)
      d.offmesh = { { start = { 1.75, 0, 1.5 }, ["end"] = { 3.25, 0, 1.5 }, radius = 0.25, flags = 1,
                      area = 0, bidirectional = bidir, user_id = 7 } }
      local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 8 }).handle
      local h = t:call("tile.create", d).handle
      t:call("mesh.add_tile", { mesh = m, tile = h })
      return m, h
    end
    local function ref(m, k) return t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = k }).ref end
    local b = t:table()
    local m, tile = islands(false)
    local A, E = { 0.5, 0, 1.5 }, { 3.5, 0, 0.5 }
    local fp = t:call("query.find_path", { mesh = m, start = A, ["end"] = E })
    t:check(fp.status == "found", "a path over the link")
    local c = t:call("corridor.create", {}).handle
    t:expect_error("corridor.move_over_offmesh", { corridor = c, mesh = m, radius = 1 },
                   { kind = "argument", field = "corridor", value = "empty" })
    local s = t:call("corridor.set", { corridor = c, mesh = m, start = A, ["end"] = E, path = Q.refs(fp.path) })
    local n0 = #s.path
    local r = t:call("corridor.move_over_offmesh", { corridor = c, mesh = m, radius = 100 })
    t:check(r.status == "no_link" and r.link == nil and #r.path == n0 and r.position[1] == 0.5,
            "the head step is linked: no_link, nothing changes")
    for _, bad in ipairs({ -1, 4194305 }) do
      t:expect_error("corridor.move_over_offmesh", { corridor = c, mesh = m, radius = bad },
                     { kind = "out_of_range", field = "radius" })
    end
    -- walk to (1.5, 1.5): polygon 4 becomes the head
    s = t:call("corridor.move_position", { corridor = c, mesh = m, pos = { 1.5, 0, 1.5 } })
    C.put_state(b, s)
    t:check(s.path[1].id[4] == 4 and s.position[1] == 1.5 and s.position[3] == 1.5, "at (1.5, 1.5) in polygon 4")
    local fc = t:call("corridor.find_corners", { corridor = c, mesh = m })
    C.put_corners(b, fc)
    t:check(fc.corners[#fc.corners].flags == 4 and fc.corners[#fc.corners].point[1] == 1.75,
            "the corners end at the link's start")
    r = t:call("corridor.move_over_offmesh", { corridor = c, mesh = m, radius = 0.2499 })
    t:check(r.status == "too_far" and #r.path == #s.path and r.position[1] == 1.5, "0.25 away, radius 0.2499: too_far")
    r = t:call("corridor.move_over_offmesh", { corridor = c, mesh = m, radius = 0.25 })
    C.put_state(b, r)
    t:check(r.status == "crossed" and #r.path == #s.path - 1 and r.path[1].id[4] == 5 and
            r.position[1] == 3.25 and r.position[2] == 0 and r.position[3] == 1.5 and
            r.target[1] == s.target[1] and r.target[3] == s.target[3],
            "radius 0.25: crossed, polygon 4 dropped, the position at (3.25, 0, 1.5) in polygon 5")
    local L = r.link
    t:check(L and L.start[1] == 1.75 and L.start[3] == 1.5 and L["end"][1] == 3.25 and L["end"][3] == 1.5 and
            L.flags == 1 and L.area == 0 and L.user_id == 7, "the link: a, b, flags 1, area 0, user_id 7")
    fc = t:call("corridor.find_corners", { corridor = c, mesh = m })
    C.put_corners(b, fc)
    local last = fc.corners[#fc.corners]
    t:check(last.flags == 2, "beyond the link the corners run to the end")
    for _, k in ipairs(fc.corners) do t:check(k.flags & 4 == 0, "no OFFMESH corner after the crossing") end
    r = t:call("corridor.move_over_offmesh", { corridor = c, mesh = m, radius = 100 })
    t:check(r.status == "no_link", "after the crossing: no_link")

    -- the reverse connection of a bidirectional slot, from exactly its start, radius 0
    local m2 = islands(true)
    local c2 = t:call("corridor.create", {}).handle
    t:call("corridor.set", { corridor = c2, mesh = m2, start = { 3.25, 0, 1.5 }, ["end"] = { 0.5, 0, 1.5 },
                             path = { ref(m2, 5), ref(m2, 4), ref(m2, 3) } })
    r = t:call("corridor.move_over_offmesh", { corridor = c2, mesh = m2, radius = 0 })
    C.put_state(b, r)
    t:check(r.status == "crossed" and r.link.start[1] == 3.25 and r.link["end"][1] == 1.75 and
            r.link.user_id == 7 and r.path[1].id[4] == 4 and #r.path == 2 and r.position[1] == 1.75,
            "bidirectional: crossed back from (3.25, 1.5) to (1.75, 1.5)")

    -- the plane distance uses both axes: from (1.5625, 1.75), 0.1875 and 0.25 off the link's
    -- start (a 3-4-5 triangle, every value exact): radius 0.3124 is too_far, 0.3125 crosses; the
    -- corridor holds exactly its capacity (max_path 2, n = 2), so the crossing moves one entry
    local c4 = t:call("corridor.create", { max_path = 2 }).handle
    t:call("corridor.set", { corridor = c4, mesh = m, start = { 1.5625, 0, 1.75 }, ["end"] = { 3.5, 0, 1.5 },
                             path = { ref(m, 4), ref(m, 5) } })
    r = t:call("corridor.move_over_offmesh", { corridor = c4, mesh = m, radius = 0.3124 })
    t:check(r.status == "too_far", "0.3125 away (dx 0.1875, dz 0.25), radius 0.3124: too_far")
    r = t:call("corridor.move_over_offmesh", { corridor = c4, mesh = m, radius = 0.3125 })
    C.put_state(b, r)
    t:check(r.status == "crossed" and #r.path == 1 and r.path[1].id[4] == 5, "radius 0.3125: crossed, n 2 -> 1")
    -- one polygon left: no_link although polygon 4 has a connection; radius 2^22 is valid
    local c5 = t:call("corridor.create", {}).handle
    t:call("corridor.reset", { corridor = c5, mesh = m, poly = ref(m, 4), pos = { 1.75, 0, 1.5 } })
    r = t:call("corridor.move_over_offmesh", { corridor = c5, mesh = m, radius = 4194304 })
    t:check(r.status == "no_link" and #r.path == 1, "a one-polygon list: no_link, radius 2^22 accepted")
    -- a linked step is no off-mesh step even when a connection joins the same two polygons
    local full = Q.grid(0, 0, 0, 0, 4)
    full.offmesh = { { start = { 1.5, 0, 1.5 }, ["end"] = { 1.5, 0, 0.5 }, radius = 0.25, flags = 1,
                       area = 0, bidirectional = false, user_id = 9 } }
    local mf = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    t:call("mesh.add_tile", { mesh = mf, tile = t:call("tile.create", full).handle })
    local function fref(k) return t:call("mesh.poly_ref", { mesh = mf, x = 0, z = 0, layer = 0, poly = k }).ref end
    local c6 = t:call("corridor.create", {}).handle
    t:call("corridor.set", { corridor = c6, mesh = mf, start = { 1.5, 0, 1.5 }, ["end"] = { 1.5, 0, 0.5 },
                             path = { fref(5), fref(1) } })
    r = t:call("corridor.move_over_offmesh", { corridor = c6, mesh = mf, radius = 1 })
    t:check(r.status == "no_link" and #r.path == 2, "polygons 5 and 1 linked (its first link, across edge 0): no_link despite the connection")

    -- a stale c[1]: a second tile (1, 0) east of the islands, the corridor across the border,
    -- then that tile removed and added again; and after a Reset the stale entry beyond n is not read
    local mt = islands(false)
    local east = t:call("tile.create", Q.grid(1, 0, 0, 0, 4)).handle
    t:call("mesh.add_tile", { mesh = mt, tile = east })
    local a5 = t:call("mesh.poly_ref", { mesh = mt, x = 0, z = 0, layer = 0, poly = 5 }).ref
    local e4 = t:call("mesh.poly_ref", { mesh = mt, x = 1, z = 0, layer = 0, poly = 4 }).ref
    local c7 = t:call("corridor.create", {}).handle
    t:call("corridor.set", { corridor = c7, mesh = mt, start = { 3.5, 0, 1.5 }, ["end"] = { 4.5, 0, 1.5 },
                             path = { a5, e4 } })
    t:call("mesh.remove_tile", { mesh = mt, x = 1, z = 0, layer = 0 })
    t:call("mesh.add_tile", { mesh = mt, tile = east })
    t:expect_error("corridor.move_over_offmesh", { corridor = c7, mesh = mt, radius = 1 },
                   { kind = "argument", field = "path[1]", value = e4 })
    t:call("corridor.reset", { corridor = c7, mesh = mt, poly = a5, pos = { 3.5, 0, 1.5 } })
    r = t:call("corridor.move_over_offmesh", { corridor = c7, mesh = mt, radius = 1 })
    t:check(r.status == "no_link", "after Reset: one polygon, no_link")

    -- two slots from polygon 4 to polygon 5: the head link is the first connection (slot 0,
    -- starting at (1.25, 1.5)), not the nearest (slot 1, starting at the position itself)
    local two = Q.grid(0, 0, 0, 0, 4, GAP)
    two.offmesh = { { start = { 1.25, 0, 1.5 }, ["end"] = { 3.25, 0, 1.5 }, radius = 0.25, flags = 1,
                      area = 0, bidirectional = false, user_id = 20 },
                    { start = { 1.75, 0, 1.5 }, ["end"] = { 3.75, 0, 1.5 }, radius = 0.25, flags = 1,
                      area = 0, bidirectional = false, user_id = 21 } }
    local m2s = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    t:call("mesh.add_tile", { mesh = m2s, tile = t:call("tile.create", two).handle })
    local function tref(k) return t:call("mesh.poly_ref", { mesh = m2s, x = 0, z = 0, layer = 0, poly = k }).ref end
    local c8 = t:call("corridor.create", {}).handle
    t:call("corridor.set", { corridor = c8, mesh = m2s, start = { 1.75, 0, 1.5 }, ["end"] = { 3.75, 0, 1.5 },
                             path = { tref(4), tref(5) } })
    r = t:call("corridor.move_over_offmesh", { corridor = c8, mesh = m2s, radius = 0 })
    t:check(r.status == "too_far", "at slot 1's start, radius 0: too_far, since the head link is slot 0's")
    r = t:call("corridor.move_over_offmesh", { corridor = c8, mesh = m2s, radius = 0.5 })
    t:check(r.status == "crossed" and r.link.user_id == 20 and r.link.start[1] == 1.25 and
            r.position[1] == 3.25, "radius 0.5: crossed by slot 0, to (3.25, 1.5)")

    -- a stale head: the tile removed and added again (generation 2)
    local old = ref(m, 5)
    t:call("mesh.remove_tile", { mesh = m, x = 0, z = 0, layer = 0 })
    t:call("mesh.add_tile", { mesh = m, tile = tile })
    t:expect_error("corridor.move_over_offmesh", { corridor = c, mesh = m, radius = 1 },
                   { kind = "argument", field = "path[0]", value = old })
    t:checkpoint("crossing", "table", b:hex())
  end,
}
