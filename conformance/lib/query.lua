-- query.lua -- shared by the query/* scenarios (spec/query.md; require "query").
--
-- grid(tx, tz, layer, oy, n, holes, opts): a tile.create description of a tile of the TILING
--   below (local x, z in [0, 4]) cut into n x n square cells, cell (i, j) (column i, row j) a
--   polygon unless holes["i,j"]; polygons in row-then-column order; edges 0 bottom, 1 right,
--   2 top, 3 left; tile-border edges are portals (FMT-019), edges to holes walls.
--   opts.area(i, j) and opts.flags(i, j) give areas and flags (default 0 and 1).
-- views(t, tiles): tile.view of each tile handle, keyed "x,z,layer", with x0, z0, x1, z1 (FMT-005)
--   and fW (FMT-008).
-- params(t, mesh): tiling, walkable_climb and max_tiles read from mesh.save's header.
-- reordered(t, mesh, handles): a new mesh with the same parameters, tiles added in reverse.
-- put_poly(b, p), put_path(b, r), put_corners(b, cs): table encodings of answers (canonical
--   ids, never references: QRY-024).
-- check_adjacent(t, V, list, tag): consecutive polygons share an edge (QRY-062) or a slot of
--   one of their tiles joins them (QRY-071).
-- check_corners(t, V, path, corners, tag): corners lie in the corridor, in order (QRY-082).
-- same_path(a, b), same_corners(a, b): equal answers up to references.
local M = {}

M.TILING = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
             max_verts_per_poly = 6 }

function M.grid(tx, tz, layer, oy, n, holes, opts)
  holes, opts = holes or {}, opts or {}
  local s = 4 / n
  local function present(i, j)
    return i >= 0 and j >= 0 and i < n and j < n and not holes[i .. "," .. j]
  end
  local index, np = {}, 0
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      if present(i, j) then index[i .. "," .. j] = np; np = np + 1 end
    end
  end
  local verts, vid = {}, {}
  local function v(i, j)
    local k = i .. "," .. j
    if not vid[k] then
      verts[#verts + 1] = { i * s, 0, j * s }
      vid[k] = #verts - 1
    end
    return vid[k]
  end
  local polys = {}
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      if present(i, j) then
        local function nei(di, dj, side)
          local a, b = i + di, j + dj
          if present(a, b) then return index[a .. "," .. b] + 1 end
          if a < 0 or b < 0 or a >= n or b >= n then return 0x8000 | side end
          return 0
        end
        polys[#polys + 1] = {
          verts = { v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1) },
          neis = { nei(0, -1, 3), nei(1, 0, 2), nei(0, 1, 1), nei(-1, 0, 0) },
          area = opts.area and opts.area(i, j) or 0,
          flags = opts.flags and opts.flags(i, j) or 1,
        }
      end
    end
  end
  return { x = tx, z = tz, layer = layer, tiling = M.TILING, origin_y = oy, verts = verts,
           polys = polys }
end

function M.views(t, tiles)
  local V = {}
  for _, h in ipairs(tiles) do
    local v = t:call("tile.view", { tile = h })
    local W = v.tiling.tile_cells * v.tiling.cell_size
    v.x0 = v.tiling.origin[1] + v.x * W
    v.z0 = v.tiling.origin[3] + v.z * W
    v.x1 = v.tiling.origin[1] + (v.x + 1.0) * W -- QRY-010: the world lines of local fW
    v.z1 = v.tiling.origin[3] + (v.z + 1.0) * W
    v.fW = string.unpack("<f", string.pack("<f", W))
    V[v.x .. "," .. v.z .. "," .. v.layer] = v
  end
  return V
end

local function unhex(h)
  return (h:gsub("..", function(c) return string.char(tonumber(c, 16)) end))
end

function M.params(t, mesh)
  local b = unhex(t:call("mesh.save", { mesh = mesh }).bytes:sub(1, 144))
  local o0, o1, o2, cs, ch, tc, mv, climb, mt = string.unpack("<dddddI4I4dI4", b, 9)
  return { tiling = { origin = { o0, o1, o2 }, cell_size = cs, cell_height = ch,
                      tile_cells = tc, max_verts_per_poly = mv },
           walkable_climb = climb, max_tiles = mt }
end

function M.reordered(t, mesh, handles)
  local m = t:call("mesh.create", M.params(t, mesh)).handle
  for i = #handles, 1, -1 do t:call("mesh.add_tile", { mesh = m, tile = handles[i] }) end
  return m
end

function M.put_poly(b, p)
  b:i32(p.id[1]); b:i32(p.id[2]); b:i32(p.id[3]); b:u32(p.id[4])
end

local function put_point(b, p)
  for k = 1, 3 do b:f64(p[k]) end
end
M.put_point = put_point

M.REASON = { disconnected = 1, node_limit = 2, path_limit = 3 }

function M.put_path(b, r)
  b:u8(r.status == "found" and 1 or 0)
  M.put_poly(b, r.start.poly); put_point(b, r.start.point)
  M.put_poly(b, r["end"].poly); put_point(b, r["end"].point)
  b:u32(r.nodes)
  local list = r.path or r.partial
  b:u32(#list)
  for _, p in ipairs(list) do M.put_poly(b, p) end
  if r.status == "found" then b:f64(r.cost) else b:u8(M.REASON[r.reason] or 255) end
end

function M.put_corners(b, cs)
  b:u32(#cs)
  for _, c in ipairs(cs) do put_point(b, c.point); b:u8(c.flags); M.put_poly(b, c.poly) end
end

local function key(p) return p.id[1] .. "," .. p.id[2] .. "," .. p.id[3] end
local function idstr(p) return key(p) .. "," .. p.id[4] end

-- the world vertices of polygon p (QRY-010)
function M.poly_verts(V, p)
  local v = V[key(p)]
  local poly = v.polys[p.id[4] + 1]
  local out = {}
  for _, k in ipairs(poly.verts) do
    local q = v.verts[k + 1]
    out[#out + 1] = { q[1] == v.fW and v.x1 or v.x0 + q[1], v.origin_y + q[2],
                      q[3] == v.fW and v.z1 or v.z0 + q[3] }
  end
  return out, poly
end

-- p (world) within r of the bounding box of polygon q in the plane
local function near_box(V, q, p, r)
  local vs = M.poly_verts(V, q)
  local lo, hi = { math.huge, math.huge }, { -math.huge, -math.huge }
  for _, v in ipairs(vs) do
    lo[1], hi[1] = math.min(lo[1], v[1]), math.max(hi[1], v[1])
    lo[2], hi[2] = math.min(lo[2], v[3]), math.max(hi[2], v[3])
  end
  return p[1] >= lo[1] - r - 1e-6 and p[1] <= hi[1] + r + 1e-6 and p[3] >= lo[2] - r - 1e-6 and
         p[3] <= hi[2] + r + 1e-6
end

-- a slot of a's tile (or, bidirectional, of b's) starts near a and ends near b (QRY-070)
local function offmesh_step(V, a, b)
  for _, dir in ipairs({ { a, b, false }, { b, a, true } }) do
    local v = V[key(dir[1])]
    for _, o in ipairs(v.offmesh or {}) do
      if not dir[3] or o.bidirectional then
        local s = { v.x0 + o.start[1], 0, v.z0 + o.start[3] }
        local e = { v.x0 + o["end"][1], 0, v.z0 + o["end"][3] }
        if near_box(V, dir[1], s, o.radius) and near_box(V, dir[2], e, o.radius) then return true end
      end
    end
  end
  return false
end

function M.check_adjacent(t, V, list, tag)
  local ok = true
  for i = 1, #list - 1 do
    local a, b = list[i], list[i + 1]
    local _, pa = M.poly_verts(V, a)
    local _, pb = M.poly_verts(V, b)
    local linked = false
    if key(a) == key(b) then
      for _, c in ipairs(pa.neis) do if c == b.id[4] + 1 then linked = true end end
    else
      local dx, dz = b.id[1] - a.id[1], b.id[2] - a.id[2]
      local side = (dx == -1 and dz == 0) and 0 or (dx == 0 and dz == 1) and 1 or
                   (dx == 1 and dz == 0) and 2 or (dx == 0 and dz == -1) and 3 or nil
      if side then
        local sa, sb = false, false
        for _, c in ipairs(pa.neis) do if c == (0x8000 | side) then sa = true end end
        for _, c in ipairs(pb.neis) do if c == (0x8000 | ((side + 2) % 4)) then sb = true end end
        linked = sa and sb
      end
    end
    if not linked and not offmesh_step(V, a, b) then ok = false end
  end
  t:check(ok, tag .. ": consecutive path polygons share an edge or an off-mesh link (QRY-062, QRY-069, QRY-071)")
end

-- p within the closed polygon, up to a tolerance for rounded portal points
local function near_inside(vs, x, z)
  for j = 1, #vs do
    local a, b = vs[j], vs[j % #vs + 1]
    local ex, ez = b[1] - a[1], b[3] - a[3]
    local len = math.sqrt(ex * ex + ez * ez)
    local cr = ex * (z - a[3]) - ez * (x - a[1])
    if cr < -1e-6 * len then return false end
  end
  return true
end

function M.check_corners(t, V, path, corners, tag)
  local pos = {}
  for i, p in ipairs(path) do pos[idstr(p)] = pos[idstr(p)] or i end
  local ok, last = true, 0
  for _, c in ipairs(corners) do
    local i = pos[idstr(c.poly)]
    if not i or i < last then ok = false
    else
      last = i
      if not near_inside(M.poly_verts(V, c.poly), c.point[1], c.point[3]) then ok = false end
    end
  end
  t:check(ok, tag .. ": corners lie in their corridor polygons, in path order (QRY-082, QRY-083)")
  t:check(#corners >= 1 and corners[1].flags & 1 == 1 and corners[#corners].flags & 2 == 2,
          tag .. ": first corner START, last corner END (QRY-083)")
end

local function same_poly(a, b) return idstr(a) == idstr(b) end
local function same_pt(a, b) return a[1] == b[1] and a[2] == b[2] and a[3] == b[3] end

function M.same_path(a, b)
  if a.status ~= b.status or a.nodes ~= b.nodes or a.cost ~= b.cost or a.reason ~= b.reason then
    return false
  end
  if not (same_poly(a.start.poly, b.start.poly) and same_pt(a.start.point, b.start.point) and
          same_poly(a["end"].poly, b["end"].poly) and same_pt(a["end"].point, b["end"].point)) then
    return false
  end
  local la, lb = a.path or a.partial, b.path or b.partial
  if #la ~= #lb then return false end
  for i = 1, #la do if not same_poly(la[i], lb[i]) then return false end end
  return true
end

function M.same_corners(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i].flags ~= b[i].flags or not same_poly(a[i].poly, b[i].poly) or
       not same_pt(a[i].point, b[i].point) then return false end
  end
  return true
end

function M.refs(list)
  local r = {}
  for i, p in ipairs(list) do r[i] = p.ref end
  return r
end

-- The centre of polygon p of view v (Lua, for drawing query positions near the surface).
function M.centre(v, k)
  local poly = v.polys[k + 1]
  local x, y, z = 0, 0, 0
  for _, i in ipairs(poly.verts) do
    local q = v.verts[i + 1]
    x, y, z = x + q[1], y + q[2], z + q[3]
  end
  local n = #poly.verts
  return { v.x0 + x / n, v.origin_y + y / n, v.z0 + z / n }
end

-- query/levels-<name>: a level of levels.md built by the 3D pipeline (preset Humanoid, the
-- preset's detail mesh), npairs query pairs drawn with the PRNG (MATH-040 ..), hashed per batch
-- of `batch` pairs; the first `nreorder` pairs asked again of the same tiles added in reverse
-- order must give the same answers (QRY-023, QRY-067: no answer depends on insertion order).
M.LEVELS = {
  terrain = { name = "terrain", seed = "00000000000000a1", size = 64, partition = "watershed" },
  city = { name = "city", seed = "0000000000000007", size = 5, partition = "monotone" },
  stairs = { name = "stairs", seed = "00000000000000a1", size = 24, partition = "layers" },
  dungeon = { name = "dungeon", seed = "0000000000000003", size = 40, partition = "watershed" },
}

-- PRNG-drawn query pairs on the mesh build(t) returns ({mesh, tiles = {{x, z, layer, tile}}}).
function M.pairs_scenario(name, title, build, npairs, batch, nreorder)
  return {
    title = title,
    clauses = { "QRY-001", "QRY-002", "QRY-010", "QRY-011", "QRY-013", "QRY-014", "QRY-023", "QRY-024",
                "QRY-030", "QRY-031", "QRY-040", "QRY-041", "QRY-042", "QRY-043", "QRY-044",
                "QRY-045", "QRY-050", "QRY-051", "QRY-052", "QRY-060", "QRY-061", "QRY-062",
                "QRY-063", "QRY-064", "QRY-065", "QRY-066", "QRY-067", "QRY-068", "QRY-069",
                "QRY-080", "QRY-081", "QRY-082", "QRY-083", "QRY-084", "QRY-085", "QRY-090",
                "QRY-091" },
    run = function(t)
      local r = build(t)
      local handles, list = {}, {}
      for _, ti in ipairs(r.tiles) do handles[#handles + 1] = ti.tile end
      local V = M.views(t, handles)
      for _, ti in ipairs(r.tiles) do list[#list + 1] = V[ti.x .. "," .. ti.z .. "," .. ti.layer] end
      local before = t:call("mesh.save", { mesh = r.mesh }).bytes
      local g = t:call("prng.new", { seed = "00000000000014a0" }).handle
      local function below(n)
        return tonumber(t:call("prng.below", { prng = g, n = string.format("%016x", n),
                                               count = 1 }).values[1], 16)
      end
      local function draw(b)
        local v = list[below(#list) + 1]
        local k = below(#v.polys)
        local u = t:call("prng.unit", { prng = g, count = 2 }).values
        local c = M.centre(v, k)
        local pos = { c[1] + (u[1] - 0.5) * 0.5, c[2] + 0.3, c[3] + (u[2] - 0.5) * 0.5 }
        local n = t:call("query.nearest_poly", { mesh = r.mesh, center = pos,
                                                 half_extents = { 1, 2, 1 } })
        b:bool(n.found)
        if not n.found then return nil end
        M.put_poly(b, n.poly); put_point(b, n.point)
        local h = t:call("query.poly_height", { mesh = r.mesh, poly = n.poly.ref,
                                                x = n.point[1], z = n.point[3] })
        b:bool(h.inside)
        if h.inside then b:f64(h.height) end
        return n.point
      end
      local asked, found, nfound = {}, 0, 0
      for first = 1, npairs, batch do
        local b = t:table()
        for p = first, math.min(npairs, first + batch - 1) do
          local a, e = draw(b), draw(b)
          if a and e then
            local cross = ({ "none", "area", "all" })[p % 3 + 1]
            local fp = t:call("query.find_path", { mesh = r.mesh, start = a, ["end"] = e })
            M.put_path(b, fp)
            local tag = name .. " pair " .. p
            M.check_adjacent(t, V, fp.path or fp.partial, tag)
            local sp
            if fp.status == "found" then
              nfound = nfound + 1
              sp = t:call("query.straight_path", { mesh = r.mesh, start = a, ["end"] = e,
                                                   path = M.refs(fp.path), crossings = cross })
              M.put_corners(b, sp.corners)
              M.check_corners(t, V, fp.path, sp.corners, tag)
            end
            if #asked < nreorder then asked[#asked + 1] = { a = a, e = e, fp = fp, sp = sp, cross = cross } end
            found = found + 1
          end
        end
        t:checkpoint(string.format("%s pairs %d-%d", name, first, math.min(npairs, first + batch - 1)),
                     "table", b:hex())
      end
      t:check(found >= npairs // 2 and nfound >= 1, name .. ": most pairs sampled, some paths found")
      -- QRY-001: the queries changed nothing
      t:check(t:call("mesh.save", { mesh = r.mesh }).bytes == before, name .. ": mesh unchanged (QRY-001)")
      -- the same tiles added in reverse order: other slots, the same answers
      local m2 = M.reordered(t, r.mesh, handles)
      local same = true
      for i, q in ipairs(asked) do
        -- (and a larger node pool: an answer that fits the cap does not depend on it, QRY-068)
        local fp = t:call("query.find_path", { mesh = m2, start = q.a, ["end"] = q.e,
                                               max_nodes = 65536 })
        if not M.same_path(fp, q.fp) then same = false end
        if q.sp then
          local sp = t:call("query.straight_path", { mesh = m2, start = q.a, ["end"] = q.e,
                                                     path = M.refs(fp.path), crossings = q.cross })
          if not M.same_corners(sp.corners, q.sp.corners) then same = false end
        end
      end
      t:check(same, name .. ": the same answers with the tiles added in reverse order and a pool of 65536 (QRY-023, QRY-067)")
      -- QRY-050 .. QRY-052: a box over the whole mesh (every tile a candidate) gives the
      -- answer of the small box at the same centre: the centre is a point nearest_poly gave,
      -- so its polygon is at distance 0 (or a rounding of it), every polygon that near lies in
      -- both boxes (QRY-051), and ties go to the least id (QRY-052)
      if asked[1] then
        local small = t:call("query.nearest_poly", { mesh = r.mesh, center = asked[1].a,
                                                     half_extents = { 1, 2, 1 } })
        local big = t:call("query.nearest_poly", { mesh = r.mesh, center = asked[1].a,
                                                   half_extents = { 65536, 65536, 65536 } })
        t:check(small.found and big.found and idstr(big.poly) == idstr(small.poly) and
                same_pt(big.point, small.point), name .. ": a box over the whole mesh, the same nearest polygon")
      end
    end,
  }
end

function M.level_scenario(name, npairs, batch, nreorder)
  local L = M.LEVELS[name]
  return M.pairs_scenario(name,
    "Queries on the " .. name .. " level: nearest polygon, height, find path, straight path",
    function(t)
      local level = { name = L.name, seed = L.seed, size = L.size }
      return t:call("build3d.soup", { preset = "Humanoid", partition = L.partition, level = level })
    end, npairs, batch, nreorder)
end

return M
