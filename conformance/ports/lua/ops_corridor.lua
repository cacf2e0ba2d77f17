-- Protocol ops of spec/query-corridor.md section 9 (QCR-290 .. QCR-292), written from the
-- text alone: corridor.create, .state, .reset, .set, .move_position, .move_target,
-- .find_corners, .optimize_visibility, .optimize_topology, .is_valid, .fix, .replan.
-- optimize_visibility needs only Raycast's walk (status and visited list, corridor.lua).
-- Arguments are read in QCR-290's args order, each completely (forms, QRY-091); then
-- max_nodes (QRY-060), then the corridor not empty (QCR-202), then the clause's own checks.
-- Every op computes its new state in locals and stores it last: a failure changes nothing.
local json = require("json")
local P = require("proto")
local Q = require("query")
local C = require("corridor")
local fail = P.fail
local vd, vi = P.vdouble, P.vint

local LIM = 4194304.0 -- 2^22
local U32_MAX = 4294967295

local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end

local function read_pos(v, name)
  if not P.is_arr(v) or v.n ~= 3 then fail("argument", name, "") end
  local out = {}
  for k = 1, 3 do
    local f = P.as_double(v[k])
    if f == nil then fail("argument", name .. "[" .. (k - 1) .. "]", "") end
    out[k] = f
  end
  return out
end
local function read_u64(v, name)
  local r = P.as_u64(v)
  if r == nil then fail("argument", name, "") end
  return r
end
local function read_int(v, name, default)
  if v == nil then return default end
  local n = P.as_int(v)
  if n == nil or n < 0 or n > U32_MAX then fail("argument", name, "") end
  return n
end
local function read_filter(v)
  local f = Q.default_filter()
  if v == nil then return f end
  if not P.is_obj(v) then fail("argument", "filter", "") end
  local a = v.map
  local function r16(x, name, d)
    if x == nil then return d end
    local n = P.as_int(x)
    if n == nil or n < 0 or n > 65535 then fail("argument", name, "") end
    return n
  end
  f.include = r16(a.include, "filter.include", f.include)
  f.exclude = r16(a.exclude, "filter.exclude", f.exclude)
  if a.costs ~= nil then
    local c = a.costs
    if not P.is_arr(c) or c.n ~= 64 then fail("argument", "filter.costs", "") end
    for i = 1, 64 do
      local x = P.as_double(c[i])
      if x == nil then fail("argument", "filter.costs[" .. (i - 1) .. "]", "") end
      f.costs[i] = x
    end
  end
  return f
end
local function check_coord(v, name)
  if not finite(v) or v < -LIM or v > LIM then fail("out_of_range", name, vd(v)) end
  if v == 0 then return 0.0 end -- QRY-020: -0.0 taken as +0.0
  return v
end
local function check_pos(p, name)
  for k = 1, 3 do p[k] = check_coord(p[k], name .. "[" .. (k - 1) .. "]") end
  return p
end
local function range(n, name, lo, hi)
  if n < lo or n > hi then fail("out_of_range", name, vi(n)) end
  return n
end
local function fl(x) if math.type(x) == "integer" then return x + 0.0 end return x end
local function point_out(q) return json.array({ fl(q[1]), fl(q[2]), fl(q[3]) }) end
local function entry_out(e)
  return { ref = P.u64hex(e.ref), id = json.array({ e.id[1], e.id[2], e.id[3], e.id[4] }) }
end
local function xyz_text(p) return vd(p[1]) .. "," .. vd(p[2]) .. "," .. vd(p[3]) end
local function entries(polys)
  local r = {}
  for i, p in ipairs(polys) do r[i] = C.entry(p) end
  return r
end

-- QRY-080's link check of a list of polygon records (field path[i]).
local function check_linked(ctx, path)
  for i = 2, #path do
    local linked = false
    for _, l in ipairs(Q.links_of(ctx, path[i - 1])) do
      if l.target == path[i].ref then linked = true; break end
    end
    if not linked then
      for _, oc in ipairs(Q.conns_of(ctx, path[i - 1])) do
        if oc.to == path[i] then linked = true; break end
      end
    end
    if not linked then fail("argument", "path[" .. (i - 1) .. "]", P.u64hex(path[i].ref)) end
  end
end

return function(OPS, session)
  local function the_corridor(args) return (session:get(args.map.corridor, "corridor", "corridor")) end
  local function the_mesh(args) return (session:get(args.map.mesh, "mesh", "mesh")) end
  local function not_empty(c) if #c.path == 0 then fail("argument", "corridor", "empty") end end
  -- QCR-220: resolve the entry at 1-based index k and check the filter (field path[k-1]).
  local function end_poly(ctx, c, k, f)
    local field = "path[" .. (k - 1) .. "]"
    local p = Q.resolve(ctx, c.path[k].ref, field)
    if not Q.passes(f, p) then fail("argument", field, P.u64hex(p.ref)) end
    return p
  end
  -- QCR-290: the state members after the op's own.
  local function answer(c, out)
    out = out or {}
    local l = {}
    for i, e in ipairs(c.path) do l[i] = entry_out(e) end
    out.position = point_out(c.position)
    out.target = point_out(c.target)
    out.path = json.array(l)
    return out
  end

  OPS["corridor.create"] = function(args) -- QCR-201
    local mp = read_int(args.map.max_path, "max_path", 256)
    range(mp, "max_path", 1, 65536)
    return { handle = session:add("corridor", { max_path = mp, path = {},
      position = { 0.0, 0.0, 0.0 }, target = { 0.0, 0.0, 0.0 } }) }
  end

  OPS["corridor.state"] = function(args) -- QCR-260
    local c = the_corridor(args)
    return answer(c, { max_path = c.max_path })
  end

  OPS["corridor.reset"] = function(args) -- QCR-210
    local c = the_corridor(args)
    local m = the_mesh(args)
    local a = args.map
    local ref = read_u64(a.poly, "poly")
    local pos = read_pos(a.pos, "pos")
    check_pos(pos, "pos")
    local ctx = Q.context(m)
    local p = Q.resolve(ctx, ref, "poly")
    local h = C.head_point(p, pos)
    c.path, c.position, c.target = { C.entry(p) }, h, { h[1], h[2], h[3] }
    return answer(c)
  end

  OPS["corridor.set"] = function(args) -- QCR-211
    local c = the_corridor(args)
    local m = the_mesh(args)
    local a = args.map
    local s = read_pos(a.start, "start")
    local e = read_pos(a["end"], "end")
    local pl = a.path
    if not P.is_arr(pl) then fail("argument", "path", "") end
    local refs = {}
    for i = 1, pl.n do refs[i] = read_u64(pl[i], "path[" .. (i - 1) .. "]") end
    check_pos(s, "start")
    check_pos(e, "end")
    range(#refs, "path", 1, 65536)
    local ctx = Q.context(m)
    local path = {}
    for i, r in ipairs(refs) do path[i] = Q.resolve(ctx, r, "path[" .. (i - 1) .. "]") end
    check_linked(ctx, path)
    if #path > c.max_path then fail("limit", "path", vi(#path)) end
    local pos = C.head_point(path[1], s)
    local tgt = Q.closest_point(path[#path], e)
    c.path, c.position, c.target = entries(path), pos, tgt
    return answer(c)
  end

  -- QCR-220 .. QCR-222
  local function move(args, tail)
    local c = the_corridor(args)
    local m = the_mesh(args)
    local a = args.map
    local pos = read_pos(a.pos, "pos")
    local f = read_filter(a.filter)
    local mv = read_int(a.max_visited, "max_visited", 256)
    not_empty(c)
    check_pos(pos, "pos")
    Q.check_filter(f)
    range(mv, "max_visited", 1, 65536)
    local ctx = Q.context(m)
    local k = tail and #c.path or 1
    local p = end_poly(ctx, c, k, f)
    local from = tail and c.target or c.position
    local pt, _, route, st = C.move_along_surface(ctx, p, from, pos, f, mv)
    local V = entries(route)
    local list, tr
    if tail then list, tr = C.merge_tail(c.path, V, c.max_path)
    else list, tr = C.merge_head(c.path, V, c.max_path) end
    c.path = list
    if tail then c.target = pt else c.position = pt end
    return answer(c, { truncated = tr, search_truncated = st })
  end
  OPS["corridor.move_position"] = function(args) return move(args, false) end
  OPS["corridor.move_target"] = function(args) return move(args, true) end

  OPS["corridor.move_over_offmesh"] = function(args) -- QCR-223
    local c = the_corridor(args)
    local m = the_mesh(args)
    local rd = P.as_double(args.map.radius)
    if rd == nil then fail("argument", "radius", "") end
    not_empty(c)
    if not finite(rd) or not (rd >= 0) or rd > LIM then fail("out_of_range", "radius", vd(rd)) end
    local ctx = Q.context(m)
    local p0 = Q.resolve(ctx, c.path[1].ref, "path[0]")
    local p1 = #c.path >= 2 and Q.resolve(ctx, c.path[2].ref, "path[1]") or nil
    local link
    if p1 then
      local linked = false
      for _, l in ipairs(Q.links_of(ctx, p0)) do
        if l.target == p1.ref then linked = true; break end
      end
      if not linked then
        for _, oc in ipairs(Q.conns_of(ctx, p0)) do
          if oc.to == p1 then link = oc; break end
        end
      end
    end
    if not link then return answer(c, { status = "no_link" }) end
    local dx, dz = c.position[1] - link.a[1], c.position[3] - link.a[3]
    if dx * dx + dz * dz > rd * rd then return answer(c, { status = "too_far" }) end
    c.position = C.head_point(p1, link.b)
    table.remove(c.path, 1)
    return answer(c, { status = "crossed", link = { start = point_out(link.a), ["end"] = point_out(link.b),
                                                    flags = link.flags, area = link.area,
                                                    user_id = link.user_id } })
  end

  OPS["corridor.find_corners"] = function(args) -- QCR-230, QCR-231
    local c = the_corridor(args)
    local m = the_mesh(args)
    local mc = read_int(args.map.max_corners, "max_corners", 16)
    not_empty(c)
    range(mc, "max_corners", 1, 65536)
    local ctx = Q.context(m)
    local path = {}
    for i, e in ipairs(c.path) do path[i] = Q.resolve(ctx, e.ref, "path[" .. (i - 1) .. "]") end
    check_linked(ctx, path)
    local sp = Q.closest_point(path[1], c.position)
    local tp = Q.closest_point(path[#path], c.target)
    local cs = Q.straight(ctx, path, sp, tp, "none")
    if #cs > 262144 then fail("limit", "max_corners", vi(#cs)) end
    local first = 1
    while first <= #cs and cs[first].point[1] == c.position[1] and cs[first].point[3] == c.position[3]
          and (cs[first].flags & 4) == 0 do
      first = first + 1
    end
    local kept = {}
    for i = first, #cs do
      kept[#kept + 1] = cs[i]
      if (cs[i].flags & 4) ~= 0 then break end
    end
    local out, tr = {}, false
    for i, x in ipairs(kept) do
      if i > mc then tr = true; break end
      out[i] = { point = point_out(x.point), flags = x.flags,
                 poly = { ref = P.u64hex(x.poly.ref), id = json.array({ x.poly.id[1], x.poly.id[2], x.poly.id[3], x.poly.id[4] }) } }
    end
    return answer(c, { corners = json.array(out), truncated = tr })
  end

  OPS["corridor.optimize_visibility"] = function(args) -- QCR-240, QCR-242
    local c = the_corridor(args)
    local m = the_mesh(args)
    local a = args.map
    local nx = read_pos(a.next, "next")
    local rg = P.as_double(a.range)
    if rg == nil then fail("argument", "range", "") end
    local f = read_filter(a.filter)
    local mv = read_int(a.max_visited, "max_visited", 32)
    not_empty(c)
    check_pos(nx, "next")
    if not finite(rg) or not (rg > 0) or rg > LIM then fail("out_of_range", "range", vd(rg)) end
    Q.check_filter(f)
    range(mv, "max_visited", 1, 65536)
    local ctx = Q.context(m)
    local p = end_poly(ctx, c, 1, f)
    local Pp = c.position
    local dx, dz = nx[1] - Pp[1], nx[3] - Pp[3]
    local d = math.sqrt(dx * dx + dz * dz)
    if d == 0 then return answer(c, { spliced = false, truncated = false }) end
    local G
    if d <= rg then
      G = nx
    else
      local k = rg / d
      G = { Pp[1] + (nx[1] - Pp[1]) * k, Pp[2] + (nx[2] - Pp[2]) * k, Pp[3] + (nx[3] - Pp[3]) * k }
      for i = 1, 3 do
        if G[i] > LIM then G[i] = LIM elseif G[i] < -LIM then G[i] = -LIM end
      end
    end
    if not Q.inside(p, Pp[1], Pp[3]) then fail("argument", "start", xyz_text(Pp)) end -- QSF-103
    local st, V = C.raycast_walk(ctx, p, Pp, G, f, mv)
    local sp, tr = false, false
    if st == "end" and #V >= 2 then
      local list
      list, sp, tr = C.splice(c.path, entries(V), c.max_path)
      c.path = list
    end
    return answer(c, { spliced = sp, truncated = tr })
  end

  OPS["corridor.optimize_topology"] = function(args) -- QCR-241, QCR-242
    local c = the_corridor(args)
    local m = the_mesh(args)
    local a = args.map
    local f = read_filter(a.filter)
    local mn = read_int(a.max_nodes, "max_nodes", 32)
    range(mn, "max_nodes", 1, 65536)
    not_empty(c)
    Q.check_filter(f)
    local n = #c.path
    if n < 3 then return answer(c, { spliced = false, truncated = false }) end
    local ctx = Q.context(m)
    local S = end_poly(ctx, c, 1, f)
    local E = end_poly(ctx, c, n, f)
    local r = Q.search(ctx, S, c.position, E, c.target, f, mn, c.max_path)
    local R = r.found and r.path or r.partial
    local sp, tr = false, false
    if #R >= 2 then
      local list
      list, sp, tr = C.splice(c.path, entries(R), c.max_path)
      c.path = list
    end
    return answer(c, { spliced = sp, truncated = tr })
  end

  OPS["corridor.is_valid"] = function(args) -- QCR-250, QCR-251
    local c = the_corridor(args)
    local m = the_mesh(args)
    local a = args.map
    local la = read_int(a.max_look_ahead, "max_look_ahead", 65536)
    local f = read_filter(a.filter)
    not_empty(c)
    range(la, "max_look_ahead", 1, 65536)
    Q.check_filter(f)
    local N = math.min(la, #c.path)
    local k, why = C.first_invalid(Q.context(m), c.path, N, f)
    local out = { valid = k == nil, checked = N }
    if k then out.index = k - 1; out.reason = why end
    return answer(c, out)
  end

  OPS["corridor.fix"] = function(args) -- QCR-252
    local c = the_corridor(args)
    local m = the_mesh(args)
    local a = args.map
    local ref = read_u64(a.safe_poly, "safe_poly")
    local spos = read_pos(a.safe_pos, "safe_pos")
    local f = read_filter(a.filter)
    not_empty(c)
    check_pos(spos, "safe_pos")
    Q.check_filter(f)
    local ctx = Q.context(m)
    local sp = Q.resolve(ctx, ref, "safe_poly")
    if not Q.passes(f, sp) then fail("argument", "safe_poly", P.u64hex(sp.ref)) end
    local n = #c.path
    local k = C.first_invalid(ctx, c.path, n, f)
    if not k then return answer(c, { kept = n }) end
    k = k - 1
    local list, pos = {}, c.position
    if k == 0 then
      list = { C.entry(sp) }
      pos = C.head_point(sp, spos)
    else
      for i = 1, k do list[i] = c.path[i] end
    end
    local last = Q.resolve(ctx, list[#list].ref, "path")
    local tgt = Q.closest_point(last, c.target)
    c.path, c.position, c.target = list, pos, tgt
    return answer(c, { kept = k })
  end

  OPS["corridor.replan"] = function(args) -- QCR-253
    local c = the_corridor(args)
    local m = the_mesh(args)
    local a = args.map
    local e = read_pos(a["end"], "end")
    local f = read_filter(a.filter)
    local mn = read_int(a.max_nodes, "max_nodes", 8192)
    range(mn, "max_nodes", 1, 65536)
    not_empty(c)
    check_pos(e, "end")
    Q.check_filter(f)
    local ctx = Q.context(m)
    local S = end_poly(ctx, c, 1, f)
    local pr = m.params
    local ext = { 2 * pr.cell_size, pr.climb + 2 * pr.cell_height, 2 * pr.cell_size }
    local E, ep = Q.nearest(ctx, e, ext, f)
    if not E then fail("out_of_range", "end", xyz_text(e)) end
    local r = Q.search(ctx, S, c.position, E, ep, f, mn, c.max_path)
    local out = { nodes = r.nodes }
    if r.found then
      out.status = "found"
      c.path, c.target = entries(r.path), ep
    else
      out.status = "no_path"
      out.reason = r.reason
    end
    return answer(c, out)
  end
end
