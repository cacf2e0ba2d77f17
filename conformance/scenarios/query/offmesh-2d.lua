-- query/offmesh-2d: find path over an off-mesh link defined with a 2D build (build2d-tiles.md
-- T2D-090, connected by QRY-070, traversed by QRY-071). The islands of build2d/offmesh: cell 1,
-- tiles of 4 cells, A = [0, 4] x [0, 4] and B = [6, 10] x [0, 4], the gap x in (4, 6) not
-- walkable; one bidirectional definition (3.5, 0, 2) <-> (6.5, 0, 2) of radius 0.5. Expected by
-- hand: without the definition no route joins A and B (status no_path); with it a route from
-- (1, 0, 2) to (9, 0, 2) exists, crosses the link (a straight-path corner flagged offmesh), and
-- so does the reverse route (the link is bidirectional); a one-way copy of the definition
-- carries A to B but not B to A.
local Q = require("query")

local S = { preset = "Large", cell_size = 1, tile_cells = 4, snap_bits = 0, agent_radius = 0 }
local A = { { 0, 0 }, { 4, 0 }, { 4, 4 }, { 0, 4 } }
local B = { { 6, 0 }, { 10, 0 }, { 10, 4 }, { 6, 4 } }
local PA, PB = { 1, 0, 2 }, { 9, 0, 2 }

local function def(bidirectional)
  return { start = { 3.5, 0, 2 }, ["end"] = { 6.5, 0, 2 }, radius = 0.5,
           bidirectional = bidirectional, area = 0, flags = 1, user_id = 10 }
end

local function offmesh_corners(corners)
  local n = 0
  for _, c in ipairs(corners) do if c.flags == 4 then n = n + 1 end end
  return n
end

return {
  title = "Find path over an off-mesh link of a 2D build, both ways and one way",
  clauses = { "T2D-090", "QRY-070", "QRY-071", "QRY-072" },
  run = function(t)
    local b = t:table()
    local function path(m, s, e)
      local f = t:call("query.find_path", { mesh = m, start = s, ["end"] = e })
      Q.put_path(b, f)
      return f
    end
    local function straight(m, s, e, f)
      local r = t:call("query.straight_path", { mesh = m, start = s, ["end"] = e, path = Q.refs(f.path) })
      Q.put_corners(b, r.corners)
      return r.corners
    end

    local plain = t:call("build2d.outlines", { settings = S, outlines = { A, B } })
    local f0 = path(plain.handle, PA, PB)
    t:check(f0.status == "no_path" and f0.reason == "disconnected",
            "without definitions A and B are disconnected")

    local two = t:call("build2d.outlines", { settings = S, outlines = { A, B }, offmesh = { def(true) } })
    local fp = path(two.handle, PA, PB)
    t:check(fp.status == "found", "A to B over the definition")
    t:check(offmesh_corners(straight(two.handle, PA, PB, fp)) == 2, "two OFFMESH corners, the link's ends")
    local back = path(two.handle, PB, PA)
    t:check(back.status == "found", "B to A over the bidirectional definition")
    t:check(offmesh_corners(straight(two.handle, PB, PA, back)) == 2, "back: two OFFMESH corners")

    local one = t:call("build2d.outlines", { settings = S, outlines = { A, B }, offmesh = { def(false) } })
    local f1 = path(one.handle, PA, PB)
    t:check(f1.status == "found", "A to B over the one-way definition")
    local b1 = path(one.handle, PB, PA)
    t:check(b1.status == "no_path" and b1.reason == "disconnected",
            "B to A: the one-way definition does not carry it")
    t:checkpoint("offmesh-2d answers", "table", b:hex())
  end,
}
