-- Queries on the tiled mesh (spec/query.md, QRY-001 .. QRY-085), written from the text alone:
-- the filter, canonical polygon ids, polygon geometry (inside, closest points, surface height),
-- nearest polygon, find path (A* over polygons) and straight path (the funnel).
--
-- The mesh is mesh.lua's table; links are derived (MESH-024) and come from mesh.links_of,
-- computed once per query and tile (a query changes nothing, QRY-001, so they cannot change
-- during one). Every point is a binary64 world point {x, y, z} (QRY-010).
local mesh = require("mesh")
local P = require("proto")
local fail = P.fail
local vd, vi = P.vdouble, P.vint

local M = {}

local GEN_MAX = (1 << 22) - 1
local LIM = 4194304.0 -- 2^22

local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end

---------------------------------------------------------------------------------------------
-- Numbers (section 2).

-- QRY-012: Dekker's product and MATH-023's growing expansion.
local SPLIT = 134217729.0
local function split(v)
  local t = SPLIT * v
  local hi = t - (t - v)
  return hi, v - hi
end
local function two_prod(p, q)
  local h = p * q
  local ph, pl = split(p)
  local qh, ql = split(q)
  local e = (((ph * qh - h) + ph * ql) + pl * qh) + pl * ql
  return h, e
end
local function tiny0(v) if v > -0x1p-400 and v < 0x1p-400 then return 0.0 end return v end

-- QRY-011: the exact sign of (bx - ax)(cz - az) - (bz - az)(cx - ax).
function M.orient(a, b, c)
  local ax, az, bx, bz, cx, cz = tiny0(a[1]), tiny0(a[3]), tiny0(b[1]), tiny0(b[3]), tiny0(c[1]), tiny0(c[3])
  -- fast filter (informative note of QRY-012): decides only when the bound proves the sign
  local l, r = (bx - ax) * (cz - az), (bz - az) * (cx - ax)
  local det = l - r
  local bound = (math.abs(l) + math.abs(r)) * 3.3306690738754716e-16
  if det > bound then return 1 elseif det < -bound then return -1 end
  local terms = {}
  local function prod(p, q, neg)
    local h, e = two_prod(p, q)
    if neg then h, e = -h, -e end
    terms[#terms + 1] = h; terms[#terms + 1] = e
  end
  prod(bx, cz, false); prod(bx, az, true); prod(ax, cz, true)
  prod(bz, cx, true); prod(bz, ax, false); prod(az, cx, false)
  local e = {}
  for _, q in ipairs(terms) do
    for j = 1, #e do
      local s = q + e[j]
      local bb = s - q
      local err = (q - (s - bb)) + (e[j] - bb)
      q, e[j] = s, err
    end
    e[#e + 1] = q
  end
  for j = #e, 1, -1 do
    if e[j] > 0 then return 1 elseif e[j] < 0 then return -1 end
  end
  return 0
end
local orient = M.orient

-- QRY-013
local function dist2(a, b)
  local dx, dy, dz = b[1] - a[1], b[2] - a[2], b[3] - a[3]
  local s = dx * dx + dy * dy
  return s + dz * dz
end
local function dist(a, b) return math.sqrt(dist2(a, b)) end
local function same_plane(a, b) return a[1] == b[1] and a[3] == b[3] end
M.dist, M.dist2 = dist, dist2

---------------------------------------------------------------------------------------------
-- Polygons of a mesh: a context built once per query.

-- ctx.tiles: the tiles in canonical order (MESH-061); each {slot, gen, e (entry), t (tile)}.
function M.context(m)
  local tiles = {}
  for s, e in pairs(m.slots) do tiles[#tiles + 1] = { slot = s, gen = m.gen[s] or 1, e = e, t = e.tile } end
  table.sort(tiles, function(a, b)
    if a.t.x ~= b.t.x then return a.t.x < b.t.x end
    if a.t.z ~= b.t.z then return a.t.z < b.t.z end
    return a.t.layer < b.t.layer
  end)
  local byslot = {}
  for _, ti in ipairs(tiles) do byslot[ti.slot] = ti end
  return { m = m, tiles = tiles, byslot = byslot, polys = {} }
end

local function make_ref(g, s, p) return (g << 42) | (s << 20) | p end

-- QRY-010: the world point of tile-local (x, y, z) of tile t; local fW is the border line.
local function world(t, x, y, z)
  return { x == t.fW and t.x1 or t.x0 + x, t.origin_y + y, z == t.fW and t.z1 or t.z0 + z }
end
M.world = world

-- The polygon record of (tile info, 0-based index), cached: world vertices (QRY-010), id.
local function poly_of(ctx, ti, pi)
  local key = make_ref(ti.gen, ti.slot, pi)
  local p = ctx.polys[key]
  if p then return p end
  local t = ti.t
  local tp = t.polys[pi + 1]
  local V = {}
  for j, k in ipairs(tp.verts) do
    local q = t.verts[k + 1]
    V[j] = world(t, q[1], q[2], q[3])
  end
  p = { ref = key, ti = ti, index = pi, tp = tp, V = V, id = { t.x, t.z, t.layer, pi } }
  ctx.polys[key] = p
  return p
end
M.poly_of = poly_of

-- QRY-022: resolve a reference as MESH-016 does; field names the argument.
function M.resolve(ctx, ref, field)
  local g, s, pi = (ref >> 42) & GEN_MAX, (ref >> 20) & GEN_MAX, ref & 0xFFFFF
  local ti = ctx.byslot[s]
  if ref == 0 or not ti or ti.gen ~= g or pi >= #ti.t.polys then
    fail("argument", field, P.u64hex(ref), "not a live polygon reference: " .. field .. " = " .. P.u64hex(ref))
  end
  return poly_of(ctx, ti, pi)
end

-- QRY-023: canonical ids compared.
local function id_less(a, b)
  for k = 1, 4 do
    if a[k] ~= b[k] then return a[k] < b[k] end
  end
  return false
end
M.id_less = id_less

-- Current flags and area (MESH-030).
local function flags_of(p) return p.ti.e.flags[p.index + 1] end
local function area_of(p) return p.ti.e.areas[p.index + 1] end

-- The links of polygon p in canonical order (MESH-066), from its tile's links (cached).
local function links_of(ctx, p)
  local ti = p.ti
  if not ti.links then
    local by = {}
    for _, l in ipairs(mesh.links_of(ctx.m, ti.slot)) do
      local list = by[l[1]]
      if not list then list = {}; by[l[1]] = list end
      list[#list + 1] = { poly = l[1], edge = l[2], side = l[3], target_edge = l[4], target = l[5],
                          lo = l[6], hi = l[7] }
    end
    ti.links = by
  end
  return ti.links[p.index] or {}
end
M.links_of = links_of

---------------------------------------------------------------------------------------------
-- The filter (section 4).

function M.default_filter()
  local c = {}
  for i = 1, 64 do c[i] = 1.0 end
  return { include = 0xFFFF, exclude = 0, costs = c }
end

-- QRY-033
function M.check_filter(f)
  for i = 1, 64 do
    local c = f.costs[i]
    if not finite(c) or c < 0 or c > 16777216.0 then fail("out_of_range", "filter.costs[" .. (i - 1) .. "]", vd(c)) end
  end
end

-- QRY-031, QRY-032
local function passes(f, p)
  local fl = flags_of(p)
  return (fl & f.include) ~= 0 and (fl & f.exclude) == 0
end
local function cost_of(f, p) return f.costs[area_of(p) + 1] end
M.passes = passes

---------------------------------------------------------------------------------------------
-- Geometry of one polygon (section 5).

-- QRY-040
local function inside(p, x, z)
  local V, n = p.V, #p.V
  local q = { x, 0.0, z }
  for j = 1, n do
    if orient(V[j], V[j % n + 1], q) < 0 then return false end
  end
  return true
end
M.inside = inside

-- QRY-041: point, edge height and plane distance of edge a -> b to (px, pz).
local function edge_closest(a, b, px, pz)
  local ux, uz = b[1] - a[1], b[3] - a[3]
  local den = ux * ux + uz * uz
  local t
  if den == 0 then t = 0.0 else t = ((px - a[1]) * ux + (pz - a[3]) * uz) / den end
  if t < 0 then t = 0.0 elseif t > 1 then t = 1.0 end
  local qx, qz = a[1] + ux * t, a[3] + uz * t
  local qy = a[2] + (b[2] - a[2]) * t
  local d = (qx - px) * (qx - px) + (qz - pz) * (qz - pz)
  return qx, qy, qz, d
end

M.edge_closest = edge_closest

-- QRY-042: the closest boundary point {x, edge height, z}.
local function boundary_point(p, px, pz)
  local V, n = p.V, #p.V
  local best, bd
  for j = 1, n do
    local qx, qy, qz, d = edge_closest(V[j], V[j % n + 1], px, pz)
    if not bd or d < bd then best, bd = { qx, qy, qz }, d end
  end
  return best
end

-- QRY-043: the height of triangle (a, b, c) at (px, pz), or nil when it does not contain it.
local function tri_height(a, b, c, px, pz)
  local q = { px, 0.0, pz }
  local s1, s2, s3 = orient(a, b, q), orient(b, c, q), orient(c, a, q)
  local pos = s1 > 0 or s2 > 0 or s3 > 0
  local neg = s1 < 0 or s2 < 0 or s3 < 0
  if pos and neg then return nil end
  local den = (b[1] - a[1]) * (c[3] - a[3]) - (b[3] - a[3]) * (c[1] - a[1])
  if den == 0 then return nil end
  local u = ((px - a[1]) * (c[3] - a[3]) - (pz - a[3]) * (c[1] - a[1])) / den
  local w = ((b[1] - a[1]) * (pz - a[3]) - (b[3] - a[3]) * (px - a[1])) / den
  return (a[2] + (b[2] - a[2]) * u) + (c[2] - a[2]) * w
end

function M.surface_height(p, px, pz)
  local t = p.ti.t
  local V, n = p.V, #p.V
  if #t.detail > 0 then
    local d = t.detail[p.index + 1]
    local function dv(k)
      if k < n then return V[k + 1] end
      local q = t.detail_verts[d.vert_base + (k - n) + 1]
      return world(t, q[1], q[2], q[3])
    end
    for ti = d.tri_base, d.tri_base + d.tri_count - 1 do
      local tr = t.detail_tris[ti + 1]
      local h = tri_height(dv(tr[1]), dv(tr[2]), dv(tr[3]), px, pz)
      if h then return h end
    end
  end
  for i = 2, n - 1 do
    local h = tri_height(V[1], V[i], V[i + 1], px, pz)
    if h then return h end
  end
  return boundary_point(p, px, pz)[2]
end
local surface_height = M.surface_height

-- QRY-045: closest point and `over`.
function M.closest_point(p, pos)
  if inside(p, pos[1], pos[3]) then
    return { pos[1], surface_height(p, pos[1], pos[3]), pos[3] }, true
  end
  local q = boundary_point(p, pos[1], pos[3])
  return { q[1], surface_height(p, q[1], q[3]), q[3] }, false
end

-- QRY-046
function M.closest_point_boundary(p, pos)
  local q = boundary_point(p, pos[1], pos[3])
  return { q[1], surface_height(p, q[1], q[3]), q[3] }
end

---------------------------------------------------------------------------------------------
-- Nearest polygon (section 6).

-- QRY-050 .. QRY-052 (arguments already checked): the polygon and point, or nil.
function M.nearest(ctx, c, h, f)
  local lo = { c[1] - h[1], c[2] - h[2], c[3] - h[3] }
  local hi = { c[1] + h[1], c[2] + h[2], c[3] + h[3] }
  local best, bq, bd
  for _, ti in ipairs(ctx.tiles) do
    for pi = 0, #ti.t.polys - 1 do
      local p = poly_of(ctx, ti, pi)
      if passes(f, p) then
        local q = M.closest_point(p, c)
        if lo[1] <= q[1] and q[1] <= hi[1] and lo[2] <= q[2] and q[2] <= hi[2] and lo[3] <= q[3] and q[3] <= hi[3] then
          local d = dist2(c, q)
          if not bd or d < bd or (d == bd and id_less(p.id, best.id)) then best, bq, bd = p, q, d end
        end
      end
    end
  end
  return best, bq
end

---------------------------------------------------------------------------------------------
-- Off-mesh connections (QRY-070): per context, by start polygon reference, in making order.

local function snap(ctx, ti, c, h, best)
  for pi = 0, #ti.t.polys - 1 do
    local p = poly_of(ctx, ti, pi)
    local q = M.closest_point(p, c)
    if c[1] - h[1] <= q[1] and q[1] <= c[1] + h[1] and c[2] - h[2] <= q[2] and q[2] <= c[2] + h[2]
       and c[3] - h[3] <= q[3] and q[3] <= c[3] + h[3] then
      local d = dist2(c, q)
      if not best.p or d < best.d then best.p, best.q, best.d = p, q, d end
    end
  end
end

function M.conns(ctx)
  if ctx.conns then return ctx.conns end
  local by = {}
  local climb = ctx.m.params.climb
  for _, ti in ipairs(ctx.tiles) do
    local t = ti.t
    for _, o in ipairs(t.offmesh or {}) do
      local S = world(t, o.start[1], o.start[2], o.start[3])
      local E = world(t, o["end"][1], o["end"][2], o["end"][3])
      local h = { o.radius, climb, o.radius }
      local a, b = {}, {}
      snap(ctx, ti, S, h, a)
      if a.p then
        for _, tj in ipairs(ctx.tiles) do snap(ctx, tj, E, h, b) end
        if b.p and b.p ~= a.p then
          local function push(f, to, pa, pb)
            local list = by[f.ref] or {}
            by[f.ref] = list
            list[#list + 1] = { from = f, to = to, a = pa, b = pb, flags = o.flags, area = o.area,
                                user_id = o.user_id }
          end
          push(a.p, b.p, a.q, b.q)
          if o.bidir == 1 or o.bidir == true then push(b.p, a.p, b.q, a.q) end
        end
      end
    end
  end
  ctx.conns = by
  return by
end
function M.conns_of(ctx, p) return M.conns(ctx)[p.ref] or {} end

---------------------------------------------------------------------------------------------
-- Find path (section 7).

-- QRY-063: left and right ends of the portal of link l of polygon p.
function M.portal(ctx, p, l)
  local V, n = p.V, #p.V
  local j = l.edge
  local a, b = V[j + 1], V[(j + 1) % n + 1]
  if l.side == 0xFF then return b, a end
  local t = p.ti.t
  local la = t.verts[p.tp.verts[j + 1] + 1]
  local lb = t.verts[p.tp.verts[(j + 1) % n + 1] + 1]
  local along = (l.side == 0 or l.side == 2) and 3 or 1
  local ua, ub = la[along], lb[along]
  local ha, hb = a[2], b[2] -- world heights origin_y + y (MESH-023)
  local function height(u)
    if u == ua then return ha end
    if u == ub then return hb end
    local s = (u - ua) / (ub - ua)
    return ha + (hb - ha) * s
  end
  local function point(u)
    local w = along == 3 and world(t, la[1], 0, u) or world(t, u, 0, la[3])
    w[2] = height(u)
    return w
  end
  local plo, phi = point(l.lo), point(l.hi)
  if ub > ua then return phi, plo end
  return plo, phi
end

local function midpoint(L, R)
  return { (L[1] + R[1]) * 0.5, (L[2] + R[2]) * 0.5, (L[3] + R[3]) * 0.5 }
end

-- QRY-064: the centre of a polygon.
local function centre(p)
  if p.centre then return p.centre end
  local V, n = p.V, #p.V
  local x, y, z = V[1][1], V[1][2], V[1][3]
  for j = 2, n do x, y, z = x + V[j][1], y + V[j][2], z + V[j][3] end
  local nf = n + 0.0
  p.centre = { x / nf, y / nf, z / nf }
  return p.centre
end

M.centre = centre

local H_SCALE = 0x1.ff7ced916872bp-1 -- QRY-066: 0.999

-- QRY-067: the open-list order as a binary heap of entries {f, id, node, version}.
local function before(a, b)
  if a.f ~= b.f then return a.f < b.f end
  return id_less(a.node.p.id, b.node.p.id)
end
local function heap_push(h, x)
  h[#h + 1] = x
  local i = #h
  while i > 1 do
    local up = i // 2
    if before(h[i], h[up]) then h[i], h[up] = h[up], h[i]; i = up else break end
  end
end
local function heap_pop(h)
  local top = h[1]
  local last = h[#h]
  h[#h] = nil
  if #h > 0 then
    h[1] = last
    local i = 1
    while true do
      local l, r, s = 2 * i, 2 * i + 1, i
      if l <= #h and before(h[l], h[s]) then s = l end
      if r <= #h and before(h[r], h[s]) then s = r end
      if s == i then break end
      h[i], h[s] = h[s], h[i]
      i = s
    end
  end
  return top
end

local function route(node, max)
  local list = {}
  while node do list[#list + 1] = node.p; node = node.parent end
  local out = {}
  for i = #list, 1, -1 do out[#out + 1] = list[i] end
  if max and #out > max then
    local cut = {}
    for i = 1, max do cut[i] = out[i] end
    out = cut
  end
  return out
end

-- QRY-068, QRY-069. S, E polygons; sp, ep the accepted points. Returns an answer table:
-- {found = bool, path|partial = {polys}, cost, reason, nodes}.
function M.search(ctx, S, sp, E, ep, f, max_nodes, max_path)
  if S == E then
    return { found = true, path = { S }, cost = dist(sp, ep) * cost_of(f, S), nodes = 1 }
  end
  local nodes, made = {}, {}
  local function point_of(p)
    if p == S then return sp elseif p == E then return ep end
    return centre(p)
  end
  local function new_node(p, g, parent)
    local pt = point_of(p)
    local n = { p = p, g = g, h = dist(pt, ep) * H_SCALE, parent = parent, pt = pt, version = 0, open = true }
    nodes[p.ref] = n
    made[#made + 1] = n
    return n
  end
  local heap = {}
  local function push(n)
    n.version = n.version + 1
    n.open = true
    heap_push(heap, { f = n.g + n.h, node = n, version = n.version })
  end
  local start = new_node(S, 0.0, nil)
  push(start)
  local reason
  while true do
    -- step 3
    local N
    while #heap > 0 do
      local x = heap_pop(heap)
      if x.node.open and x.version == x.node.version then N = x.node; break end
    end
    if not N then reason = "disconnected"; break end
    -- step 4
    N.open = false
    if N.p == E then
      local path = route(N)
      if #path > max_path then
        return { found = false, reason = "path_limit", partial = route(N, max_path), nodes = #made }
      end
      return { found = true, path = path, cost = N.g, nodes = #made }
    end
    -- step 5
    local costN = cost_of(f, N.p)
    for _, l in ipairs(links_of(ctx, N.p)) do
      local B = M.resolve(ctx, l.target, "link")
      if passes(f, B) then
        local L, R = M.portal(ctx, N.p, l)
        local Mp = midpoint(L, R)
        local Bn = nodes[B.ref]
        local PB = Bn and Bn.pt or point_of(B)
        local c = dist(N.pt, Mp) * costN + dist(Mp, PB) * cost_of(f, B)
        local g2 = N.g + c
        if not Bn then
          if #made == max_nodes then reason = "node_limit"; goto done end
          push(new_node(B, g2, N))
        elseif g2 < Bn.g then
          Bn.g, Bn.parent = g2, N
          push(Bn)
        end
      end
    end
    -- QRY-071: the off-mesh edges after the links
    for _, oc in ipairs(M.conns_of(ctx, N.p)) do
      local B = oc.to
      if (oc.flags & f.include) ~= 0 and (oc.flags & f.exclude) == 0 and passes(f, B) then
        local Bn = nodes[B.ref]
        local PB = Bn and Bn.pt or point_of(B)
        local c = dist(N.pt, oc.a) * costN + dist(oc.a, oc.b) * f.costs[oc.area + 1] + dist(oc.b, PB) * cost_of(f, B)
        local g2 = N.g + c
        if not Bn then
          if #made == max_nodes then reason = "node_limit"; goto done end
          push(new_node(B, g2, N))
        elseif g2 < Bn.g then
          Bn.g, Bn.parent = g2, N
          push(Bn)
        end
      end
    end
  end
  ::done::
  local best
  for _, n in ipairs(made) do
    if not best or n.h < best.h or (n.h == best.h and id_less(n.p.id, best.p.id)) then best = n end
  end
  return { found = false, reason = reason, partial = route(best, max_path), nodes = #made }
end

---------------------------------------------------------------------------------------------
-- Straight path (section 8).

-- QRY-081 .. QRY-085. path: list of polygon records (linked, checked); s, t the points.
-- Returns the corner list {point, flags, poly}.
function M.straight(ctx, path, s, t, crossings)
  local n = #path
  local portals, om = {}, {}
  for i = 1, n - 1 do
    local p, q = path[i], path[i + 1]
    for _, l in ipairs(links_of(ctx, p)) do
      if l.target == q.ref then
        local L, R = M.portal(ctx, p, l)
        portals[i - 1] = { L, R }
        break
      end
    end
    if not portals[i - 1] then -- QRY-072: an off-mesh step
      for _, oc in ipairs(M.conns_of(ctx, p)) do
        if oc.to == q then om[i - 1] = oc; portals[i - 1] = { oc.a, oc.a }; break end
      end
    end
  end
  portals[n - 1] = { t, t }
  local corners = {}
  local function add(pt, flags, poly)
    local last = corners[#corners]
    if last and same_plane(last.point, pt) then
      last.point, last.poly, last.flags = pt, poly, last.flags | flags
    else
      corners[#corners + 1] = { point = pt, flags = flags, poly = poly }
    end
  end
  -- QRY-084
  local function add_crossings(A, a, C, k)
    if crossings == "none" then return end
    for j = a + 1, k - 1 do
      local want = crossings == "all" or area_of(path[j + 1]) ~= area_of(path[j + 2])
      if want then
        local L, R = portals[j][1], portals[j][2]
        local ux, uz = C[1] - A[1], C[3] - A[3]
        local vx, vz = R[1] - L[1], R[3] - L[3]
        local wx, wz = A[1] - L[1], A[3] - L[3]
        local den = ux * vz - uz * vx
        if den ~= 0 then
          local tt = (ux * wz - uz * wx) / den
          if tt < 0 then tt = 0.0 elseif tt > 1 then tt = 1.0 end
          add({ L[1] + vx * tt, L[2] + (R[2] - L[2]) * tt, L[3] + vz * tt }, 0, path[j + 2])
        end
      end
    end
  end
  -- QRY-082 on the section of polygons b .. e (0-based), from st to en
  local function funnel(b, e, st, en, fs, fe, pe)
  local function corner(A, a, C, k)
    add_crossings(A, a, C, k)
    local poly = path[math.min(k + 1, e) + 1]
    add(C, 0, poly)
  end
  add(st, fs, path[b + 1])
  local A, a = st, b - 1
  local L, R, l, r = st, st, b - 1, b - 1
  local i = b
  while i <= e do
    local pl, pr = portals[i][1], portals[i][2]
    local restarted = false
    -- step 1
    if orient(A, R, pr) >= 0 then
      if same_plane(A, R) or orient(A, L, pr) < 0 then
        R, r = pr, i
      else
        corner(A, a, L, l)
        A, a = L, l
        L, R, l, r = A, A, a, a
        i = a + 1
        restarted = true
      end
    end
    -- step 2
    if not restarted and orient(A, L, pl) <= 0 then
      if same_plane(A, L) or orient(A, R, pl) > 0 then
        L, l = pl, i
      else
        corner(A, a, R, r)
        A, a = R, r
        L, R, l, r = A, A, a, a
        i = a + 1
        restarted = true
      end
    end
    if not restarted then i = i + 1 end
  end
  -- step 4
  add_crossings(A, a, en, e)
  add(en, fe, path[pe + 1])
  end
  -- QRY-072: the sections between off-mesh steps
  local b, st, fs = 0, s, 1
  for i = 0, n - 1 do
    if i == n - 1 then
      funnel(b, i, st, t, fs, 2, i)
    elseif om[i] then
      funnel(b, i, st, om[i].a, fs, 4, i)
      b, st, fs = i + 1, om[i].b, 4
    end
  end
  return corners
end

return M
