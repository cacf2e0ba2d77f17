-- query/corridor-offmesh-head: which links MoveOverOffmesh reads to decide that the head step
-- c[0] -> c[1] is linked (spec/query-corridor.md QCR-223 rule 1: the step is an off-mesh step
-- only when no link of c[0] targets c[1]), and that a one-polygon list has no head step.
-- query/offmesh's islands (conformance/lib/query.lua's grid, cells of 1, column 2 missing,
-- row-then-column order): polygon 1 is cell (1, 0), polygon 2 cell (3, 0), polygon 5 cell
-- (3, 1). One slot from (1.75, 0.5) in polygon 1 to (3.25, 1.5) in polygon 5, user_id 31.
-- Values derived by hand:
-- - polygon 1's links target polygons 0 and 4 only; the next polygon of the tile's canonical
--   list (MESH-066: by polygon first), polygon 2, has one link, to polygon 5. The step 1 -> 5
--   is therefore an off-mesh step: from (1.5, 0.5), 0.25 from the slot's start, radius 0.25
--   crosses (the boundary is inclusive), the list becomes [5] and the position (3.25, 0, 1.5);
--   radius 0.2499 is too_far;
-- - a corridor of one polygon (polygon 1, at the slot's start) has no head step: no_link,
--   asked right after a two-polygon corridor's too_far answer, and again after a Reset of
--   that corridor to its first polygon.
local Q = require("query")
local C = require("query_corridor")

local GAP = { ["2,0"] = true, ["2,1"] = true, ["2,2"] = true, ["2,3"] = true }

return {
  title = "MoveOverOffmesh reads only c[0]'s own links and no head step of a one-polygon list",
  clauses = { "QCR-223", "QCR-290", "QRY-070", "MESH-066" },
  run = function(t)
    local d = Q.grid(0, 0, 0, 0, 4, GAP)
    d.offmesh = { { start = { 1.75, 0, 0.5 }, ["end"] = { 3.25, 0, 1.5 }, radius = 0.25, flags = 1,
                    area = 0, bidirectional = false, user_id = 31 } }
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    local tile = t:call("tile.create", d).handle
    t:call("mesh.add_tile", { mesh = m, tile = tile })
    local function ref(k) return t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = k }).ref end
    local b = t:table()
    local A, E = { 1.5, 0, 0.5 }, { 3.5, 0, 1.5 }
    local fp = t:call("query.find_path", { mesh = m, start = A, ["end"] = E })
    t:check(fp.status == "found" and #fp.path == 2 and fp.path[1].id[4] == 1 and fp.path[2].id[4] == 5,
            "the path is polygon 1 then, over the slot, polygon 5")

    local c1 = t:call("corridor.create", {}).handle
    t:call("corridor.set", { corridor = c1, mesh = m, start = A, ["end"] = E, path = Q.refs(fp.path) })
    local r = t:call("corridor.move_over_offmesh", { corridor = c1, mesh = m, radius = 0.2499 })
    t:check(r.status == "too_far" and #r.path == 2, "0.25 from the slot's start, radius 0.2499: too_far")
    r = t:call("corridor.move_over_offmesh", { corridor = c1, mesh = m, radius = 0.25 })
    C.put_state(b, r)
    t:check(r.status == "crossed" and #r.path == 1 and r.path[1].id[4] == 5 and r.link.user_id == 31 and
            r.position[1] == 3.25 and r.position[3] == 1.5,
            "radius 0.25: crossed to (3.25, 1.5) in polygon 5, though polygon 2 (next in the list) links to 5")

    -- one polygon: no head step, asked right after a two-polygon corridor's answer
    local one = t:call("corridor.create", {}).handle
    t:call("corridor.reset", { corridor = one, mesh = m, poly = ref(1), pos = { 1.75, 0, 0.5 } })
    local two = t:call("corridor.create", {}).handle
    for round = 1, 3 do
      t:call("corridor.set", { corridor = two, mesh = m, start = A, ["end"] = E, path = Q.refs(fp.path) })
      r = t:call("corridor.move_over_offmesh", { corridor = two, mesh = m, radius = 0 })
      t:check(r.status == "too_far", "round " .. round .. ": the two-polygon corridor, radius 0: too_far")
      r = t:call("corridor.move_over_offmesh", { corridor = one, mesh = m, radius = 1 })
      C.put_state(b, r)
      t:check(r.status == "no_link" and #r.path == 1 and r.position[1] == 1.75,
              "round " .. round .. ": one polygon at the slot's start, radius 1: no_link")
    end
    t:call("corridor.reset", { corridor = two, mesh = m, poly = ref(1), pos = { 1.75, 0, 0.5 } })
    r = t:call("corridor.move_over_offmesh", { corridor = two, mesh = m, radius = 1 })
    C.put_state(b, r)
    t:check(r.status == "no_link" and #r.path == 1, "after Reset to polygon 1: no_link")
    t:checkpoint("offmesh head", "table", b:hex())
  end,
}
