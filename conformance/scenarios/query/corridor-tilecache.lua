-- query/corridor-tilecache: a path corridor on a tile cache's mesh (build3d-runtime.md) while
-- an obstacle comes and goes: two rooms of a floor 60 x 6 joined by a doorway 2.4 wide in a
-- wall at x = 30 (as query/tilecache-door, longer: the Humanoid preset's tiles are 19.2 wide,
-- so the doorway's tile is the middle one). The corridor runs through the doorway; a polygon's
-- flags cleared make it `filtered`; the cylinder in the doorway rebuilds the doorway's tiles, so
-- the corridor's part in them is `stale` (MESH-016): is_valid names the first stale index (the
-- first polygon of the list that the mesh no longer has, found independently from
-- query.polys_in_box), find_corners refuses the stale reference, fix keeps the valid prefix,
-- replan finds no path (disconnected) and changes nothing; the cylinder removed, replan finds
-- the way through the doorway again. Last, a corridor whose head is in a rebuilt tile is fixed
-- to a safe polygon (kept 0).
local soup = require("soups3d").soup
local Q = require("query")
local C = require("query_corridor")

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
  title = "A path corridor on a tile cache's mesh: filtered and stale polygons named, fixed, replanned",
  clauses = { "QCR-202", "QCR-210", "QCR-211", "QCR-220", "QCR-221", "QCR-230", "QCR-250",
              "QCR-251", "QCR-252", "QCR-253", "QCR-260", "QCR-290" },
  run = function(t)
    local v = { { 0, 0, 0 }, { 0, 0, 6 }, { 60, 0, 6 }, { 60, 0, 0 } }
    local f = { { 0, 1, 2 }, { 0, 2, 3 } }
    box(v, f, 29.7, 0, -0.5, 30.3, 3, 1.8)
    box(v, f, 29.7, 0, 4.2, 30.3, 3, 6.5)
    local r = t:call("tilecache.soup", { preset = "Humanoid", soup = soup(t, v, f) })
    local M = r.mesh
    local A, E = { 5, 0, 3 }, { 55, 0, 3 }
    local b = t:table()
    local fp = t:call("query.find_path", { mesh = M, start = A, ["end"] = E })
    t:check(fp.status == "found" and #fp.path >= 3, "a path through the doorway")
    local cor = t:call("corridor.create", {}).handle
    local s = t:call("corridor.set", { corridor = cor, mesh = M, start = fp.start.point,
                                        ["end"] = fp["end"].point, path = Q.refs(fp.path) })
    C.put_state(b, s)
    -- two steps toward the doorway
    for _ = 1, 2 do
      local fc = t:call("corridor.find_corners", { corridor = cor, mesh = M })
      C.put_corners(b, fc)
      s = t:call("corridor.move_position", { corridor = cor, mesh = M,
                                              pos = C.toward(s.position, fc.corners[1].point, 1.5) })
      C.put_state(b, s)
    end
    local n = #s.path
    -- a polygon's flags cleared: filtered (QCR-250), restored: valid again
    local k = n >= 3 and 3 or n
    local old = t:call("mesh.get_poly", { mesh = M, ref = s.path[k].ref })
    t:call("mesh.set_poly_flags", { mesh = M, ref = s.path[k].ref, flags = 0 })
    local iv = t:call("corridor.is_valid", { corridor = cor, mesh = M })
    t:check(not iv.valid and iv.index == k - 1 and iv.reason == "filtered",
            "a polygon with flags 0 is filtered, named by its index (QCR-250, QCR-251)")
    b:bool(iv.valid); b:u32(iv.checked); b:u32(iv.index or 0)
    local iv2 = t:call("corridor.is_valid", { corridor = cor, mesh = M, max_look_ahead = k - 1 })
    t:check(iv2.valid and iv2.checked == k - 1, "the look-ahead stops before it (QCR-251)")
    local f1 = t:call("mesh.get_poly", { mesh = M, ref = s.path[1].ref }).flags
    local iv3 = t:call("corridor.is_valid", { corridor = cor, mesh = M, filter = { exclude = f1 } })
    t:check(not iv3.valid and iv3.index == 0 and iv3.reason == "filtered",
            "a filter excluding the head's flags: filtered at index 0 (QCR-250)")
    t:call("mesh.set_poly_flags", { mesh = M, ref = s.path[k].ref, flags = old.flags })
    iv = t:call("corridor.is_valid", { corridor = cor, mesh = M })
    t:check(iv.valid and iv.checked == n, "flags restored: valid")
    -- the doorway blocked: its tiles rebuilt (ReplaceTile, RT-065), their references stale
    local cyl = t:call("tilecache.add_obstacle", { cache = r.cache, obstacle = {
      shape = "cylinder", center = { 30, -1, 3 }, radius = 1.5, height = 5 } })
    t:call("tilecache.update", { cache = r.cache })
    local live = {}
    local all = t:call("query.polys_in_box", { mesh = M, center = { 30, 0, 3 },
                                               half_extents = { 40, 10, 40 }, max_polys = 65536 })
    for _, p in ipairs(all.polys) do live[p.ref] = true end
    local first = nil
    for i, p in ipairs(s.path) do
      if not live[p.ref] then first = i - 1; break end
    end
    t:check(first ~= nil and first > 0, "the corridor's part in the doorway's tiles is stale")
    iv = t:call("corridor.is_valid", { corridor = cor, mesh = M })
    t:check(not iv.valid and iv.reason == "stale" and iv.index == first,
            "is_valid names the first stale polygon (QCR-250, QCR-251)")
    b:bool(iv.valid); b:u32(iv.index or 0); C.put_state(b, iv)
    if first then
      t:expect_error("corridor.find_corners", { corridor = cor, mesh = M },
                     { kind = "argument", field = "path[" .. first .. "]", value = s.path[first + 1].ref })
    end
    local fx = t:call("corridor.fix", { corridor = cor, mesh = M, safe_poly = s.path[1].ref,
                                         safe_pos = s.position })
    t:check(fx.kept == first and #fx.path == first, "fix keeps the valid prefix (QCR-252)")
    t:check(fx.position[1] == s.position[1] and fx.position[3] == s.position[3],
            "fix keeps the position when the head is valid")
    b:u32(fx.kept); C.put_state(b, fx)
    iv = t:call("corridor.is_valid", { corridor = cor, mesh = M })
    t:check(iv.valid, "the fixed corridor is valid")
    local rp = t:call("corridor.replan", { corridor = cor, mesh = M, ["end"] = E })
    t:check(rp.status == "no_path" and rp.reason == "disconnected",
            "the doorway blocked: replan finds no path (QCR-253)")
    t:check(#rp.path == first, "a failed replan changes nothing")
    b:u32(rp.nodes); C.put_state(b, rp)
    -- the cylinder removed: the doorway's tiles rebuilt again, the way open
    t:call("tilecache.remove_obstacle", { cache = r.cache, id = cyl.id })
    t:call("tilecache.update", { cache = r.cache })
    iv = t:call("corridor.is_valid", { corridor = cor, mesh = M })
    b:bool(iv.valid)
    rp = t:call("corridor.replan", { corridor = cor, mesh = M, ["end"] = E })
    t:check(rp.status == "found", "the cylinder removed: replan finds the way again")
    local again = t:call("query.find_path", { mesh = M, start = A, ["end"] = E })
    t:check(rp.path[#rp.path].ref == again["end"].poly.ref, "the replanned list ends at the end's polygon")
    t:check(rp.target[1] == again["end"].point[1] and rp.target[3] == again["end"].point[3],
            "the target is the accepted end point (QCR-253)")
    b:u32(rp.nodes); C.put_state(b, rp)
    local fc = t:call("corridor.find_corners", { corridor = cor, mesh = M, max_corners = 64 })
    C.put_corners(b, fc)
    t:check(#fc.corners >= 1 and fc.corners[#fc.corners].flags & 2 == 2 and not fc.truncated,
            "the corners reach the target")
    -- a head in a rebuilt tile: fix to a safe polygon (kept 0)
    local door = t:call("query.nearest_poly", { mesh = M, center = { 30, 0, 3 }, half_extents = { 1, 2, 1 } })
    local rs = t:call("corridor.reset", { corridor = cor, mesh = M, poly = door.poly.ref, pos = { 30, 0, 3 } })
    C.put_state(b, rs)
    t:call("tilecache.add_obstacle", { cache = r.cache, obstacle = {
      shape = "cylinder", center = { 30, -1, 3 }, radius = 0.5, height = 5 } })
    t:call("tilecache.update", { cache = r.cache })
    iv = t:call("corridor.is_valid", { corridor = cor, mesh = M })
    t:check(not iv.valid and iv.index == 0 and iv.reason == "stale", "the head itself is stale")
    t:expect_error("corridor.move_position", { corridor = cor, mesh = M, pos = A },
                   { kind = "argument", field = "path[0]", value = door.poly.ref })
    local safe = t:call("query.nearest_poly", { mesh = M, center = A, half_extents = { 1, 2, 1 } })
    fx = t:call("corridor.fix", { corridor = cor, mesh = M, safe_poly = safe.poly.ref, safe_pos = A })
    t:check(fx.kept == 0 and #fx.path == 1 and fx.path[1].ref == safe.poly.ref,
            "fix with nothing valid: the safe polygon alone (QCR-252)")
    b:u32(fx.kept); C.put_state(b, fx)
    t:checkpoint("corridor through the doorway: filtered, stale, fixed, replanned", "table", b:hex())
  end,
}
