-- offmesh3d.lua -- shared by the query/offmesh-build-* scenarios (require "offmesh3d"): the
-- off-mesh link definitions of a build (spec/build3d-polys.md POLY-240 .. POLY-245) placed a
-- second way, in Lua, from the build without them: each definition's column by POLY-242's
-- half-open extents, its layer by POLY-243, its slot fields by POLY-244, then every tile
-- remade by tile.view + tile.create (FMT-073) and a mesh made of them, so that a scenario
-- can compare the build's mesh bytes with these.
--
-- f32(x): the binary32 nearest to x.
-- place(t, r, links): for the answer r of a build WITHOUT links, the expected slots:
--   { [tile index in r.tiles] = { {i = definition index (0-based), slot = {...}}, ... } }
--   and the count of slots stored.
-- remade(t, r, links): a mesh (handle) of r's tiles with the slots of place(); and the count.
local M = {}

function M.f32(x) return string.unpack("<f", string.pack("<f", x)) end
local f32 = M.f32

-- FMT-005 on one axis, then POLY-242's half-open rule (the exact test decides)
local function column(v, o, W, n)
  for k = 0, n - 1 do
    local lo, hi = o + k * W, o + (k + 1) * W
    if lo <= v and v < hi then return k end
  end
  return nil
end

local function world_y_range(view)
  local lo, hi
  for _, p in ipairs(view.verts) do
    local y = view.origin_y + p[2]
    if not lo or y < lo then lo = y end
    if not hi or y > hi then hi = y end
  end
  return lo, hi
end

function M.place(t, r, links)
  local views, byc = {}, {}
  for k, ti in ipairs(r.tiles) do
    local v = t:call("tile.view", { tile = ti.tile })
    views[k] = v
    local key = ti.x .. "," .. ti.z
    byc[key] = byc[key] or {}
    table.insert(byc[key], k) -- layers ascending: the build's order
  end
  local out, count = {}, 0
  if #r.tiles == 0 then return out, 0, views end
  local tl = views[1].tiling
  local W = tl.tile_cells * tl.cell_size
  for i, l in ipairs(links) do
    local tx = column(l.start[1], tl.origin[1], W, r.ntx)
    local tz = column(l.start[3], tl.origin[3], W, r.ntz)
    local cands = tx and tz and byc[tx .. "," .. tz]
    if cands then
      local best, bd
      for _, k in ipairs(cands) do -- POLY-243
        local lo, hi = world_y_range(views[k])
        local y = l.start[2]
        local d = (y < lo) and (lo - y) or ((y > hi) and (y - hi) or 0.0)
        if not best or d < bd then best, bd = k, d end
      end
      local v = views[best]
      local x0, z0 = tl.origin[1] + v.x * W, tl.origin[3] + v.z * W
      local fW = f32(W)
      local function loc(p, lim)
        local x, y, z = f32(p[1] - x0), f32(p[2] - v.origin_y), f32(p[3] - z0)
        if lim then x = math.min(x, fW); z = math.min(z, fW) end
        return { x, y, z }
      end
      out[best] = out[best] or {}
      table.insert(out[best], { i = i - 1, slot = {
        start = loc(l.start, true), ["end"] = loc(l["end"], false), radius = f32(l.radius),
        flags = l.flags, area = l.area, bidirectional = l.bidirectional == true or l.bidirectional == 1,
        user_id = l.user_id } })
      count = count + 1
    end
  end
  return out, count, views
end

function M.remade(t, r, links)
  local Q = require("query")
  local placed, count, views = M.place(t, r, links)
  local m = t:call("mesh.create", Q.params(t, r.mesh)).handle
  for k, ti in ipairs(r.tiles) do
    local h = ti.tile
    if placed[k] then
      local v = views[k]
      local s = {}
      for _, e in ipairs(placed[k]) do s[#s + 1] = e.slot end
      v.offmesh = s
      h = t:call("tile.create", v).handle
    end
    t:call("mesh.add_tile", { mesh = m, tile = h })
  end
  return m, count, placed
end

return M
