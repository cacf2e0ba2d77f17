-- query_surface.lua -- shared by the query/surface-* scenarios (spec/query-surface.md, QSF;
-- require "query_surface"), on top of conformance/lib/query.lua.
--
-- put_ray, put_move, put_box, put_wall, put_random (b, answer): table encodings of the
--   answers (canonical ids, never references: QRY-024); check_box, check_wall, check_random:
--   their properties (QSF-122, QSF-143, QSF-133).
-- check_ray(t, V, r, start_poly, tag), check_move(t, V, m, start_poly, tag): the properties of
--   QSF-106, QSF-108, QSF-115, QSF-116 (visited polygons linked in order, the first the start
--   polygon, end points inside the polygon named, wall hits on the hit edge).
-- scenario(name, title, build, ncases, batch, nreorder): PRNG-drawn raycasts and moves on the
--   mesh build(t) returns ({mesh, tiles = {{x, z, layer, tile}}}), hashed per batch; the first
--   nreorder cases asked again of the same tiles added in reverse order.
local Q = require("query")
local M = {}

M.STATUS = { ["end"] = 0, wall = 1, limit = 2 }

function M.put_ray(b, r)
  b:u8(M.STATUS[r.status] or 255)
  b:f64(r.t)
  if r.status == "wall" then Q.put_point(b, r.normal); b:u32(r.edge) end
  b:u32(#r.path)
  for _, p in ipairs(r.path) do Q.put_poly(b, p) end
  if r.cost then b:f64(r.cost) end
end

function M.put_move(b, m)
  Q.put_point(b, m.point)
  Q.put_poly(b, m.poly)
  b:u32(#m.visited)
  for _, p in ipairs(m.visited) do Q.put_poly(b, p) end
  b:bool(m.truncated)
end

local function idstr(p) return table.concat(p.id, ",") end

function M.put_box(b, r)
  b:u32(#r.polys)
  for _, p in ipairs(r.polys) do Q.put_poly(b, p) end
  b:bool(r.truncated)
end

function M.put_wall(b, r)
  b:bool(r.found)
  b:f64(r.distance)
  if r.found then Q.put_point(b, r.point); Q.put_point(b, r.normal) end
  b:u32(r.visited)
  b:bool(r.truncated)
end

function M.put_random(b, r)
  b:bool(r.found)
  if r.found then Q.put_poly(b, r.poly); Q.put_point(b, r.point) end
end

local function id_less(a, b)
  for k = 1, 4 do if a.id[k] ~= b.id[k] then return a.id[k] < b.id[k] end end
  return false
end

-- QSF-122: strictly increasing canonical ids; QSF-143: distance, point and normal agree
function M.check_box(t, r, tag)
  local ok = true
  for i = 2, #r.polys do if not id_less(r.polys[i - 1], r.polys[i]) then ok = false end end
  t:check(ok, tag .. ": polygons in a box in canonical-id order (QSF-122)")
end

function M.check_wall(t, r, c, radius, tag)
  local ok = r.distance <= radius
  if r.found then
    local dx, dz = c[1] - r.point[1], c[3] - r.point[3]
    local d = math.sqrt(dx * dx + dz * dz)
    local n2 = r.normal[1] * r.normal[1] + r.normal[3] * r.normal[3]
    ok = ok and math.abs(d - r.distance) < 1e-9 and r.normal[2] == 0 and
         (d == 0 and n2 == 0 or math.abs(n2 - 1) < 1e-12)
  else
    ok = ok and r.distance == radius
  end
  t:check(ok, tag .. ": the wall distance, point and normal agree (QSF-143)")
end

function M.check_random(t, V, r, tag)
  t:check(r.found and M.near_inside(Q.poly_verts(V, r.poly), r.point[1], r.point[3]),
          tag .. ": a random point lies in its polygon (QSF-133)")
end

-- (x, z) within the closed polygon up to 1e-9 of each edge's length (answers are rounded)
function M.near_inside(vs, x, z)
  for j = 1, #vs do
    local a, b = vs[j], vs[j % #vs + 1]
    local ex, ez = b[1] - a[1], b[3] - a[3]
    local len = math.sqrt(ex * ex + ez * ez)
    if ex * (z - a[3]) - ez * (x - a[1]) < -1e-9 * len then return false end
  end
  return true
end

-- plane distance of (x, z) from the line of edge j of polygon vs
local function line_dist(vs, j, x, z)
  local a, b = vs[j + 1], vs[(j + 1) % #vs + 1]
  local ex, ez = b[1] - a[1], b[3] - a[3]
  local len = math.sqrt(ex * ex + ez * ez)
  if len == 0 then return 0 end
  return math.abs(ex * (z - a[3]) - ez * (x - a[1])) / len
end

function M.check_ray(t, V, r, s, e, start_poly, tag)
  t:check(#r.path >= 1 and idstr(r.path[1]) == idstr(start_poly),
          tag .. ": the ray's first polygon is the start polygon (QSF-103)")
  Q.check_adjacent(t, V, r.path, tag .. " ray")
  if r.status == "end" then
    t:check(r.t == 1, tag .. ": an end answer has t = 1 (QSF-106)")
    local vs = Q.poly_verts(V, r.path[#r.path])
    t:check(M.near_inside(vs, e[1], e[3]), tag .. ": the end point is in the last polygon (QSF-103)")
  else
    t:check(r.t >= 0 and r.t <= 1, tag .. ": 0 <= t <= 1 (QSF-105)")
  end
  if r.status == "wall" then
    local x, z = s[1] + (e[1] - s[1]) * r.t, s[3] + (e[3] - s[3]) * r.t
    local vs = Q.poly_verts(V, r.path[#r.path])
    local n = r.normal
    t:check(line_dist(vs, r.edge, x, z) < 1e-6 and math.abs(n[1] * n[1] + n[3] * n[3] - 1) < 1e-12
            and n[2] == 0, tag .. ": the hit point is on the hit edge, the normal a unit (QSF-106)")
  end
end

function M.check_move(t, V, m, start_poly, tag)
  t:check(#m.visited >= 1 and idstr(m.visited[1]) == idstr(start_poly) and
          idstr(m.visited[#m.visited]) == idstr(m.poly),
          tag .. ": the route runs from the start polygon to the end polygon (QSF-116)")
  Q.check_adjacent(t, V, m.visited, tag .. " move")
  local vs = Q.poly_verts(V, m.poly)
  t:check(M.near_inside(vs, m.point[1], m.point[3]), tag .. ": the end point is inside its polygon (QSF-115)")
end

-- equal answers up to references: their table encodings are equal
local function same(t, put, a, b)
  local x, y = t:table(), t:table()
  put(x, a); put(y, b)
  return x:hex() == y:hex()
end
M.same = same

function M.scenario(name, title, build, ncases, batch, nreorder)
  return {
    title = title,
    clauses = { "QRY-001", "QRY-024", "QSF-101", "QSF-102", "QSF-103", "QSF-104", "QSF-105",
                "QSF-106", "QSF-107", "QSF-108", "QSF-110", "QSF-111", "QSF-112", "QSF-113",
                "QSF-114", "QSF-115", "QSF-116", "QSF-120", "QSF-121", "QSF-122", "QSF-130",
                "QSF-131", "QSF-132", "QSF-133", "QSF-140", "QSF-141", "QSF-142", "QSF-143",
                "QSF-190", "QSF-191" },
    run = function(t)
      local r = build(t)
      local handles, list = {}, {}
      for _, ti in ipairs(r.tiles) do handles[#handles + 1] = ti.tile end
      local V = Q.views(t, handles)
      for _, ti in ipairs(r.tiles) do list[#list + 1] = V[ti.x .. "," .. ti.z .. "," .. ti.layer] end
      local before = t:call("mesh.save", { mesh = r.mesh }).bytes
      local g = t:call("prng.new", { seed = "0000000000005a1f" }).handle
      local function below(n)
        return tonumber(t:call("prng.below", { prng = g, n = string.format("%016x", n),
                                               count = 1 }).values[1], 16)
      end
      local asked, nwall, nend = {}, 0, 0
      local function case(b, i)
        local v = list[below(#list) + 1]
        local k = below(#v.polys)
        local u = t:call("prng.unit", { prng = g, count = 4 }).values
        local c = Q.centre(v, k)
        local ref = t:call("mesh.poly_ref", { mesh = r.mesh, x = v.x, z = v.z, layer = v.layer, poly = k }).ref
        local a0 = { mesh = r.mesh, poly = ref, start = c,
                     ["end"] = { c[1] + (u[1] - 0.5) * 2, c[2], c[3] + (u[2] - 0.5) * 2 } }
        local m0 = t:call("query.move_along_surface", a0)
        M.put_move(b, m0)
        local tag = name .. " case " .. i
        M.check_move(t, V, m0, { id = { v.x, v.z, v.layer, k } }, tag .. " (start)")
        local s = m0.point
        local e = { s[1] + (u[3] - 0.5) * 24, s[2] + 0.5, s[3] + (u[4] - 0.5) * 24 }
        if i % 11 == 0 then e = { s[1], s[2], s[3] } end
        local ra = { mesh = r.mesh, poly = m0.poly.ref, start = s, ["end"] = e }
        if i % 2 == 0 then ra.costs = true end
        if i % 5 == 0 then ra.max_visited = 4 end
        local ray = t:call("query.raycast", ra)
        M.put_ray(b, ray)
        M.check_ray(t, V, ray, s, e, m0.poly, tag)
        if ray.status == "wall" then nwall = nwall + 1 elseif ray.status == "end" then nend = nend + 1 end
        local box = t:call("query.polys_in_box", { mesh = r.mesh, center = s, half_extents = { 1.5, 2, 1.5 },
                                                   max_polys = (i % 13 == 0) and 2 or nil })
        M.put_box(b, box)
        M.check_box(t, box, tag)
        local radius = 1 + i % 4
        local wall = t:call("query.distance_to_wall", { mesh = r.mesh, poly = m0.poly.ref, center = s,
                                                        radius = radius, max_visited = (i % 17 == 0) and 3 or nil })
        M.put_wall(b, wall)
        M.check_wall(t, wall, s, radius, tag)
        local ma = { mesh = r.mesh, poly = m0.poly.ref, start = s, ["end"] = e }
        if i % 7 == 0 then ma.max_visited = 8 end
        local mv = t:call("query.move_along_surface", ma)
        M.put_move(b, mv)
        M.check_move(t, V, mv, m0.poly, tag)
        if #asked < nreorder then
          asked[#asked + 1] = { a0 = a0, id0 = { v.x, v.z, v.layer, k }, m0 = m0, ra = ra, ray = ray, ma = ma, mv = mv }
        end
      end
      for first = 1, ncases, batch do
        local b = t:table()
        local last = math.min(ncases, first + batch - 1)
        for i = first, last do case(b, i) end
        t:checkpoint(string.format("%s cases %d-%d", name, first, last), "table", b:hex())
      end
      -- random points (QSF-130 .. QSF-133), asked again of the reordered mesh below
      local rb, points = t:table(), {}
      local rg = t:call("prng.new", { seed = "0000000000005e00" }).handle
      for i = 1, 40 do
        local filter = (i % 4 == 0) and { include = 1 } or nil
        local rp = t:call("query.random_point", { mesh = r.mesh, prng = rg, filter = filter })
        M.put_random(rb, rp)
        M.check_random(t, V, rp, name .. " random " .. i)
        points[i] = { rp = rp, filter = filter }
      end
      t:checkpoint(name .. " random points", "table", rb:hex())
      t:check(nwall >= 1 and nend >= 1, name .. ": some rays hit walls, some reach their end")
      t:check(t:call("mesh.save", { mesh = r.mesh }).bytes == before, name .. ": mesh unchanged (QRY-001)")
      -- the same tiles added in reverse order: other references, the same answers
      local m2 = Q.reordered(t, r.mesh, handles)
      local function ref2(id)
        return t:call("mesh.poly_ref", { mesh = m2, x = id[1], z = id[2], layer = id[3], poly = id[4] }).ref
      end
      local ok = true
      for _, q in ipairs(asked) do
        local a0 = { mesh = m2, poly = ref2(q.id0), start = q.a0.start, ["end"] = q.a0["end"] }
        if not same(t, M.put_move, t:call("query.move_along_surface", a0), q.m0) then ok = false end
        local p = ref2(q.m0.poly.id)
        local ra = { mesh = m2, poly = p, start = q.ra.start, ["end"] = q.ra["end"], costs = q.ra.costs,
                     max_visited = q.ra.max_visited }
        if not same(t, M.put_ray, t:call("query.raycast", ra), q.ray) then ok = false end
        local ma = { mesh = m2, poly = p, start = q.ma.start, ["end"] = q.ma["end"], max_visited = q.ma.max_visited }
        if not same(t, M.put_move, t:call("query.move_along_surface", ma), q.mv) then ok = false end
      end
      local rg2 = t:call("prng.new", { seed = "0000000000005e00" }).handle
      for _, p in ipairs(points) do
        local rp = t:call("query.random_point", { mesh = m2, prng = rg2, filter = p.filter })
        if not same(t, M.put_random, rp, p.rp) then ok = false end
      end
      t:check(ok, name .. ": the same answers with the tiles added in reverse order (QRY-023, QSF-112, QSF-132)")
    end,
  }
end

function M.level_scenario(name, ncases, batch, nreorder)
  local L = Q.LEVELS[name]
  return M.scenario(name, "Raycast and move along surface on the " .. name .. " level",
    function(t)
      local level = { name = L.name, seed = L.seed, size = L.size }
      return t:call("build3d.soup", { preset = "Humanoid", partition = L.partition, level = level })
    end, ncases, batch, nreorder)
end

return M
