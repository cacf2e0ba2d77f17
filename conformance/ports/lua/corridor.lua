-- The path corridor of spec/query-corridor.md (QCR-201 .. QCR-253), written from the text
-- alone, and the one query of spec/query-surface.md it needs here: MoveAlongSurface
-- (QSF-110 .. QSF-116). Raycast (QSF-103 .. QSF-107), and so OptimizeVisibility (QCR-240),
-- is not ported. A list entry is {ref = u64, id = {x, z, layer, index}}: the reference and
-- the canonical id it had when it entered the list (QCR-201).
local Q = require("query")
local P = require("proto")
local fail = P.fail

local M = {}

local function entry(p) return { ref = p.ref, id = { p.id[1], p.id[2], p.id[3], p.id[4] } } end
M.entry = entry

-- QSF-115's rule: (x, z) made inside P; y P's surface height there.
local FS = { 0x1p-40, 0x1p-30, 0x1p-20, 0x1p-10, 0.5 }
local function make_inside(p, x, z)
  if not Q.inside(p, x, z) then
    local C = Q.centre(p)
    local found = false
    for _, f in ipairs(FS) do
      local nx, nz = x + (C[1] - x) * f, z + (C[3] - z) * f
      if Q.inside(p, nx, nz) then x, z, found = nx, nz, true; break end
    end
    if not found then x, z = p.V[1][1], p.V[1][3] end
  end
  return { x, Q.surface_height(p, x, z), z }
end
M.make_inside = make_inside

-- QCR-203: the head point of P from pos.
function M.head_point(p, pos)
  local q = Q.closest_point(p, pos)
  return make_inside(p, q[1], q[3])
end

-- QCR-204: keep the first max_path entries; true when cut.
local function cut(list, max_path)
  if #list <= max_path then return list, false end
  local out = {}
  for i = 1, max_path do out[i] = list[i] end
  return out, true
end
M.cut = cut

-- The position in V (a list of entries) of reference r, least index (1-based), or nil.
local function find_in(V, r)
  for k = 1, #V do if V[k].ref == r then return k end end
  return nil
end

-- QCR-221: merge the route V (V[1] = c[1]) into the head. Returns list, truncated.
function M.merge_head(c, V, max_path)
  local i, j
  for k = #c, 1, -1 do
    j = find_in(V, c[k].ref)
    if j then i = k; break end
  end
  local out = {}
  for k = #V, j, -1 do out[#out + 1] = V[k] end
  for k = i + 1, #c do out[#out + 1] = c[k] end
  return cut(out, max_path)
end

-- QCR-222: merge the route V (V[1] = c[n]) into the tail. Returns list, truncated.
function M.merge_tail(c, V, max_path)
  local i, j
  for k = 1, #c do
    j = find_in(V, c[k].ref)
    if j then i = k; break end
  end
  local out = {}
  for k = 1, i do out[#out + 1] = c[k] end
  for k = j + 1, #V do out[#out + 1] = V[k] end
  return cut(out, max_path)
end

-- QCR-242: splice a route V starting at c[1]. Returns list, spliced, truncated.
function M.splice(c, V, max_path)
  local i, j
  for k = #c, 1, -1 do
    j = find_in(V, c[k].ref)
    if j then i = k; break end
  end
  if j == nil or j == 1 then return c, false, false end
  local out = {}
  for k = 1, j - 1 do out[#out + 1] = V[k] end
  for k = i, #c do out[#out + 1] = c[k] end
  local l, t = cut(out, max_path)
  return l, true, t
end

-- QCR-250: nil when entry e is valid, else its reason.
function M.invalid(ctx, e, f)
  local ok, p = pcall(Q.resolve, ctx, e.ref, "x")
  if not ok then
    if type(p) == "table" and p.kind then return "stale" end
    error(p, 0)
  end
  if not Q.passes(f, p) then return "filtered" end
  return nil
end

-- QCR-251: the first invalid index (1-based) among the first N, with its reason.
function M.first_invalid(ctx, c, N, f)
  for k = 1, N do
    local r = M.invalid(ctx, c[k], f)
    if r then return k, r end
  end
  return nil
end

-- QSF-110 .. QSF-116 (arguments checked by the caller): MoveAlongSurface from polygon record
-- p0 at `start` toward `goal`. Returns the end point, its polygon record, the visited route
-- (records, node 0 first) and `truncated`.
function M.move_along_surface(ctx, p0, S, E, f, max_visited)
  local mx, mz = (S[1] + E[1]) * 0.5, (S[3] + E[3]) * 0.5
  local dx, dz = E[1] - S[1], E[3] - S[3]
  local r = math.sqrt(dx * dx + dz * dz) * 0.5 + 0x1p-10
  local r2 = r * r
  local nodes = { { p = p0, parent = nil } }
  local has = { [p0.ref] = true }
  local truncated = false
  local bx, bz, bnode, bd = S[1], S[3], 1, math.huge
  local reached
  local i = 1
  while i <= #nodes do
    local nd = nodes[i]
    local p = nd.p
    if Q.inside(p, E[1], E[3]) then reached = i; break end
    local V, n = p.V, #p.V
    local open = {} -- open links by edge (QSF-102), canonical order kept
    for _, l in ipairs(Q.links_of(ctx, p)) do
      local B = Q.resolve(ctx, l.target, "link")
      if Q.passes(f, B) then
        local e = open[l.edge]
        if not e then e = {}; open[l.edge] = e end
        e[#e + 1] = { l = l, B = B }
      end
    end
    for j = 0, n - 1 do
      local e = open[j]
      if not e then -- a wall: QSF-114
        local qx, _, qz, d = Q.edge_closest(V[j + 1], V[(j + 1) % n + 1], E[1], E[3])
        if d < bd then bx, bz, bnode, bd = qx, qz, i, d end
      else
        for _, x in ipairs(e) do -- QSF-113
          local L, R = Q.portal(ctx, p, x.l)
          local _, _, _, d = Q.edge_closest(R, L, mx, mz)
          if not (d > r2) and not has[x.B.ref] then
            if #nodes == max_visited then
              truncated = true
            else
              nodes[#nodes + 1] = { p = x.B, parent = i }
              has[x.B.ref] = true
            end
          end
        end
      end
    end
    i = i + 1
  end
  local ni, pt
  if reached then
    ni = reached
    local p = nodes[ni].p
    pt = { E[1], Q.surface_height(p, E[1], E[3]), E[3] }
  else
    ni = bnode
    pt = make_inside(nodes[ni].p, bx, bz)
  end
  local chain = {}
  local k = ni
  while k do chain[#chain + 1] = nodes[k].p; k = nodes[k].parent end
  local route = {}
  for a = #chain, 1, -1 do route[#route + 1] = chain[a] end
  return pt, nodes[ni].p, route, truncated
end

-- QSF-103 .. QSF-105 (arguments checked by the caller): the walk of Raycast from polygon
-- record p0, S inside it, toward E. Returns the status (`end`, `wall`, `limit`) and the
-- visited list (records). The parameter t is not needed by the corridor (QCR-240 uses the
-- status and the list only), so it is not computed.
function M.raycast_walk(ctx, p0, S, E, f, max_visited)
  local orient = Q.orient
  local visited = { p0 }
  local p = p0
  while true do
    if Q.inside(p, E[1], E[3]) then return "end", visited end
    local V, n = p.V, #p.V
    local s = {}
    for k = 1, n do s[k] = orient(S, E, V[k]) end
    local first, second = {}, {}
    for j = 0, n - 1 do
      local a, b = V[j + 1], V[(j + 1) % n + 1]
      local sj, sj1 = s[j + 1], s[(j + 1) % n + 1]
      if sj <= 0 and sj1 >= 0 and orient(a, b, E) < 0 then
        if sj1 > 0 then first[#first + 1] = j else second[#second + 1] = j end
      end
    end
    for _, j in ipairs(second) do first[#first + 1] = j end
    local nextp
    for _, j in ipairs(first) do
      for _, l in ipairs(Q.links_of(ctx, p)) do
        if l.edge == j then
          local B = Q.resolve(ctx, l.target, "link")
          if Q.passes(f, B) then
            local L, R = Q.portal(ctx, p, l)
            if orient(S, E, R) <= 0 and orient(S, E, L) >= 0 then nextp = B; break end
          end
        end
      end
      if nextp then break end
    end
    if not nextp then return "wall", visited end
    if #visited == max_visited then return "limit", visited end
    visited[#visited + 1] = nextp
    p = nextp
  end
end

return M
