-- query/corridor-offmesh: a path corridor across an off-mesh link (spec/query-corridor.md
-- QCR-211, QCR-231; query.md QRY-070 .. QRY-072). query/offmesh's islands: tile (0, 0) of unit
-- squares with column 2 missing, joined only by a one-way link from (1.75, 1.5) in polygon 4 to
-- (3.25, 1.5) in polygon 7. Set accepts the connected pair; FindCorners stops after the link's
-- start (rule 2), and from a position on the link's start the first corner is that start
-- itself, START and OFFMESH merged, which rule 1 keeps (flags 5). Values derived by hand.
local Q = require("query")
local C = require("query_corridor")

local GAP = { ["2,0"] = true, ["2,1"] = true, ["2,2"] = true, ["2,3"] = true }

return {
  title = "Path corridor across an off-mesh link: set, corners up to the link, a start on the link",
  clauses = { "QCR-211", "QCR-230", "QCR-231" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 8 }).handle
    local d = Q.grid(0, 0, 0, 0, 4, GAP)
    d.offmesh = { { start = { 1.75, 0, 1.5 }, ["end"] = { 3.25, 0, 1.5 }, radius = 0.25, flags = 1,
                    area = 0, bidirectional = false, user_id = 7 } }
    t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", d).handle })
    local b = t:table()
    local A, E = { 0.5, 0, 0.5 }, { 3.5, 0, 0.5 }
    local fp = t:call("query.find_path", { mesh = m, start = A, ["end"] = E })
    t:check(fp.status == "found", "a path over the link")
    local c = t:call("corridor.create", {}).handle
    local s = t:call("corridor.set", { corridor = c, mesh = m, start = A, ["end"] = E, path = Q.refs(fp.path) })
    C.put_state(b, s)
    local fc = t:call("corridor.find_corners", { corridor = c, mesh = m })
    C.put_corners(b, fc)
    local last = fc.corners[#fc.corners]
    t:check(#fc.corners >= 1 and last.flags == 4 and last.point[1] == 1.75 and last.point[3] == 1.5 and
            not fc.truncated, "the corners end at the link's start, flags OFFMESH (rule 2)")
    local sp = t:call("query.straight_path", { mesh = m, start = A, ["end"] = E, path = Q.refs(fp.path) })
    t:check(#sp.corners > #fc.corners + 1, "the straight path goes on beyond the link")
    -- from the link's start: the polygons from 4 on
    local k = 1
    while fp.path[k].id[4] ~= 4 do k = k + 1 end
    local rest = {}
    for i = k, #fp.path do rest[#rest + 1] = fp.path[i].ref end
    s = t:call("corridor.set", { corridor = c, mesh = m, start = { 1.75, 0, 1.5 }, ["end"] = E, path = rest })
    C.put_state(b, s)
    fc = t:call("corridor.find_corners", { corridor = c, mesh = m })
    C.put_corners(b, fc)
    t:check(#fc.corners == 1 and fc.corners[1].flags == 5 and fc.corners[1].point[1] == 1.75,
            "on the link's start: one corner, START and OFFMESH merged, kept (rule 1)")
    t:checkpoint("corridor over a link", "table", b:hex())
  end,
}
