-- Protocol ops of spec/query.md section 9 (QRY-090 .. QRY-092): query.nearest_poly,
-- query.poly_height, query.closest_point, query.closest_point_boundary, query.find_path, query.find_path_from,
-- query.straight_path. Arguments are read in QRY-090's order, each completely (forms only,
-- QRY-091); then each query's own checks run in its clause's order.
local json = require("json")
local P = require("proto")
local Q = require("query")
local fail = P.fail
local vd, vi = P.vdouble, P.vint

local LIM = 4194304.0 -- 2^22
local U32_MAX = 4294967295

local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end

-- Forms (QRY-091).
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
local function read_double(v, name)
  local f = P.as_double(v)
  if f == nil then fail("argument", name, "") end
  return f
end
local function read_u64(v, name)
  local r = P.as_u64(v)
  if r == nil then fail("argument", name, "") end
  return r
end
local function read_int(v, name, lo, hi, default)
  if v == nil then return default end
  local n = P.as_int(v)
  if n == nil or n < lo or n > hi then fail("argument", name, "") end
  return n
end
local function read_filter(v)
  local f = Q.default_filter()
  if v == nil then return f end
  if not P.is_obj(v) then fail("argument", "filter", "") end
  local a = v.map
  f.include = read_int(a.include, "filter.include", 0, 65535, f.include)
  f.exclude = read_int(a.exclude, "filter.exclude", 0, 65535, f.exclude)
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

-- Values (QRY-020, QRY-021).
local function check_coord(v, name)
  if not finite(v) or v < -LIM or v > LIM then fail("out_of_range", name, vd(v)) end
  if v == 0 then return 0.0 end -- -0.0 taken as +0.0
  return v
end
local function check_pos(p, name)
  for k = 1, 3 do p[k] = check_coord(p[k], name .. "[" .. (k - 1) .. "]") end
  return p
end
local function check_half(h)
  for k = 1, 3 do
    local v = h[k]
    if not finite(v) or not (v > 0) or v > LIM then fail("out_of_range", "half_extents[" .. (k - 1) .. "]", vd(v)) end
  end
  return h
end
local function range(n, name, lo, hi)
  if n < lo or n > hi then fail("out_of_range", name, vi(n)) end
  return n
end

-- Answers (QRY-024, QRY-090).
local function poly_out(p)
  return { ref = P.u64hex(p.ref), id = json.array({ p.id[1], p.id[2], p.id[3], p.id[4] }) }
end
-- a binary64 as a Lua float (an integer-valued input may be a Lua integer); -0.0 kept
local function fl(x) if math.type(x) == "integer" then return x + 0.0 end return x end
local function point_out(q) return json.array({ fl(q[1]), fl(q[2]), fl(q[3]) }) end
local function list_out(list)
  local r = {}
  for i, p in ipairs(list) do r[i] = poly_out(p) end
  return json.array(r)
end
local function xyz_text(p) return vd(p[1]) .. "," .. vd(p[2]) .. "," .. vd(p[3]) end

return function(OPS, session)
  local function the_mesh(args) return (session:get(args.map.mesh, "mesh", "mesh")) end

  OPS["query.nearest_poly"] = function(args) -- QRY-050 .. QRY-052
    local m = the_mesh(args)
    local a = args.map
    local c = read_pos(a.center, "center")
    local h = read_pos(a.half_extents, "half_extents")
    local f = read_filter(a.filter)
    check_pos(c, "center")
    check_half(h)
    Q.check_filter(f)
    local ctx = Q.context(m)
    local p, q = Q.nearest(ctx, c, h, f)
    if not p then return { found = false } end
    return { found = true, poly = poly_out(p), point = point_out(q) }
  end

  OPS["query.poly_height"] = function(args) -- QRY-044
    local m = the_mesh(args)
    local a = args.map
    local ref = read_u64(a.poly, "poly")
    local x = read_double(a.x, "x")
    local z = read_double(a.z, "z")
    x = check_coord(x, "x")
    z = check_coord(z, "z")
    local ctx = Q.context(m)
    local p = Q.resolve(ctx, ref, "poly")
    if not Q.inside(p, x, z) then return { inside = false } end
    return { inside = true, height = fl(Q.surface_height(p, x, z)) }
  end

  OPS["query.closest_point"] = function(args) -- QRY-045
    local m = the_mesh(args)
    local a = args.map
    local ref = read_u64(a.poly, "poly")
    local pos = check_pos(read_pos(a.pos, "pos"), "pos")
    local p = Q.resolve(Q.context(m), ref, "poly")
    local q, over = Q.closest_point(p, pos)
    return { point = point_out(q), over = over }
  end

  OPS["query.closest_point_boundary"] = function(args) -- QRY-046
    local m = the_mesh(args)
    local a = args.map
    local ref = read_u64(a.poly, "poly")
    local pos = check_pos(read_pos(a.pos, "pos"), "pos")
    local p = Q.resolve(Q.context(m), ref, "poly")
    return { point = point_out(Q.closest_point_boundary(p, pos)) }
  end

  -- QRY-090: the answer of query.find_path and query.find_path_from
  local function path_answer(S, sp, E, ep, r)
    local out = { start = { poly = poly_out(S), point = point_out(sp) },
                  ["end"] = { poly = poly_out(E), point = point_out(ep) }, nodes = r.nodes }
    if r.found then
      out.status = "found"
      out.path = list_out(r.path)
      out.cost = fl(r.cost)
    else
      out.status = "no_path"
      out.reason = r.reason
      out.partial = list_out(r.partial)
    end
    return out
  end

  OPS["query.find_path"] = function(args) -- QRY-060 .. QRY-069
    local m = the_mesh(args)
    local a = args.map
    local s = read_pos(a.start, "start")
    local e = read_pos(a["end"], "end")
    local f = read_filter(a.filter)
    local max_nodes = read_int(a.max_nodes, "max_nodes", 0, U32_MAX, 8192)
    local max_path = read_int(a.max_path, "max_path", 0, U32_MAX, 8192)
    range(max_nodes, "max_nodes", 1, 65536) -- QRY-091: the query object first (QRY-060)
    check_pos(s, "start")
    check_pos(e, "end")
    Q.check_filter(f)
    range(max_path, "max_path", 1, 65536)
    local ctx = Q.context(m)
    local pr = m.params
    local ext = { 2 * pr.cell_size, pr.climb + 2 * pr.cell_height, 2 * pr.cell_size }
    local S, sp = Q.nearest(ctx, s, ext, f)
    if not S then fail("out_of_range", "start", xyz_text(s)) end
    local E, ep = Q.nearest(ctx, e, ext, f)
    if not E then fail("out_of_range", "end", xyz_text(e)) end
    return path_answer(S, sp, E, ep, Q.search(ctx, S, sp, E, ep, f, max_nodes, max_path))
  end

  OPS["query.find_path_from"] = function(args) -- QRY-074
    local m = the_mesh(args)
    local a = args.map
    local rs = read_u64(a.start_poly, "start_poly")
    local s = read_pos(a.start, "start")
    local re = read_u64(a.end_poly, "end_poly")
    local e = read_pos(a["end"], "end")
    local f = read_filter(a.filter)
    local max_nodes = read_int(a.max_nodes, "max_nodes", 0, U32_MAX, 8192)
    local max_path = read_int(a.max_path, "max_path", 0, U32_MAX, 8192)
    range(max_nodes, "max_nodes", 1, 65536) -- QRY-091: the query object first (QRY-060)
    local sp = check_pos(s, "start")
    local ep = check_pos(e, "end")
    Q.check_filter(f)
    range(max_path, "max_path", 1, 65536)
    local ctx = Q.context(m)
    local function given(ref, field)
      local p = Q.resolve(ctx, ref, field)
      if not Q.passes(f, p) then fail("argument", field, P.u64hex(ref)) end
      return p
    end
    local S = given(rs, "start_poly")
    local E = given(re, "end_poly")
    return path_answer(S, sp, E, ep, Q.search(ctx, S, sp, E, ep, f, max_nodes, max_path))
  end

  OPS["query.straight_path"] = function(args) -- QRY-080 .. QRY-085
    local m = the_mesh(args)
    local a = args.map
    local s = read_pos(a.start, "start")
    local e = read_pos(a["end"], "end")
    local pl = a.path
    if not P.is_arr(pl) then fail("argument", "path", "") end
    local refs = {}
    for i = 1, pl.n do refs[i] = read_u64(pl[i], "path[" .. (i - 1) .. "]") end
    local crossings = a.crossings
    if crossings == nil then crossings = "none"
    elseif type(crossings) ~= "string" then fail("argument", "crossings", "") end
    local max_corners = read_int(a.max_corners, "max_corners", 0, U32_MAX, 8192)
    check_pos(s, "start")
    check_pos(e, "end")
    range(#refs, "path", 1, 65536)
    local ctx = Q.context(m)
    local path = {}
    for i, r in ipairs(refs) do path[i] = Q.resolve(ctx, r, "path[" .. (i - 1) .. "]") end
    for i = 2, #path do
      local linked = false
      for _, l in ipairs(Q.links_of(ctx, path[i - 1])) do
        if l.target == path[i].ref then linked = true; break end
      end
      if not linked then -- QRY-072: or an off-mesh connection
        for _, oc in ipairs(Q.conns_of(ctx, path[i - 1])) do
          if oc.to == path[i] then linked = true; break end
        end
      end
      if not linked then fail("argument", "path[" .. (i - 1) .. "]", P.u64hex(path[i].ref)) end
    end
    if crossings ~= "none" and crossings ~= "area" and crossings ~= "all" then
      fail("argument", "crossings", crossings)
    end
    range(max_corners, "max_corners", 1, 262144)
    local sp = Q.closest_point(path[1], s)
    local tp = Q.closest_point(path[#path], e)
    local cs = Q.straight(ctx, path, sp, tp, crossings)
    if #cs > max_corners then fail("limit", "max_corners", vi(#cs)) end
    local out = {}
    for i, c in ipairs(cs) do out[i] = { point = point_out(c.point), flags = c.flags, poly = poly_out(c.poly) } end
    return { corners = json.array(out) }
  end
end
