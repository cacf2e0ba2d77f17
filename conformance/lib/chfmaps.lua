-- chfmaps.lua -- hand-made compact heightfields and floor soups for the scenarios that
-- hunt ties and boundaries of the region partitions, contours and polygons
-- (build3d-regions.md, build3d-polys.md; issue 13). Shared by build3d/regions-maps.lua,
-- build3d/contours-maps.lua and build3d/polys-maps.lua (require "chfmaps").
--
-- rng(seed): a deterministic generator (64-bit LCG, Knuth's MMIX constants); r:int(a, b)
--   an integer in [a, b]. No math.random (the scenarios must be deterministic).
-- grid(w, d): an empty map of w x d columns; each column a list of spans {y, top, area}
--   (top = the open space's top, nil: none).
-- fill(g, x0, z0, x1, z1, fn): calls fn(col, x, z) for the columns of the box (clipped).
-- random_map(r, opts): a map of floors, holes, other areas, steps and bridges.
-- chf(g, wh, wc): the SPAN-170 bytes (hex) of map g with links by SPAN-142
--   (walkable height wh, climb wc); when g.cut(x, z, d) is true the links of column
--   (x, z) in direction d are NOT_CONNECTED (links need not be mutual, SPAN-143).
-- ascii(rows): a one-layer map from strings, one character a column ('.' none, '#' area 0,
--   a digit its area), row 1 is z = 0.
local M = {}

local Rng = {}
Rng.__index = Rng

function M.rng(seed)
  return setmetatable({ s = seed * 2 + 1 }, Rng)
end

function Rng:next()
  self.s = self.s * 6364136223846793005 + 1442695040888963407 -- wraps mod 2^64
  return (self.s >> 33) & 0x7fffffff
end

function Rng:int(a, b)
  return a + self:next() % (b - a + 1)
end

function M.grid(w, d)
  local g = { w = w, d = d, cols = {} }
  for c = 1, w * d do g.cols[c] = { { y = 10, area = 1 } } end
  return g
end

function M.fill(g, x0, z0, x1, z1, fn)
  for z = math.max(z0, 0), math.min(z1, g.d - 1) do
    for x = math.max(x0, 0), math.min(x1, g.w - 1) do fn(g.cols[z * g.w + x + 1], x, z) end
  end
end

-- One random box of the map, kind k: 1 hole, 2 another area, 3 area 0, 4 a step, 5 a bridge.
local function box(g, r, k)
  local x0, z0 = r:int(0, g.w - 1), r:int(0, g.d - 1)
  local x1, z1 = x0 + r:int(0, g.w // 2), z0 + r:int(0, g.d // 2)
  local a, dy, by = r:int(2, 4), r:int(1, 14), r:int(28, 40)
  M.fill(g, x0, z0, x1, z1, function(col)
    local s = col[1]
    if k == 1 then
      for i = #col, 1, -1 do col[i] = nil end
    elseif s and k == 2 then s.area = a
    elseif s and k == 3 then s.area = 0
    elseif s and k == 4 then s.y = s.y + dy
    elseif s and k == 5 and #col == 1 then
      s.top = s.y + by - 3
      col[2] = { y = s.y + by, area = a == 4 and 1 or a }
    end
  end)
end

-- opts: w, d (sizes), boxes (count), kinds (list of box kinds to draw from)
function M.random_map(r, opts)
  local g = M.grid(opts.w, opts.d)
  local kinds = opts.kinds or { 1, 2, 3, 4, 5 }
  for _ = 1, opts.boxes do box(g, r, kinds[r:int(1, #kinds)]) end
  return g
end

function M.ascii(rows)
  local g = { w = #rows[1], d = #rows, cols = {} }
  for z, row in ipairs(rows) do
    for x = 1, #row do
      local ch = row:sub(x, x)
      local col = {}
      if ch == "#" then col[1] = { y = 10, area = 0 }
      elseif ch ~= "." then col[1] = { y = 10, area = tonumber(ch, 36) } end
      g.cols[(z - 1) * g.w + x] = col
    end
  end
  return g
end

local DX, DZ = { -1, 0, 1, 0 }, { 0, 1, 0, -1 }

local function u32(n)
  return string.format("%02x%02x%02x%02x", n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255)
end

-- SPAN-142: the link of span s of column (x, z) in direction d.
local function link(g, s, x, z, d, wh, wc)
  local nx, nz = x + DX[d], z + DZ[d]
  if nx < 0 or nz < 0 or nx >= g.w or nz >= g.d then return 63 end
  local sh = math.min((s.top or s.y + 255) - s.y, 255)
  for i, ns in ipairs(g.cols[nz * g.w + nx + 1]) do
    local nh = math.min((ns.top or ns.y + 255) - ns.y, 255)
    local bot, top = math.max(s.y, ns.y), math.min(s.y + sh, ns.y + nh)
    if top - bot >= wh and math.abs(ns.y - s.y) <= wc then return i - 1 end
  end
  return 63
end

function M.chf(g, wh, wc)
  local out, spans, n = {}, {}, 0
  for z = 0, g.d - 1 do
    for x = 0, g.w - 1 do
      local col = g.cols[z * g.w + x + 1]
      out[#out + 1] = string.format("%02x", #col)
      for _, s in ipairs(col) do
        local h = math.min((s.top or s.y + 255) - s.y, 255)
        local l = {}
        for d = 1, 4 do
          l[d] = link(g, s, x, z, d, wh, wc)
          if g.cut and g.cut(x, z, d - 1) then l[d] = 63 end -- a one-way link (SPAN-143)
        end
        spans[#spans + 1] = string.format("%02x%02x%02x%02x%02x%02x%02x%02x", s.y & 255, s.y >> 8,
                                          h, s.area, l[1], l[2], l[3], l[4])
        n = n + 1
      end
    end
  end
  return table.concat({ "4f50434846303031", u32(0), u32(0), u32(g.w), u32(g.d), u32(400),
                        u32(wh), u32(wc), u32(n) }) .. table.concat(out) .. table.concat(spans)
end

-- ---------------------------------------------------------------- floor soups (LVL-010)

-- A soup under construction: s.v vertices {x, y, z}, s.f triangles (0-based).
function M.soup_new() return { v = {}, f = {} } end

local function quad(s, a, b, c, d)
  local n = #s.v
  s.v[n + 1], s.v[n + 2], s.v[n + 3], s.v[n + 4] = a, b, c, d
  s.f[#s.f + 1] = { n, n + 1, n + 2 }
  s.f[#s.f + 1] = { n, n + 2, n + 3 }
end

-- A level quad over [x0, x1] x [z0, z1] at height y, facing up.
function M.floor_quad(s, x0, z0, x1, z1, y)
  quad(s, { x0, y, z0 }, { x0, y, z1 }, { x1, y, z1 }, { x1, y, z0 })
end

-- A ramp over [x0, x1] x [z0, z1] rising from y0 at x0 to y1 at x1.
function M.ramp(s, x0, z0, x1, z1, y0, y1)
  quad(s, { x0, y0, z0 }, { x0, y0, z1 }, { x1, y1, z1 }, { x1, y1, z0 })
end

-- A prism over the convex polygon pts ({x, z}, in the order of floor_quad's corners, so
-- that the top faces up) from y0 to y1: four walls and the top.
function M.prism(s, pts, y0, y1)
  local n = #pts
  for i = 1, n do
    local p, q = pts[i], pts[i % n + 1]
    quad(s, { p[1], y0, p[2] }, { p[1], y1, p[2] }, { q[1], y1, q[2] }, { q[1], y0, q[2] })
  end
  local base = #s.v
  for i = 1, n do s.v[base + i] = { pts[i][1], y1, pts[i][2] } end
  for i = 2, n - 1 do s.f[#s.f + 1] = { base, base + i - 1, base + i } end
end

-- A random floor soup: a floor of c x c metre cells over nx x nz cells at y = 0 with some
-- cells left out (holes), some raised (steps under and over the climb), ramps, and boxes
-- standing on it, some turned by the angle (3, 4) / 5.
function M.random_soup(r, opts)
  local s, c = M.soup_new(), opts.cell
  for z = 0, opts.nz - 1 do
    for x = 0, opts.nx - 1 do
      local k = r:int(1, 100)
      if k <= opts.holes then
        -- hole: nothing
      elseif k <= opts.holes + opts.steps then
        M.floor_quad(s, x * c, z * c, (x + 1) * c, (z + 1) * c, r:int(1, 12) / 10)
      elseif k <= opts.holes + opts.steps + opts.ramps then
        M.ramp(s, x * c, z * c, (x + 1) * c, (z + 1) * c, 0, r:int(1, 8) / 10)
      else
        M.floor_quad(s, x * c, z * c, (x + 1) * c, (z + 1) * c, 0)
      end
    end
  end
  for _ = 1, opts.boxes do
    local cx, cz = r:int(0, opts.nx * c * 10) / 10, r:int(0, opts.nz * c * 10) / 10
    local hw, hd = r:int(3, 20) / 10, r:int(3, 20) / 10
    local h = ({ 0.5, 1.5, 5, 5 })[r:int(1, 4)]
    local pts
    if r:int(0, 1) == 0 then
      pts = { { cx - hw, cz - hd }, { cx - hw, cz + hd }, { cx + hw, cz + hd }, { cx + hw, cz - hd } }
    else -- turned: axes (0.6, 0.8) and (-0.8, 0.6)
      local ux, uz, vx, vz = 0.6 * hw, 0.8 * hw, -0.8 * hd, 0.6 * hd
      pts = { { cx - ux - vx, cz - uz - vz }, { cx - ux + vx, cz - uz + vz },
              { cx + ux + vx, cz + uz + vz }, { cx + ux - vx, cz + uz - vz } }
    end
    M.prism(s, pts, 0, h)
  end
  return s
end

-- The LVL-010 bytes (hex) of soup s.
function M.soup_bytes(t, s)
  return require("soups3d").soup(t, s.v, s.f)
end

-- ---------------------------------------------------------------- the test floors

M.SOUPS = {
  { nx = 14, nz = 14, cell = 1.5, holes = 18, steps = 8, ramps = 6, boxes = 4 },
  { nx = 10, nz = 16, cell = 1.5, holes = 30, steps = 0, ramps = 0, boxes = 0 },
  { nx = 16, nz = 10, cell = 1.2, holes = 10, steps = 15, ramps = 10, boxes = 8 },
  { nx = 8, nz = 8, cell = 2.4, holes = 12, steps = 0, ramps = 20, boxes = 6 },
  { nx = 20, nz = 6, cell = 1.5, holes = 25, steps = 5, ramps = 5, boxes = 2 },
}

-- A floor with pillars in rows and columns: in the layer partition one region holds holes
-- whose leftmost vertices share x (REG-216's z tie) and candidates at equal distances
-- (REG-217's ties); the second has pillars of two sizes at one x.
function M.pillars(t, xs, zs, size)
  local s = M.soup_new()
  M.floor_quad(s, 0, 0, 18, 18, 0)
  for _, x in ipairs(xs) do
    for k, z in ipairs(zs) do
      local h = size + (k % 2) * 0.3
      M.prism(s, { { x, z }, { x, z + h }, { x + size, z + h }, { x + size, z } }, 0, 4)
    end
  end
  return M.soup_bytes(t, s)
end

-- A floor of 2 x 2 Humanoid tiles with stepped mounds astride the tile borders x = 19.2
-- and z = 19.2: the raw heights along the border rise and fall by steps under the climb,
-- two mounds of one height tie for the farthest vertex (REG-225's first in walk order), a
-- mound of 0.9 m peaks at the climb itself.
function M.mounds(t)
  local s = M.soup_new()
  M.floor_quad(s, 0, 0, 38.4, 38.4, 0)
  local function mound(cx, cz, peak)
    local k = 0
    for y = 0.3, peak + 1e-9, 0.3 do
      local hw = 2.4 - k * 0.6
      M.prism(s, { { cx - hw, cz - hw }, { cx - hw, cz + hw }, { cx + hw, cz + hw }, { cx + hw, cz - hw } }, 0, y)
      k = k + 1
    end
  end
  for _, m in ipairs({ { 19.2, 4, 1.5 }, { 19.2, 10.4, 1.5 }, { 19.2, 16, 0.9 }, { 5, 19.2, 0.9 },
                       { 12, 19.2, 1.2 }, { 28, 19.2, 1.2 }, { 19.2, 30, 0.6 } }) do
    mound(m[1], m[2], m[3])
  end
  return M.soup_bytes(t, s)
end

-- The floors of contours-maps.lua as soup bytes: two pillar grids, the mounds, then the
-- generated floors of SOUPS (rng 29, in order).
function M.test_soups(t)
  local out = { M.pillars(t, { 4, 8.5, 13 }, { 4, 8.5, 13 }, 1),
                M.pillars(t, { 3, 9 }, { 2, 6, 10, 14 }, 1.2), M.mounds(t) }
  local r = M.rng(29)
  for _, o in ipairs(M.SOUPS) do out[#out + 1] = M.soup_bytes(t, M.random_soup(r, o)) end
  return out
end

return M
