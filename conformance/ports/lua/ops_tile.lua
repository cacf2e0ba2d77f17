-- Protocol ops of spec/navmesh-format.md section 8 (FMT-070 .. FMT-073).
local json = require("json")
local P = require("proto")
local m = require("opmath")
local tile = require("tile")
local fail = P.fail

local M = {}

-- Readers of tile.create's JSON arguments (FMT-070, FMT-071). A malformed argument is an
-- argument error naming its JSON path with the empty value (CONF-035).
local function int_of(v, path, lo, hi)
  local n = P.as_int(v)
  if n == nil or n < lo or n > hi then fail("argument", path, "") end
  return n
end
local function dbl_of(v, path)
  local f = P.as_double(v)
  if f == nil then fail("argument", path, "") end
  return f
end
local function f32_of(v, path) -- FMT-071
  local f = P.as_double(v)
  if f == nil then fail("argument", path, "") end
  if f == f and f ~= math.huge and f ~= -math.huge and not m.is_f32(f) then fail("argument", path, "") end
  return f
end
local function list_of(v, path, optional)
  if optional and (v == nil or v == json.null) then return { n = 0 } end
  if not P.is_arr(v) then fail("argument", path, "") end
  return v
end
local function obj_of(v, path)
  if not P.is_obj(v) then fail("argument", path, "") end
  return v.map
end
local function xyz(v, path)
  local a = list_of(v, path)
  if a.n ~= 3 then fail("argument", path, "") end
  return { f32_of(a[1], path .. "[0]"), f32_of(a[2], path .. "[1]"), f32_of(a[3], path .. "[2]") }
end

local I32_MIN, I32_MAX, U32_MAX = -2147483648, 2147483647, 4294967295

-- JSON args -> tile description (the table shape of tile.lua).
function M.parse_desc(args)
  local a = args.map
  local t = {}
  t.x = int_of(a.x, "x", I32_MIN, I32_MAX)
  t.z = int_of(a.z, "z", I32_MIN, I32_MAX)
  t.layer = int_of(a.layer, "layer", I32_MIN, I32_MAX)
  local tl = obj_of(a.tiling, "tiling")
  local o = list_of(tl.origin, "tiling.origin")
  if o.n ~= 3 then fail("argument", "tiling.origin", "") end
  t.origin = { dbl_of(o[1], "tiling.origin[0]"), dbl_of(o[2], "tiling.origin[1]"), dbl_of(o[3], "tiling.origin[2]") }
  t.cell_size = dbl_of(tl.cell_size, "tiling.cell_size")
  t.cell_height = dbl_of(tl.cell_height, "tiling.cell_height")
  t.tile_cells = int_of(tl.tile_cells, "tiling.tile_cells", 0, U32_MAX)
  t.mvp = int_of(tl.max_verts_per_poly, "tiling.max_verts_per_poly", 0, U32_MAX)
  t.origin_y = dbl_of(a.origin_y, "origin_y")
  local vl = list_of(a.verts, "verts")
  t.verts = {}
  for i = 1, vl.n do t.verts[i] = xyz(vl[i], "verts[" .. (i - 1) .. "]") end
  local pl = list_of(a.polys, "polys")
  t.polys = {}
  for i = 1, pl.n do
    local pre = "polys[" .. (i - 1) .. "]"
    local p = obj_of(pl[i], pre)
    local pv = list_of(p.verts, pre .. ".verts")
    if pv.n > 12 then fail("argument", pre .. ".verts", "") end
    local verts = {}
    for j = 1, pv.n do verts[j] = int_of(pv[j], pre .. ".verts[" .. (j - 1) .. "]", 0, 65535) end
    local pn = list_of(p.neis, pre .. ".neis")
    if pn.n ~= pv.n then fail("argument", pre .. ".neis", "") end
    local neis = {}
    for j = 1, pn.n do neis[j] = int_of(pn[j], pre .. ".neis[" .. (j - 1) .. "]", 0, 65535) end
    local area = int_of(p.area, pre .. ".area", 0, 255)
    t.polys[i] = { verts = verts, neis = neis, area = area, flags = int_of(p.flags, pre .. ".flags", 0, 65535) }
  end
  local dl = list_of(a.detail, "detail", true)
  t.detail = {}
  for i = 1, dl.n do
    local pre = "detail[" .. (i - 1) .. "]"
    local d = obj_of(dl[i], pre)
    local vb = int_of(d.vert_base, pre .. ".vert_base", 0, U32_MAX)
    local vc = int_of(d.vert_count, pre .. ".vert_count", 0, 255)
    local tb = int_of(d.tri_base, pre .. ".tri_base", 0, U32_MAX)
    t.detail[i] = { vert_base = vb, vert_count = vc, tri_base = tb,
                    tri_count = int_of(d.tri_count, pre .. ".tri_count", 0, 255) }
  end
  local dvl = list_of(a.detail_verts, "detail_verts", true)
  t.detail_verts = {}
  for i = 1, dvl.n do t.detail_verts[i] = xyz(dvl[i], "detail_verts[" .. (i - 1) .. "]") end
  local dtl = list_of(a.detail_tris, "detail_tris", true)
  t.detail_tris = {}
  for i = 1, dtl.n do
    local pre = "detail_tris[" .. (i - 1) .. "]"
    local tr = list_of(dtl[i], pre)
    if tr.n ~= 4 then fail("argument", pre, "") end
    local r = {}
    for k = 1, 4 do r[k] = int_of(tr[k], pre .. "[" .. (k - 1) .. "]", 0, 255) end
    t.detail_tris[i] = r
  end
  local ol = list_of(a.offmesh, "offmesh", true)
  t.offmesh = {}
  for i = 1, ol.n do
    local pre = "offmesh[" .. (i - 1) .. "]"
    local od = obj_of(ol[i], pre)
    -- FMT-074: members in FMT-070's order, each decoded before the next.
    local start = xyz(od.start, pre .. ".start")
    local stop = xyz(od["end"], pre .. ".end")
    local radius = f32_of(od.radius, pre .. ".radius")
    local flags = int_of(od.flags, pre .. ".flags", 0, 65535)
    local area = int_of(od.area, pre .. ".area", 0, 255)
    local bd = od.bidirectional
    local bidir
    if bd == true then bidir = 1 elseif bd == false then bidir = 0
    else bidir = int_of(bd, pre .. ".bidirectional", 0, 255) end
    t.offmesh[i] = { start = start, ["end"] = stop, radius = radius, flags = flags, area = area,
                     bidir = bidir, user_id = int_of(od.user_id, pre .. ".user_id", 0, U32_MAX) }
  end
  return t
end

local A = json.array
local function f3(v) return A({ v[1] + 0.0, v[2] + 0.0, v[3] + 0.0 }) end

-- FMT-073: the fields in tile.create's shape.
function M.view(t)
  local verts, polys, detail, dverts, dtris, offmesh = A({}), A({}), A({}), A({}), A({}), A({})
  for i, v in ipairs(t.verts) do verts[i] = f3(v) end
  verts.n = #t.verts
  for i, p in ipairs(t.polys) do
    polys[i] = { verts = A({ table.unpack(p.verts) }), neis = A({ table.unpack(p.neis) }), area = p.area,
                 flags = p.flags }
  end
  polys.n = #t.polys
  for i, d in ipairs(t.detail) do
    detail[i] = { vert_base = d.vert_base, vert_count = d.vert_count, tri_base = d.tri_base,
                  tri_count = d.tri_count }
  end
  detail.n = #t.detail
  for i, v in ipairs(t.detail_verts) do dverts[i] = f3(v) end
  dverts.n = #t.detail_verts
  for i, tr in ipairs(t.detail_tris) do dtris[i] = A({ tr[1], tr[2], tr[3], tr[4] }) end
  dtris.n = #t.detail_tris
  for i, o in ipairs(t.offmesh) do
    offmesh[i] = { start = f3(o.start), ["end"] = f3(o["end"]), radius = o.radius + 0.0, flags = o.flags,
                   area = o.area, bidirectional = o.bidir == 1, user_id = o.user_id }
  end
  offmesh.n = #t.offmesh
  return {
    x = t.x, z = t.z, layer = t.layer,
    tiling = { origin = f3(t.origin), cell_size = t.cell_size + 0.0, cell_height = t.cell_height + 0.0,
               tile_cells = t.tile_cells, max_verts_per_poly = t.mvp },
    origin_y = t.origin_y + 0.0,
    verts = verts, polys = polys, detail = detail, detail_verts = dverts, detail_tris = dtris,
    offmesh = offmesh,
  }
end

function M.register(OPS, session)
  OPS["tile.create"] = function(args)
    local t = tile.create(M.parse_desc(args))
    return { handle = session:add("tile", t), content_id = P.u64hex(t.content_id) }
  end
  OPS["tile.load"] = function(args)
    local s = P.as_bytes(args.map.bytes)
    if s == nil then fail("argument", "bytes", "") end
    local t = tile.load(s)
    return { handle = session:add("tile", t), content_id = P.u64hex(t.content_id) }
  end
  OPS["tile.save"] = function(args)
    local t = session:get(args.map.tile, "tile", "tile")
    return { bytes = P.hex(t.bytes) }
  end
  OPS["tile.view"] = function(args)
    local t = session:get(args.map.tile, "tile", "tile")
    return M.view(t)
  end
end

return setmetatable(M, { __call = function(_, OPS, session) return M.register(OPS, session) end })
