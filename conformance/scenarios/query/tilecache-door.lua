-- query/tilecache-door: find path on a tile cache's mesh (build3d-runtime.md) as obstacles
-- come and go (QRY-002: every query sees the mesh as it is): two rooms of a floor 20 x 6
-- joined by a doorway 2.4 wide in a wall at x = 10; a path through the doorway, then the
-- doorway blocked by a cylinder (no path: disconnected, the partial route ends in the first
-- room), then the cylinder removed: the first path again, the same canonical ids.
local soup = require("soups3d").soup
local Q = require("query")

local function box(v, f, x0, y0, z0, x1, y1, z1)
  local b = #v
  for _, p in ipairs({ { x0, y0, z0 }, { x0, y0, z1 }, { x1, y0, z1 }, { x1, y0, z0 },
                       { x0, y1, z0 }, { x0, y1, z1 }, { x1, y1, z1 }, { x1, y1, z0 } }) do
    v[#v + 1] = p
  end
  for _, r in ipairs({ { 0, 1, 5, 4 }, { 1, 2, 6, 5 }, { 2, 3, 7, 6 }, { 3, 0, 4, 7 }, { 4, 5, 6, 7 } }) do
    f[#f + 1] = { b + r[1], b + r[2], b + r[3] }
    f[#f + 1] = { b + r[1], b + r[3], b + r[4] }
  end
end

return {
  title = "Find path on a tile cache's mesh: a doorway open, blocked by an obstacle, open again",
  clauses = { "QRY-002", "QRY-022", "QRY-024", "QRY-061", "QRY-068", "QRY-069" },
  run = function(t)
    local v = { { 0, 0, 0 }, { 0, 0, 6 }, { 20, 0, 6 }, { 20, 0, 0 } }
    local f = { { 0, 1, 2 }, { 0, 2, 3 } }
    box(v, f, 9.7, 0, -0.5, 10.3, 3, 1.8)
    box(v, f, 9.7, 0, 4.2, 10.3, 3, 6.5)
    local r = t:call("tilecache.soup", { preset = "Humanoid", soup = soup(t, v, f) })
    local A, E = { 2, 0, 3 }, { 18, 0, 3 }
    local b = t:table()
    local open = t:call("query.find_path", { mesh = r.mesh, start = A, ["end"] = E })
    t:check(open.status == "found", "the doorway is open: a path")
    Q.put_path(b, open)
    local cyl = t:call("tilecache.add_obstacle", { cache = r.cache, obstacle = {
      shape = "cylinder", center = { 10, -1, 3 }, radius = 1.5, height = 5 } })
    t:call("tilecache.update", { cache = r.cache })
    local shut = t:call("query.find_path", { mesh = r.mesh, start = A, ["end"] = E })
    t:check(shut.status == "no_path" and shut.reason == "disconnected",
            "the doorway blocked: no path, disconnected (QRY-069)")
    local last = shut.partial and shut.partial[#shut.partial]
    t:check(last ~= nil, "a partial route to the best node")
    Q.put_path(b, shut)
    -- a reference from before the rebuild of the doorway's tiles is stale (QRY-022)
    local stale = nil
    for _, p in ipairs(open.path) do
      local ok = true
      for _, q in ipairs(shut.partial) do if q.ref == p.ref then ok = false end end
      if ok then stale = p.ref; break end
    end
    if stale then
      t:expect_error("query.closest_point", { mesh = r.mesh, poly = stale, pos = A },
                     { kind = "argument", field = "poly", value = stale })
    end
    t:call("tilecache.remove_obstacle", { cache = r.cache, id = cyl.id })
    t:call("tilecache.update", { cache = r.cache })
    local again = t:call("query.find_path", { mesh = r.mesh, start = A, ["end"] = E })
    t:check(again.status == "found" and #again.path == #open.path, "the obstacle removed: a path again")
    local same = again.cost == open.cost
    for i, p in ipairs(again.path) do
      for k = 1, 4 do if p.id[k] ~= open.path[i].id[k] then same = false end end
    end
    t:check(same, "the same path (canonical ids and cost) as before the obstacle (QRY-024)")
    Q.put_path(b, again)
    t:checkpoint("door open, shut, open", "table", b:hex())
  end,
}
