-- query/find-path-from-dungeon: QRY-074 on the dungeon level (conformance/lib/query.lua's
-- LEVELS): on 60 PRNG-drawn pairs, FindPathFrom of FindPath's accepted start and end answers
-- FindPath's answer field for field (QRY-074's promise, checked as a property for every port);
-- and FindPathFrom from the drawn points themselves (0.3 above the surface, so not on their
-- polygons) with their nearest polygons in a box of (1, 2, 1), hashed: the node points are the
-- given points (QRY-064, QRY-065, QRY-066 read them).
local Q = require("query")

return {
  title = "Find path from given polygons and points on the dungeon level: = FindPath, points as given",
  clauses = { "QRY-061", "QRY-064", "QRY-065", "QRY-066", "QRY-068", "QRY-069", "QRY-074", "QRY-090" },
  run = function(t)
    local L = Q.LEVELS.dungeon
    local lv = t:call("build3d.soup", { preset = "Humanoid", partition = L.partition,
                                        level = { name = L.name, seed = L.seed, size = L.size } })
    local handles = {}
    for _, ti in ipairs(lv.tiles) do handles[#handles + 1] = ti.tile end
    local V, list = Q.views(t, handles), {}
    for _, ti in ipairs(lv.tiles) do list[#list + 1] = V[ti.x .. "," .. ti.z .. "," .. ti.layer] end
    local g = t:call("prng.new", { seed = "00000000000074a0" }).handle
    local function below(n)
      return tonumber(t:call("prng.below", { prng = g, n = string.format("%016x", n), count = 1 }).values[1], 16)
    end
    local function draw()
      local v = list[below(#list) + 1]
      local k = below(#v.polys)
      local u = t:call("prng.unit", { prng = g, count = 2 }).values
      local c = Q.centre(v, k)
      return { c[1] + (u[1] - 0.5) * 0.5, c[2] + 0.3, c[3] + (u[2] - 0.5) * 0.5 }
    end
    local pr = Q.params(t, lv.mesh)
    local acc = { 2 * pr.tiling.cell_size, pr.walkable_climb + 2 * pr.tiling.cell_height,
                  2 * pr.tiling.cell_size }
    local b2, same, compared, found = t:table(), true, 0, 0
    for _ = 1, 60 do
      local a, e = draw(), draw()
      -- QRY-061's box: find path accepts both endpoints exactly when these find both
      local sa = t:call("query.nearest_poly", { mesh = lv.mesh, center = a, half_extents = acc })
      local se = t:call("query.nearest_poly", { mesh = lv.mesh, center = e, half_extents = acc })
      if sa.found and se.found then
        local r = t:call("query.find_path", { mesh = lv.mesh, start = a, ["end"] = e })
        local f = t:call("query.find_path_from", { mesh = lv.mesh, start_poly = r.start.poly.ref,
                                                   start = r.start.point, end_poly = r["end"].poly.ref,
                                                   ["end"] = r["end"].point })
        compared = compared + 1
        if r.status == "found" then found = found + 1 end
        if not Q.same_path(r, f) then same = false end
      end
      local na = t:call("query.nearest_poly", { mesh = lv.mesh, center = a, half_extents = { 1, 2, 1 } })
      local ne = t:call("query.nearest_poly", { mesh = lv.mesh, center = e, half_extents = { 1, 2, 1 } })
      b2:bool(na.found and ne.found)
      if na.found and ne.found then
        Q.put_path(b2, t:call("query.find_path_from", { mesh = lv.mesh, start_poly = na.poly.ref, start = a,
                                                        end_poly = ne.poly.ref, ["end"] = e }))
      end
    end
    t:check(compared >= 40 and found >= 10, "dungeon: most pairs accepted, some paths found")
    t:check(same, "dungeon: FindPathFrom of FindPath's accepted endpoints is FindPath's answer (QRY-074)")
    t:checkpoint("dungeon", "table", b2:hex())
  end,
}
