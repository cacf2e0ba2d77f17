-- The tiled mesh of spec/navmesh-mesh.md (MESH-001 .. MESH-044) and its snapshots
-- (spec/navmesh-snapshot.md, SNAP-001 .. SNAP-015); loading without parameters (MESH-067 ..
-- MESH-070, SNAP-025, SNAP-026).
--
-- A mesh: { params = {origin = {3}, cell_size, cell_height, tile_cells, mvp, climb, max_tiles},
--           gen = {[slot] = generation (absent = 1)}, slots = {[slot] = entry} }
-- entry: { tile = <tile.lua tile>, flags = {current, 1-based}, areas = {current, 1-based} }
-- Links are derived data (MESH-024): they are computed from the state when the mesh is
-- serialized, which gives exactly the links the restitching rules define.
local tile = require("tile")
local P = require("proto")
local fail = P.fail
local vd, vi = P.vdouble, P.vint
local pack, unpack = string.pack, string.unpack

local M = {}
local GEN_MAX = (1 << 22) - 1
local LIM = 2097152.0

local function finite(v) return v == v and v ~= math.huge and v ~= -math.huge end
local function bits(d) return pack("<d", d) end
local function pos_text(x, z, layer) return string.format("%d,%d,%d", x, z, layer) end

-- MESH-002 .. MESH-004 (kind "out_of_range", prefix ""), and MESH-067 (kind "format",
-- prefix "params.") for a parameter block read from bytes.
local function check_params(p, kind, pre)
  for k = 1, 3 do
    local v = p.origin[k]
    if not finite(v) or v < -LIM or v > LIM then fail(kind, pre .. "tiling.origin[" .. (k - 1) .. "]", vd(v)) end
  end
  for _, n in ipairs({ "cell_size", "cell_height" }) do
    local v = p[n]
    if not finite(v) or v < 0x1p-16 or v > 0x1p16 then fail(kind, pre .. "tiling." .. n, vd(v)) end
  end
  if p.tile_cells < 1 or p.tile_cells > 8192 then fail(kind, pre .. "tiling.tile_cells", vi(p.tile_cells)) end
  if p.mvp < 3 or p.mvp > 12 then fail(kind, pre .. "tiling.max_verts_per_poly", vi(p.mvp)) end
  if not finite(p.climb) or p.climb < 0 then fail(kind, pre .. "walkable_climb", vd(p.climb)) end
  if p.max_tiles < 1 or p.max_tiles > (1 << 22) then fail(kind, pre .. "max_tiles", vi(p.max_tiles)) end
end

function M.create(p)
  for k = 1, 3 do if p.origin[k] == 0 then p.origin[k] = 0.0 end end -- -0 -> +0
  if p.climb == 0 then p.climb = 0.0 end
  check_params(p, "out_of_range", "")
  return { params = p, gen = {}, slots = {} }
end

local function is_neg0(v) return v == 0 and 1 / v < 0 end

-- MESH-067: a 60-byte parameter block; returns the parameters.
local function read_params(pb)
  local o0, o1, o2, cs, ch, tc, mv, cl, mt = unpack("<dddddI4I4dI4", pb)
  local p = { origin = { o0, o1, o2 }, cell_size = cs, cell_height = ch, tile_cells = tc, mvp = mv,
              climb = cl, max_tiles = mt }
  check_params(p, "format", "params.")
  for k = 1, 3 do
    if is_neg0(p.origin[k]) then fail("format", "params.tiling.origin[" .. (k - 1) .. "]", "-0") end
  end
  if is_neg0(cl) then fail("format", "params.walkable_climb", "-0") end
  return p
end

local function gen_of(mesh, s) return mesh.gen[s] or 1 end
local function bump(g) if g == GEN_MAX then return 1 end return g + 1 end
local function make_ref(g, s, p) return (g << 42) | (s << 20) | p end

-- MESH-005: the first differing tiling field, or nil. Returns field name and tile value text.
local function tiling_diff(p, t)
  for k = 1, 3 do
    if bits(p.origin[k]) ~= bits(t.origin[k]) then return "tiling.origin[" .. (k - 1) .. "]", vd(t.origin[k]) end
  end
  if bits(p.cell_size) ~= bits(t.cell_size) then return "tiling.cell_size", vd(t.cell_size) end
  if bits(p.cell_height) ~= bits(t.cell_height) then return "tiling.cell_height", vd(t.cell_height) end
  if p.tile_cells ~= t.tile_cells then return "tiling.tile_cells", vi(t.tile_cells) end
  if p.mvp ~= t.mvp then return "tiling.max_verts_per_poly", vi(t.mvp) end
  return nil
end

local function sorted_slots(mesh)
  local list = {}
  for s in pairs(mesh.slots) do list[#list + 1] = s end
  table.sort(list)
  return list
end

local function find_pos(mesh, x, z, layer)
  for s, e in pairs(mesh.slots) do
    if e.tile.x == x and e.tile.z == z and e.tile.layer == layer then return s, e end
  end
  return nil
end

local function new_entry(t)
  local e = { tile = t, flags = {}, areas = {} }
  for i, p in ipairs(t.polys) do e.flags[i] = p.flags; e.areas[i] = p.area end
  return e
end

local function check_tile(mesh, t)
  local f, v = tiling_diff(mesh.params, t)
  if f then fail("argument", f, v, "the tile's tiling differs from the mesh's: " .. f .. " = " .. v) end
  if #t.polys > (1 << 20) then fail("limit", "npolys", vi(#t.polys)) end
end

-- MESH-012
function M.add_tile(mesh, t)
  check_tile(mesh, t)
  if find_pos(mesh, t.x, t.z, t.layer) then fail("argument", "tile", pos_text(t.x, t.z, t.layer)) end
  local s = 0
  while mesh.slots[s] do s = s + 1 end
  if s >= mesh.params.max_tiles then fail("limit", "max_tiles", vi(mesh.params.max_tiles)) end
  mesh.slots[s] = new_entry(t)
  return make_ref(gen_of(mesh, s), s, 0)
end

-- MESH-014
function M.remove_tile(mesh, x, z, layer)
  local s = find_pos(mesh, x, z, layer)
  if not s then fail("argument", "tile", pos_text(x, z, layer)) end
  mesh.slots[s] = nil
  mesh.gen[s] = bump(gen_of(mesh, s))
end

-- MESH-015
function M.replace_tile(mesh, t)
  check_tile(mesh, t)
  local s = find_pos(mesh, t.x, t.z, t.layer)
  if not s then fail("argument", "tile", pos_text(t.x, t.z, t.layer)) end
  mesh.gen[s] = bump(gen_of(mesh, s))
  mesh.slots[s] = new_entry(t)
  return make_ref(mesh.gen[s], s, 0)
end

-- MESH-017
function M.poly_ref(mesh, x, z, layer, poly)
  local s, e = find_pos(mesh, x, z, layer)
  if not s then fail("argument", "tile", pos_text(x, z, layer)) end
  if poly >= #e.tile.polys then fail("out_of_range", "poly", vi(poly)) end
  return make_ref(gen_of(mesh, s), s, poly)
end

-- MESH-016: returns the entry and the 1-based polygon index.
function M.resolve(mesh, ref)
  local g, s, p = (ref >> 42) & GEN_MAX, (ref >> 20) & GEN_MAX, ref & 0xFFFFF
  local e = mesh.slots[s]
  if ref == 0 or not e or gen_of(mesh, s) ~= g or p >= #e.tile.polys then
    fail("argument", "ref", P.u64hex(ref), "not a live polygon reference: ref = " .. P.u64hex(ref))
  end
  return e, p + 1
end

---------------------------------------------------------------------------------------------
-- Stitching (MESH-020 .. MESH-024).

local NEIGHBOUR = { [0] = { -1, 0 }, [1] = { 0, 1 }, [2] = { 1, 0 }, [3] = { 0, -1 } }

-- Edge j (1-based) of polygon p of tile t: along-coordinates and world heights (MESH-022, MESH-023).
local function edge(t, p, j, side)
  local n = #p.verts
  local a, b = t.verts[p.verts[j] + 1], t.verts[p.verts[j % n + 1] + 1]
  local ax = (side == 0 or side == 2) and 3 or 1
  return { ua = a[ax], ub = b[ax], ha = t.origin_y + a[2], hb = t.origin_y + b[2] }
end
local function interval(e)
  if e.ub < e.ua then return e.ub, e.ua end
  return e.ua, e.ub
end
local function height(e, u)
  if u == e.ua then return e.ha end
  if u == e.ub then return e.hb end
  local t = (u - e.ua) / (e.ub - e.ua)
  return e.ha + (e.hb - e.ha) * t
end

-- All links of the tile in slot s, in canonical order (MESH-024).
local function links_of(mesh, s)
  local e = mesh.slots[s]
  local t = e.tile
  local g = gen_of(mesh, s)
  local climb = mesh.params.climb
  local out = {}
  for pi, p in ipairs(t.polys) do
    for j = 1, #p.verts do
      local c = p.neis[j]
      if c >= 1 and c <= 0x7FFF then -- MESH-020
        out[#out + 1] = { pi - 1, j - 1, 0xFF, 0xFF, make_ref(g, s, c - 1), 0.0, 0.0 }
      elseif c & 0x8000 ~= 0 then -- MESH-021
        local side = c & 3
        local d = NEIGHBOUR[side]
        local nx, nz = t.x + d[1], t.z + d[2]
        local want = 0x8000 | ((side + 2) % 4)
        local ep = edge(t, p, j, side)
        local a0, a1 = interval(ep)
        local cands = {}
        for ns, ne in pairs(mesh.slots) do
          if ne.tile.x == nx and ne.tile.z == nz then cands[#cands + 1] = { ns, ne } end
        end
        table.sort(cands, function(u, v) return u[2].tile.layer < v[2].tile.layer end)
        for _, cand in ipairs(cands) do
          local ns, nt = cand[1], cand[2].tile
          for qi, q in ipairs(nt.polys) do
            for k = 1, #q.verts do
              if q.neis[k] == want then
                local eq = edge(nt, q, k, side)
                local b0, b1 = interval(eq)
                local lo = b0 > a0 and b0 or a0
                local hi = b1 < a1 and b1 or a1
                if lo < hi then
                  local g0 = height(ep, lo) - height(eq, lo)
                  local g1 = height(ep, hi) - height(eq, hi)
                  -- MESH-023: the edges cross, or either end within twice the climb
                  local reach = 2 * climb
                  if (g0 < 0 and g1 > 0) or (g0 > 0 and g1 < 0) or math.abs(g0) <= reach
                     or math.abs(g1) <= reach then
                    out[#out + 1] = { pi - 1, j - 1, side, k - 1, make_ref(gen_of(mesh, ns), ns, qi - 1), lo, hi }
                  end
                end
              end
            end
          end
        end
      end
    end
  end
  return out
end
M.links_of = links_of -- read by query.lua (the links of QRY-062, MESH-066)

---------------------------------------------------------------------------------------------
-- Serialization (MESH-040 .. MESH-043).

local function param_block(p)
  return pack("<dddddI4I4dI4", p.origin[1], p.origin[2], p.origin[3], p.cell_size, p.cell_height,
    p.tile_cells, p.mvp, p.climb, p.max_tiles)
end

local function edits_bytes(e)
  local out, n = {}, 0
  for i, p in ipairs(e.tile.polys) do
    if e.flags[i] ~= p.flags or e.areas[i] ~= p.area then
      n = n + 1
      out[#out + 1] = pack("<I4I2BB", i - 1, e.flags[i], e.areas[i], 0)
    end
  end
  return pack("<I4", n) .. table.concat(out)
end

local function record_head(s, g, t)
  return pack("<I4I4i4i4i4I4", s, g, t.x, t.z, t.layer, #t.bytes) .. t.bytes
end

function M.save(mesh)
  local slots = sorted_slots(mesh)
  local out = { "OPMS", pack("<I4", 1), param_block(mesh.params), pack("<I4", #slots) }
  for _, s in ipairs(slots) do
    local e = mesh.slots[s]
    out[#out + 1] = record_head(s, gen_of(mesh, s), e.tile)
    out[#out + 1] = edits_bytes(e)
    local links = links_of(mesh, s)
    out[#out + 1] = pack("<I4", #links)
    for _, l in ipairs(links) do
      out[#out + 1] = pack("<I4BBBBi8ff", l[1], l[2], l[3], l[4], 0, l[5], l[6], l[7])
    end
  end
  return table.concat(out)
end

---------------------------------------------------------------------------------------------
-- Snapshots (SNAP-001 .. SNAP-015).

-- SNAP-011
function M.snapshot_save(mesh)
  local pay = {}
  local free = {}
  for s, g in pairs(mesh.gen) do
    if g > 1 and not mesh.slots[s] then free[#free + 1] = s end
  end
  table.sort(free)
  pay[#pay + 1] = pack("<I4", #free)
  for _, s in ipairs(free) do pay[#pay + 1] = pack("<I4I4", s, mesh.gen[s]) end
  local slots = sorted_slots(mesh)
  pay[#pay + 1] = pack("<I4", #slots)
  for _, s in ipairs(slots) do
    local e = mesh.slots[s]
    pay[#pay + 1] = record_head(s, gen_of(mesh, s), e.tile)
    pay[#pay + 1] = edits_bytes(e)
  end
  local payload = table.concat(pay)
  return "OPSN" .. pack("<I4", 1) .. param_block(mesh.params) .. pack("<I4", 1)
    .. "SLOT" .. pack("<I4I8", 1, #payload) .. payload
end

-- SNAP-003: a reader over s with an end offset (0-based offsets).
local function reader(s)
  local r = { pos = 0, limit = #s }
  function r.take(n, field)
    if r.pos + n > r.limit then fail("format", field, vi(r.limit), "not enough bytes for " .. field) end
    local b = s:sub(r.pos + 1, r.pos + n)
    r.pos = r.pos + n
    return b
  end
  function r.u32(field) return (unpack("<I4", r.take(4, field))) end
  function r.i32(field) return (unpack("<i4", r.take(4, field))) end
  return r
end

-- SNAP-013 steps 1 to 5 and SNAP-014 for tile record i (snapshots and MESH-068).
-- `free` maps the empty-slot records' slots; returns slot, generation, entry.
local function read_record(params, r, i, prev, free, positions)
  local max_tiles = params.max_tiles
  local pre = "tiles[" .. i .. "]"
  local sl = r.u32(pre .. ".slot")
  if sl >= max_tiles or (prev and sl <= prev) then fail("format", pre .. ".slot", vi(sl)) end
  local g = r.u32(pre .. ".generation")
  if g < 1 or g > GEN_MAX then fail("format", pre .. ".generation", vi(g)) end
  if free[sl] then fail("format", pre .. ".slot", vi(sl)) end
  local x = r.i32(pre .. ".x")
  local z = r.i32(pre .. ".z")
  local layer = r.i32(pre .. ".layer")
  local tl = r.u32(pre .. ".tile_length")
  local tb = r.take(tl, pre .. ".tile")
  local ok, t = pcall(tile.load, tb)
  if not ok then
    if type(t) == "table" and t.op_error then
      fail("format", pre .. ".tile." .. t.field, t.value, "bad tile: " .. t.message)
    end
    error(t, 0)
  end
  local f, v = tiling_diff(params, t)
  if f then fail("format", pre .. ".tile." .. f, v) end
  if x ~= t.x then fail("format", pre .. ".x", vi(x)) end
  if z ~= t.z then fail("format", pre .. ".z", vi(z)) end
  if layer ~= t.layer then fail("format", pre .. ".layer", vi(layer)) end
  if #t.polys > (1 << 20) then fail("format", pre .. ".tile.npolys", vi(#t.polys)) end
  local key = pos_text(x, z, layer)
  if positions[key] then fail("format", pre .. ".x", key) end -- SNAP-014
  positions[key] = true
  local e = new_entry(t)
  local nedits = r.u32(pre .. ".nedits")
  if nedits > #t.polys then fail("format", pre .. ".nedits", vi(nedits)) end
  local pprev
  for k = 0, nedits - 1 do
    local ep = pre .. ".edits[" .. k .. "]"
    local poly, flags, area, pad = unpack("<I4I2BB", r.take(8, ep))
    if poly >= #t.polys or (pprev and poly <= pprev) then fail("format", ep .. ".poly", vi(poly)) end
    if area > 63 then fail("format", ep .. ".area", vi(area)) end
    if pad ~= 0 then fail("format", ep .. ".pad", vi(pad)) end
    local own = t.polys[poly + 1]
    if flags == own.flags and area == own.area then fail("format", ep .. ".flags", vi(flags)) end
    e.flags[poly + 1], e.areas[poly + 1] = flags, area
    pprev = poly
  end
  return sl, g, e
end

-- SNAP-015 order; returns the new state, the mesh is replaced by the caller (SNAP-008).
function M.snapshot_load(mesh, s)
  local r = reader(s)
  local magic = r.take(4, "magic")
  if magic ~= "OPSN" then fail("format", "magic", P.hex(magic)) end
  local version = r.u32("version")
  if version ~= 1 then fail("format", "version", vi(version)) end
  local pb = r.take(60, "params")
  -- SNAP-006
  local p = mesh.params
  local o0, o1, o2, cs, ch, tc, mv, cl, mt = unpack("<dddddI4I4dI4", pb)
  local sv = { o0, o1, o2 }
  for k = 1, 3 do
    if bits(sv[k]) ~= bits(p.origin[k]) then fail("format", "params.tiling.origin[" .. (k - 1) .. "]", vd(sv[k])) end
  end
  if bits(cs) ~= bits(p.cell_size) then fail("format", "params.tiling.cell_size", vd(cs)) end
  if bits(ch) ~= bits(p.cell_height) then fail("format", "params.tiling.cell_height", vd(ch)) end
  if tc ~= p.tile_cells then fail("format", "params.tiling.tile_cells", vi(tc)) end
  if mv ~= p.mvp then fail("format", "params.tiling.max_verts_per_poly", vi(mv)) end
  if bits(cl) ~= bits(p.climb) then fail("format", "params.walkable_climb", vd(cl)) end
  if mt ~= p.max_tiles then fail("format", "params.max_tiles", vi(mt)) end
  local nsections = r.u32("nsections")
  if nsections < 1 or nsections > 16 then fail("format", "nsections", vi(nsections)) end
  local state
  local seen = {}
  for k = 0, nsections - 1 do
    local pre = "sections[" .. k .. "]"
    local tag = r.take(4, pre .. ".tag")
    if tag ~= "SLOT" or seen[tag] then fail("format", pre .. ".tag", vi((unpack("<I4", tag)))) end
    seen[tag] = true
    local sver = r.u32(pre .. ".version")
    if sver ~= 1 then fail("format", pre .. ".version", vi(sver)) end
    local len = unpack("<i8", r.take(8, pre .. ".length"))
    local avail = #s - r.pos
    if len < 0 or len > avail then fail("format", pre .. ".length", string.format("%u", len)) end
    local outer = r.limit
    r.limit = r.pos + len
    state = M.read_slots(mesh, r)
    if r.pos ~= r.limit then fail("format", pre .. ".length", vi(len)) end
    r.limit = outer
  end
  if r.pos ~= #s then fail("format", "length", vi(#s)) end
  return state
end

-- SNAP-010, SNAP-012 .. SNAP-014, SNAP-007.
function M.read_slots(mesh, r)
  local max_tiles = mesh.params.max_tiles
  local gen, slots = {}, {}
  local nfree = r.u32("nfree")
  if nfree > max_tiles then fail("format", "nfree", vi(nfree)) end
  local prev
  for i = 0, nfree - 1 do
    local pre = "free[" .. i .. "]"
    local sl = r.u32(pre .. ".slot")
    if sl >= max_tiles or (prev and sl <= prev) then fail("format", pre .. ".slot", vi(sl)) end
    local g = r.u32(pre .. ".generation")
    if g < 2 or g > GEN_MAX then fail("format", pre .. ".generation", vi(g)) end
    gen[sl] = g
    prev = sl
  end
  local ntiles = r.u32("ntiles")
  if ntiles > max_tiles then fail("format", "ntiles", vi(ntiles)) end
  prev = nil
  local positions = {}
  for i = 0, ntiles - 1 do
    local sl, g, e = read_record(mesh.params, r, i, prev, gen, positions)
    if g ~= 1 then gen[sl] = g end
    slots[sl] = e
    prev = sl
  end
  return { gen = gen, slots = slots }
end

---------------------------------------------------------------------------------------------
-- Loading without parameters: Deserialize (MESH-067 .. MESH-070), OpenSnapshot (SNAP-025, SNAP-026).

-- SNAP-025
function M.snapshot_params(s)
  local r = reader(s)
  local magic = r.take(4, "magic")
  if magic ~= "OPSN" then fail("format", "magic", P.hex(magic)) end
  local version = r.u32("version")
  if version ~= 1 then fail("format", "version", vi(version)) end
  return read_params(r.take(60, "params"))
end

-- SNAP-026: a new mesh in the snapshot's state.
function M.snapshot_open(s)
  local m = M.create(M.snapshot_params(s))
  local st = M.snapshot_load(m, s)
  m.gen, m.slots = st.gen, st.slots
  return m
end

local LINK_FIELDS = { "poly", "edge", "side", "target_edge", "target", "lo", "hi" }

-- MESH-068 .. MESH-070
function M.load(s)
  local r = reader(s)
  local magic = r.take(4, "magic")
  if magic ~= "OPMS" then fail("format", "magic", P.hex(magic)) end
  local version = r.u32("version")
  if version ~= 1 then fail("format", "version", vi(version)) end
  local params = read_params(r.take(60, "params"))
  local ntiles = r.u32("ntiles")
  if ntiles > params.max_tiles then fail("format", "ntiles", vi(ntiles)) end
  local m = { params = params, gen = {}, slots = {} }
  local held = {} -- [i] = {slot, links = { {raw fields...} }}
  local positions, prev = {}, nil
  for i = 0, ntiles - 1 do
    local sl, g, e = read_record(params, r, i, prev, {}, positions)
    local pre = "tiles[" .. i .. "]"
    local nl = r.u32(pre .. ".nlinks")
    local ls = {}
    for k = 0, nl - 1 do
      local lp = pre .. ".links[" .. k .. "]"
      local b = r.take(24, lp)
      local poly, ed, side, te, pad, target = unpack("<I4BBBBi8", b)
      if pad ~= 0 then fail("format", lp .. ".pad", vi(pad)) end
      ls[k + 1] = { poly, ed, side, te, target, b:sub(17, 20), b:sub(21, 24) }
    end
    if g ~= 1 then m.gen[sl] = g end
    m.slots[sl] = e
    held[#held + 1] = { slot = sl, links = ls }
    prev = sl
  end
  if r.pos ~= #s then fail("format", "length", vi(#s)) end
  -- MESH-069: compare with the computed links, record by record.
  for i, h in ipairs(held) do
    local pre = "tiles[" .. (i - 1) .. "]"
    local want = links_of(m, h.slot)
    for k = 1, math.min(#want, #h.links) do
      local w, b = want[k], h.links[k]
      local wl = { w[1], w[2], w[3], w[4], w[5], pack("<f", w[6]), pack("<f", w[7]) }
      for f = 1, 7 do
        if wl[f] ~= b[f] then
          local v
          if f == 5 then v = P.u64hex(b[f])
          elseif f >= 6 then v = vd((unpack("<f", b[f])))
          else v = vi(b[f]) end
          fail("format", pre .. ".links[" .. (k - 1) .. "]." .. LINK_FIELDS[f], v)
        end
      end
    end
    if #want ~= #h.links then fail("format", pre .. ".nlinks", vi(#h.links)) end
  end
  return m
end

return M
