-- Protocol ops of spec/navmesh-mesh.md section 7 (MESH-050) and the snapshot ops.
local json = require("json")
local P = require("proto")
local mesh = require("mesh")
local fail = P.fail

local I32_MIN, I32_MAX, U32_MAX = -2147483648, 2147483647, 4294967295

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
local function ref_of(v)
  local r = P.as_u64(v)
  if r == nil then fail("argument", "ref", "") end
  return r
end

return function(OPS, session)
  local function the_mesh(args) return (session:get(args.map.mesh, "mesh", "mesh")) end
  local function the_tile(args) return (session:get(args.map.tile, "tile", "tile")) end
  local function pos(args)
    return int_of(args.map.x, "x", I32_MIN, I32_MAX), int_of(args.map.z, "z", I32_MIN, I32_MAX),
      int_of(args.map.layer, "layer", I32_MIN, I32_MAX)
  end

  OPS["mesh.create"] = function(args)
    local a = args.map
    if not P.is_obj(a.tiling) then fail("argument", "tiling", "") end
    local tl = a.tiling.map
    local o = tl.origin
    if not P.is_arr(o) or o.n ~= 3 then fail("argument", "tiling.origin", "") end
    local p = {
      origin = { dbl_of(o[1], "tiling.origin[0]"), dbl_of(o[2], "tiling.origin[1]"), dbl_of(o[3], "tiling.origin[2]") },
      cell_size = dbl_of(tl.cell_size, "tiling.cell_size"),
      cell_height = dbl_of(tl.cell_height, "tiling.cell_height"),
      tile_cells = int_of(tl.tile_cells, "tiling.tile_cells", 0, U32_MAX),
      mvp = int_of(tl.max_verts_per_poly, "tiling.max_verts_per_poly", 0, U32_MAX),
      climb = dbl_of(a.walkable_climb, "walkable_climb"),
      max_tiles = int_of(a.max_tiles, "max_tiles", 0, U32_MAX),
    }
    return { handle = session:add("mesh", mesh.create(p)) }
  end
  OPS["mesh.add_tile"] = function(args)
    local m, t = the_mesh(args), the_tile(args)
    return { ref = P.u64hex(mesh.add_tile(m, t)) }
  end
  OPS["mesh.replace_tile"] = function(args)
    local m, t = the_mesh(args), the_tile(args)
    return { ref = P.u64hex(mesh.replace_tile(m, t)) }
  end
  OPS["mesh.remove_tile"] = function(args)
    local m = the_mesh(args)
    local x, z, layer = pos(args)
    mesh.remove_tile(m, x, z, layer)
    return {}
  end
  OPS["mesh.poly_ref"] = function(args)
    local m = the_mesh(args)
    local x, z, layer = pos(args)
    local poly = int_of(args.map.poly, "poly", 0, U32_MAX)
    return { ref = P.u64hex(mesh.poly_ref(m, x, z, layer, poly)) }
  end
  OPS["mesh.set_poly_flags"] = function(args)
    local m = the_mesh(args)
    local r = ref_of(args.map.ref)
    local flags = int_of(args.map.flags, "flags", 0, 65535)
    local e, i = mesh.resolve(m, r)
    e.flags[i] = flags
    return {}
  end
  OPS["mesh.set_poly_area"] = function(args)
    local m = the_mesh(args)
    local r = ref_of(args.map.ref)
    local area = int_of(args.map.area, "area", 0, 255)
    local e, i = mesh.resolve(m, r)
    if area > 63 then fail("out_of_range", "area", P.vint(area)) end
    e.areas[i] = area
    return {}
  end
  OPS["mesh.get_poly"] = function(args)
    local m = the_mesh(args)
    local e, i = mesh.resolve(m, ref_of(args.map.ref))
    return { flags = e.flags[i], area = e.areas[i] }
  end
  OPS["mesh.save"] = function(args)
    return { bytes = P.hex(mesh.save(the_mesh(args))) }
  end
  OPS["mesh.snapshot_save"] = function(args)
    return { bytes = P.hex(mesh.snapshot_save(the_mesh(args))) }
  end
  OPS["mesh.snapshot_load"] = function(args)
    local m = the_mesh(args)
    local s = P.as_bytes(args.map.bytes)
    if s == nil then fail("argument", "bytes", "") end
    local st = mesh.snapshot_load(m, s)
    m.gen, m.slots = st.gen, st.slots -- SNAP-008: replaced only after every check passed
    return {}
  end
  OPS["mesh.load"] = function(args) -- MESH-068
    local s = P.as_bytes(args.map.bytes)
    if s == nil then fail("argument", "bytes", "") end
    return { handle = session:add("mesh", mesh.load(s)) }
  end
  OPS["mesh.snapshot_params"] = function(args) -- SNAP-025
    local s = P.as_bytes(args.map.bytes)
    if s == nil then fail("argument", "bytes", "") end
    local p = mesh.snapshot_params(s)
    return { tiling = { origin = json.array({ p.origin[1], p.origin[2], p.origin[3] }), cell_size = p.cell_size,
                        cell_height = p.cell_height, tile_cells = p.tile_cells,
                        max_verts_per_poly = p.mvp },
             walkable_climb = p.climb, max_tiles = p.max_tiles }
  end
  OPS["mesh.snapshot_open"] = function(args) -- SNAP-026
    local s = P.as_bytes(args.map.bytes)
    if s == nil then fail("argument", "bytes", "") end
    return { handle = session:add("mesh", mesh.snapshot_open(s)) }
  end
end
