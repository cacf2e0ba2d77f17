-- The tile of spec/navmesh-format.md: validation (FMT-001 .. FMT-030, order FMT-050),
-- canonical bytes (FMT-040 .. FMT-045) and Deserialize (FMT-051).
--
-- A tile is a plain table:
--   x, z, layer, origin = {ox, oy, oz}, cell_size, cell_height, tile_cells, mvp
--   (max_verts_per_poly), origin_y,
--   verts = { {x, y, z}, ... }                       binary32 values held as Lua floats
--   polys = { {verts = {...}, neis = {...}, area, flags}, ... }   indices 0-based
--   detail = { {vert_base, vert_count, tri_base, tri_count}, ... }
--   detail_verts = { {x, y, z}, ... }, detail_tris = { {v0, v1, v2, flags}, ... }
--   offmesh = { {start = {x,y,z}, ["end"] = {x,y,z}, radius, flags, area, bidir, user_id}, ... }
-- plus, once created or loaded, bytes (the serialization) and content_id (u64).
local m = require("opmath")
local xxh3 = require("xxh3")
local P = require("proto")
local fail = P.fail
local vd, vi = P.vdouble, P.vint

local M = {}

local LIM = 2097152.0 -- 2^21

local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end

-- Fields holding floats, with their names, in byte order (FMT-012, FMT-051 steps 5 and 8).
local function header_floats(t)
  return {
    { t.origin, 1, "header.tiling.origin[0]" }, { t.origin, 2, "header.tiling.origin[1]" },
    { t.origin, 3, "header.tiling.origin[2]" }, { t, "cell_size", "header.tiling.cell_size" },
    { t, "cell_height", "header.tiling.cell_height" }, { t, "origin_y", "header.origin_y" },
  }
end
local XYZ = { ".x", ".y", ".z" }
local function array_floats(t)
  local r = {}
  for i, v in ipairs(t.verts) do
    for k = 1, 3 do r[#r + 1] = { v, k, "verts[" .. (i - 1) .. "]" .. XYZ[k] } end
  end
  for i, v in ipairs(t.detail_verts) do
    for k = 1, 3 do r[#r + 1] = { v, k, "detail_verts[" .. (i - 1) .. "]" .. XYZ[k] } end
  end
  for i, o in ipairs(t.offmesh) do
    local p = "offmesh[" .. (i - 1) .. "]"
    for k = 1, 3 do r[#r + 1] = { o.start, k, p .. ".start" .. XYZ[k] } end
    for k = 1, 3 do r[#r + 1] = { o["end"], k, p .. ".end" .. XYZ[k] } end
    r[#r + 1] = { o, "radius", p .. ".radius" }
  end
  return r
end
local function is_negzero(v) return v == 0 and 1 / v < 0 end

-- FMT-012 for Create: every -0.0 becomes +0.0.
function M.canonical_zeros(t)
  for _, f in ipairs(header_floats(t)) do
    if is_negzero(f[1][f[2]]) then f[1][f[2]] = 0.0 end
  end
  for _, f in ipairs(array_floats(t)) do
    if is_negzero(f[1][f[2]]) then f[1][f[2]] = 0.0 end
  end
end

-- FMT-051 steps 5 and 8 for Deserialize: a -0.0 is a format error.
local function reject_zeros(list)
  for _, f in ipairs(list) do
    if is_negzero(f[1][f[2]]) then fail("format", f[3], "-0", "-0 is not canonical: " .. f[3]) end
  end
end

-- FMT-050 step 1, FMT-002 .. FMT-004.
local function check_header(t)
  if t.layer < 0 or t.layer > 255 then fail("out_of_range", "header.layer", vi(t.layer)) end
  for k = 1, 3 do
    local v = t.origin[k]
    if not finite(v) or v < -LIM or v > LIM then
      fail("out_of_range", "header.tiling.origin[" .. (k - 1) .. "]", vd(v))
    end
  end
  for _, name in ipairs({ "cell_size", "cell_height" }) do
    local v = t[name]
    if not finite(v) or v < 0x1p-16 or v > 0x1p16 then fail("out_of_range", "header.tiling." .. name, vd(v)) end
  end
  if t.tile_cells < 1 or t.tile_cells > 8192 then
    fail("out_of_range", "header.tiling.tile_cells", vi(t.tile_cells))
  end
  if t.mvp < 3 or t.mvp > 12 then fail("out_of_range", "header.tiling.max_verts_per_poly", vi(t.mvp)) end
  local oy = t.origin_y
  if not finite(oy) or oy < -LIM or oy > LIM then fail("out_of_range", "header.origin_y", vd(oy)) end
end

-- FMT-005, FMT-006, FMT-008: the extent; sets t.x0, t.z0, t.fW (and t.x1, t.z1).
local function check_extent(t)
  local W = t.tile_cells * t.cell_size -- integer converted exactly, then one product
  local xf, zf = t.x + 0.0, t.z + 0.0
  local x0 = t.origin[1] + xf * W
  local x1 = t.origin[1] + (xf + 1.0) * W
  if x0 < -LIM or x0 > LIM or x1 < -LIM or x1 > LIM then fail("out_of_range", "header.x", vi(t.x)) end
  local z0 = t.origin[3] + zf * W
  local z1 = t.origin[3] + (zf + 1.0) * W
  if z0 < -LIM or z0 > LIM or z1 < -LIM or z1 > LIM then fail("out_of_range", "header.z", vi(t.z)) end
  t.x0, t.z0, t.fW = x0, z0, m.to_f32(W)
  t.x1, t.z1 = x1, z1 -- the world lines of local fW (QRY-010)
end

-- FMT-050 step 3: counts against limits (FMT-030), then consistency (FMT-022).
local function check_counts(t, c)
  if c.nverts > 65535 then fail("limit", "header.nverts", vi(c.nverts)) end
  if c.npolys > 32767 then fail("limit", "header.npolys", vi(c.npolys)) end
  if c.ndetail ~= 0 and c.ndetail ~= c.npolys then fail("argument", "header.ndetail", vi(c.ndetail)) end
  if c.ndetail_verts > 1048576 then fail("limit", "header.ndetail_verts", vi(c.ndetail_verts)) end
  if c.ndetail == 0 and c.ndetail_verts ~= 0 then fail("argument", "header.ndetail_verts", vi(c.ndetail_verts)) end
  if c.ndetail_tris > 1048576 then fail("limit", "header.ndetail_tris", vi(c.ndetail_tris)) end
  if c.ndetail == 0 and c.ndetail_tris ~= 0 then fail("argument", "header.ndetail_tris", vi(c.ndetail_tris)) end
  if c.noffmesh > 4096 then fail("limit", "header.noffmesh", vi(c.noffmesh)) end
end

local function counts_of(t)
  return { nverts = #t.verts, npolys = #t.polys, ndetail = #t.detail, ndetail_verts = #t.detail_verts,
           ndetail_tris = #t.detail_tris, noffmesh = #t.offmesh }
end

-- FMT-009 .. FMT-011 on one point (vertex, detail vertex, off-mesh start).
local function check_point(t, p, name)
  local ylim = 16384 * t.cell_size
  for k = 1, 3 do
    local v = p[k]
    local f = name .. XYZ[k]
    if not finite(v) then fail("out_of_range", f, vd(v)) end
    if k == 2 then
      if v < -ylim or v > ylim then fail("out_of_range", f, vd(v)) end
    elseif v < 0 or v > t.fW then
      fail("out_of_range", f, vd(v))
    end
  end
end

local function sgn(a, b) -- sign of b - a, by comparison
  if b > a then return 1 elseif b < a then return -1 else return 0 end
end

-- FMT-014 .. FMT-018 for polygon i (0-based), FMT-050 step 5.
local function check_poly(t, i, p)
  local pre = "polys[" .. i .. "]"
  local n = #p.verts
  if n < 3 or n > t.mvp then fail("out_of_range", pre .. ".nverts", vi(n)) end
  if p.area < 0 or p.area > 63 then fail("out_of_range", pre .. ".area", vi(p.area)) end
  local nv = #t.verts
  for j = 1, n do
    if p.verts[j] >= nv then fail("out_of_range", pre .. ".verts[" .. (j - 1) .. "]", vi(p.verts[j])) end
  end
  for j = 2, n do
    for k = 1, j - 1 do
      if p.verts[j] == p.verts[k] then fail("argument", pre .. ".verts[" .. (j - 1) .. "]", vi(p.verts[j])) end
    end
  end
  local V = {}
  for j = 1, n do V[j] = t.verts[p.verts[j] + 1] end
  -- FMT-016
  for j = 1, n do
    local a, b = V[j], V[j % n + 1]
    if a[1] == b[1] and a[3] == b[3] then
      fail("argument", pre .. ".verts[" .. (j % n) .. "]", vi(p.verts[j % n + 1]))
    end
  end
  -- FMT-017
  for j = 1, n do
    local a, b, c = V[(j - 2) % n + 1], V[j], V[j % n + 1]
    local o = m.orient2d_f32(a[1], a[3], b[1], b[3], c[1], c[3])
    if o < 0 or (o == 0 and (sgn(a[1], b[1]) ~= sgn(b[1], c[1]) or sgn(a[3], b[3]) ~= sgn(b[3], c[3]))) then
      fail("argument", pre .. ".verts[" .. (j - 1) .. "]", vi(p.verts[j]))
    end
  end
  -- FMT-018
  local function upward(j) -- edge j (1-based) from V[j] to V[j+1]
    local a, b = V[j], V[j % n + 1]
    return b[3] > a[3] or (b[3] == a[3] and b[1] > a[1])
  end
  local count = 0
  for j = 1, n do
    if not upward((j - 2) % n + 1) and upward(j) then count = count + 1 end
  end
  if count ~= 1 then fail("argument", pre .. ".verts", vi(count)) end
end

-- FMT-019 .. FMT-021 for polygon i, FMT-050 step 6.
local function check_neis(t, i, p)
  local n = #p.verts
  local np = #t.polys
  local fW = t.fW
  for j = 1, n do
    local code = p.neis[j]
    local f = "polys[" .. i .. "].neis[" .. (j - 1) .. "]"
    local a, b = p.verts[j], p.verts[j % n + 1]
    if code == 0 then
      -- wall
    elseif code >= 1 and code <= np then
      local k = code - 1
      local ok = false
      if k ~= i then
        local q = t.polys[k + 1]
        local qn = #q.verts
        for e = 1, qn do
          if q.verts[e] == b and q.verts[e % qn + 1] == a and q.neis[e] == i + 1 then ok = true; break end
        end
      end
      if not ok then fail("argument", f, vi(code)) end
    elseif code >= 0x8000 and code <= 0x8003 then
      local s = code & 3
      local A, B = t.verts[a + 1], t.verts[b + 1]
      local on
      if s == 0 then on = A[1] == 0 and B[1] == 0
      elseif s == 1 then on = A[3] == fW and B[3] == fW
      elseif s == 2 then on = A[1] == fW and B[1] == fW
      else on = A[3] == 0 and B[3] == 0 end
      if not on then fail("argument", f, vi(code)) end
    else
      fail("out_of_range", f, vi(code))
    end
  end
end

-- FMT-050 steps 4 to 9 (the header and counts are already checked).
local function check_body(t)
  for i, v in ipairs(t.verts) do check_point(t, v, "verts[" .. (i - 1) .. "]") end
  for i, p in ipairs(t.polys) do check_poly(t, i - 1, p) end
  for i, p in ipairs(t.polys) do check_neis(t, i - 1, p) end
  -- FMT-013
  local used = {}
  for _, p in ipairs(t.polys) do for _, v in ipairs(p.verts) do used[v] = true end end
  for i = 0, #t.verts - 1 do
    if not used[i] then fail("argument", "verts[" .. i .. "]", vi(i)) end
  end
  -- FMT-023
  if #t.detail > 0 then
    local vs, ts = 0, 0
    for i, d in ipairs(t.detail) do
      local pre = "detail[" .. (i - 1) .. "]"
      if d.vert_base ~= vs then fail("argument", pre .. ".vert_base", vi(d.vert_base)) end
      if d.tri_base ~= ts then fail("argument", pre .. ".tri_base", vi(d.tri_base)) end
      if d.tri_count < 1 then fail("argument", pre .. ".tri_count", vi(d.tri_count)) end
      vs = vs + d.vert_count
      ts = ts + d.tri_count
    end
    if vs ~= #t.detail_verts then fail("argument", "header.ndetail_verts", vi(#t.detail_verts)) end
    if ts ~= #t.detail_tris then fail("argument", "header.ndetail_tris", vi(#t.detail_tris)) end
  end
  -- FMT-024
  for i, v in ipairs(t.detail_verts) do check_point(t, v, "detail_verts[" .. (i - 1) .. "]") end
  -- FMT-025, FMT-026
  for pi, d in ipairs(t.detail) do
    local n = #t.polys[pi].verts
    local lim = n + d.vert_count
    for ti = d.tri_base, d.tri_base + d.tri_count - 1 do
      local tr = t.detail_tris[ti + 1]
      local pre = "detail_tris[" .. ti .. "]"
      for k = 1, 3 do
        if tr[k] >= lim then fail("out_of_range", pre .. ".v[" .. (k - 1) .. "]", vi(tr[k])) end
        for e = 1, k - 1 do
          if tr[e] == tr[k] then fail("argument", pre .. ".v[" .. (k - 1) .. "]", vi(tr[k])) end
        end
      end
      if tr[4] & 0xEA ~= 0 then fail("out_of_range", pre .. ".flags", vi(tr[4])) end
    end
  end
  -- FMT-027 .. FMT-029
  for i, o in ipairs(t.offmesh) do
    local pre = "offmesh[" .. (i - 1) .. "]"
    check_point(t, o.start, pre .. ".start")
    local base = { t.x0, t.origin_y, t.z0 }
    for k = 1, 3 do
      local v = o["end"][k]
      local f = pre .. ".end" .. XYZ[k]
      if not finite(v) then fail("out_of_range", f, vd(v)) end
      local w = base[k] + v
      if w < -LIM or w > LIM then fail("out_of_range", f, vd(v)) end
    end
    local r = o.radius
    if not finite(r) or not (r > 0) or r > LIM then fail("out_of_range", pre .. ".radius", vd(r)) end
    if o.area < 0 or o.area > 63 then fail("out_of_range", pre .. ".area", vi(o.area)) end
    if o.bidir ~= 0 and o.bidir ~= 1 then fail("out_of_range", pre .. ".bidirectional", vi(o.bidir)) end
  end
end

---------------------------------------------------------------------------------------------
-- FMT-040 .. FMT-043: canonical bytes.
local pack = string.pack

local function serialize(t)
  local out = {}
  local function put(s) out[#out + 1] = s end
  local c = counts_of(t)
  local size = 104 + 12 * c.nverts + 10 * c.ndetail + 12 * c.ndetail_verts + 4 * c.ndetail_tris
    + 36 * c.noffmesh + 8
  for _, p in ipairs(t.polys) do size = size + 4 + 4 * #p.verts end
  put("OPTL")
  put(pack("<I4i4i4i4", 1, t.x, t.z, t.layer))
  put(pack("<ddddd", t.origin[1], t.origin[2], t.origin[3], t.cell_size, t.cell_height))
  put(pack("<I4I4d", t.tile_cells, t.mvp, t.origin_y))
  put(pack("<I4I4I4I4I4I4I4", c.nverts, c.npolys, c.ndetail, c.ndetail_verts, c.ndetail_tris,
    c.noffmesh, size))
  for _, v in ipairs(t.verts) do put(pack("<fff", v[1], v[2], v[3])) end
  for _, p in ipairs(t.polys) do
    put(pack("<BBI2", #p.verts, p.area, p.flags))
    for _, v in ipairs(p.verts) do put(pack("<I2", v)) end
    for _, v in ipairs(p.neis) do put(pack("<I2", v)) end
  end
  for _, d in ipairs(t.detail) do put(pack("<I4I4BB", d.vert_base, d.tri_base, d.vert_count, d.tri_count)) end
  for _, v in ipairs(t.detail_verts) do put(pack("<fff", v[1], v[2], v[3])) end
  for _, tr in ipairs(t.detail_tris) do put(pack("<BBBB", tr[1], tr[2], tr[3], tr[4])) end
  for _, o in ipairs(t.offmesh) do
    put(pack("<fffffff", o.start[1], o.start[2], o.start[3], o["end"][1], o["end"][2], o["end"][3], o.radius))
    put(pack("<I2BBI4", o.flags, o.area, o.bidir, o.user_id))
  end
  local body = table.concat(out)
  local id = xxh3.hash64(body)
  return body .. pack("<i8", id), id
end

-- NavTile.Create: t holds the described fields (already decoded, binary32 values checked
-- by the caller per FMT-071). Returns the tile (t itself, completed).
function M.create(t)
  M.canonical_zeros(t)          -- FMT-012, before step 1
  check_header(t)               -- step 1
  check_extent(t)               -- step 2
  check_counts(t, counts_of(t)) -- step 3
  check_body(t)                 -- steps 4 .. 9
  t.bytes, t.content_id = serialize(t)
  return t
end

-- NavTile.Deserialize (FMT-051).
function M.load(s)
  local L = #s
  if L < 112 then fail("format", "header", vi(L), "shorter than a header and a content id") end
  if s:sub(1, 4) ~= "OPTL" then fail("format", "header.magic", P.hex(s:sub(1, 4))) end
  local unpack = string.unpack
  local version = unpack("<I4", s, 5)
  if version ~= 1 then fail("format", "header.version", vi(version)) end
  local size = unpack("<I4", s, 101)
  if size ~= L then fail("format", "header.size", vi(size)) end
  local t = { origin = {} }
  t.x, t.z, t.layer = unpack("<i4i4i4", s, 9)
  t.origin[1], t.origin[2], t.origin[3], t.cell_size, t.cell_height = unpack("<ddddd", s, 21)
  t.tile_cells, t.mvp, t.origin_y = unpack("<I4I4d", s, 61)
  local c = {}
  c.nverts, c.npolys, c.ndetail, c.ndetail_verts, c.ndetail_tris, c.noffmesh = unpack("<I4I4I4I4I4I4", s, 77)
  reject_zeros(header_floats(t))      -- step 5
  check_header(t)                     -- step 6
  check_extent(t)
  check_counts(t, c)
  -- step 7: framing
  local E = L - 8
  local pos = 104 -- 0-based offset
  if pos + 12 * c.nverts > E then fail("format", "header.size", vi(size)) end
  t.verts = {}
  for i = 1, c.nverts do
    t.verts[i] = { unpack("<fff", s, pos + 1) }
    t.verts[i][4] = nil
    pos = pos + 12
  end
  t.polys = {}
  for i = 1, c.npolys do
    if E - pos < 4 then fail("format", "header.size", vi(size)) end
    local n, area, flags = unpack("<BBI2", s, pos + 1)
    if n < 3 or n > t.mvp then fail("out_of_range", "polys[" .. (i - 1) .. "].nverts", vi(n)) end
    if E - pos < 4 + 4 * n then fail("format", "header.size", vi(size)) end
    local p = { verts = {}, neis = {}, area = area, flags = flags }
    for j = 1, n do p.verts[j] = unpack("<I2", s, pos + 5 + 2 * (j - 1)) end
    for j = 1, n do p.neis[j] = unpack("<I2", s, pos + 5 + 2 * n + 2 * (j - 1)) end
    t.polys[i] = p
    pos = pos + 4 + 4 * n
  end
  if E - pos ~= 10 * c.ndetail + 12 * c.ndetail_verts + 4 * c.ndetail_tris + 36 * c.noffmesh then
    fail("format", "header.size", vi(size))
  end
  t.detail, t.detail_verts, t.detail_tris, t.offmesh = {}, {}, {}, {}
  for i = 1, c.ndetail do
    local vb, tb, vc, tc = unpack("<I4I4BB", s, pos + 1)
    t.detail[i] = { vert_base = vb, tri_base = tb, vert_count = vc, tri_count = tc }
    pos = pos + 10
  end
  for i = 1, c.ndetail_verts do
    local x, y, z = unpack("<fff", s, pos + 1)
    t.detail_verts[i] = { x, y, z }
    pos = pos + 12
  end
  for i = 1, c.ndetail_tris do
    t.detail_tris[i] = { s:byte(pos + 1, pos + 4) }
    pos = pos + 4
  end
  for i = 1, c.noffmesh do
    local sx, sy, sz, ex, ey, ez, r, fl, ar, bd, uid = unpack("<fffffffI2BBI4", s, pos + 1)
    t.offmesh[i] = { start = { sx, sy, sz }, ["end"] = { ex, ey, ez }, radius = r, flags = fl, area = ar,
                     bidir = bd, user_id = uid }
    pos = pos + 36
  end
  reject_zeros(array_floats(t))       -- step 8
  check_body(t)                       -- step 9
  local stored = unpack("<i8", s, E + 1)
  if stored ~= xxh3.hash64(s:sub(1, E)) then     -- step 10
    fail("format", "content_id", P.u64hex(stored))
  end
  t.bytes, t.content_id = s, stored
  return t
end

return M
