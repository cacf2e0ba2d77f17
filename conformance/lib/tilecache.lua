-- tilecache.lua -- the hash-matrix scenarios of the run-time tile cache
-- (build3d-runtime.md section 11; build3d/tilecache on `terrain`, build3d/tilecache-city on
-- `city`), shared by their files (require "tilecache").
--
-- Per level: the history of section 11 (a cached build, obstacles of the three shapes and two
-- volumes, sliced and whole updates, snapshots, more changes, restores, everything removed),
-- run twice (repair on, with checkpoints and the error cases; repair off, compared); a walk of
-- one small cylinder at a time on two caches (repair on and off); a probe of the queue's edge;
-- the chunked and solid-column inputs; snapshots of other caches; handle lifetimes. Beside
-- the checkpoints it asserts in Lua:
--   * a model of the cache (ids, live sets, the queue predicted from the shapes' boxes and
--     the tiles' widened grids, RT-025, RT-042, RT-050, RT-051, RT-060) checked after every
--     operation against `id`, `queued` and `tilecache.queue`, including a box whose grown box
--     ends exactly on a widened grid and one a ulp short;
--   * cached equals plain (RT-015) for soup, chunk and columns, with settings obstacles too;
--   * baking (RT-027, RT-043): once the queue is empty, the mesh's tiles equal those of a
--     fresh build with the live obstacles and volumes in the settings;
--   * snapshots round-trip (SNAP-022), a restore gives back the mesh saved with the snapshot
--     (RT-133) and, for the same later calls, the same meshes and snapshot (RT-134);
--   * after removing everything the tiles are the first build's (RT-027);
--   * every failing call (issue 6's error cases) leaves mesh.save and
--     tilecache.snapshot_save unchanged (RT-133, SNAP-021, CONF-014);
--   * the repair switched off gives the same bytes (RT-106, RT-107);
--   * -0.0 is stored as +0.0 (RT-024); an edit on a queued, unchanged tile stays (RT-066);
--   * the handle rules of RT-151 (cache, mesh = cache + 1, tiles; the mesh handle borrowed);
--   * the id limits (RT-026, RT-040) through a restored snapshot whose next ids are
--     4294967294 and 4294967295; RT-152's decoding order and values; the refusal of the
--     cache's mesh after every argument is read (MESH-018, SNAP-023).
local LEVELS = require("pipeline3d").LEVELS

local M = {}

M.CLAUSES = {
  "RT-010", "RT-011", "RT-012", "RT-013", "RT-014", "RT-015", "RT-016", "RT-017", "RT-018",
  "RT-020", "RT-021", "RT-022", "RT-023", "RT-024", "RT-025", "RT-026", "RT-027",
  "RT-040", "RT-041", "RT-042", "RT-043", "RT-050", "RT-051", "RT-052", "RT-053",
  "RT-060", "RT-062", "RT-063", "RT-065", "RT-066",
  "RT-080", "RT-081", "RT-083", "RT-084", "RT-085", "RT-086", "RT-088",
  "RT-101", "RT-102", "RT-103", "RT-104", "RT-105", "RT-106", "RT-107",
  "RT-130", "RT-131", "RT-132", "RT-133", "RT-134",
  "RT-150", "RT-151", "RT-152", "RT-153",
  "SNAP-016", "SNAP-017", "SNAP-018", "SNAP-019", "SNAP-020", "SNAP-021", "SNAP-022",
  "SNAP-023", "SNAP-024", "MESH-018",
}

-- ------------------------------------------------------------------ the shapes per level
-- Heights span every floor of the level; x/z in the level's extent (terrain [0, 24]^2,
-- city [0, 56]^2 with streets at 0..8, 24..32, 48..56). Humanoid tiles are 19.2 wide.
M.SHAPES = {
  terrain = {
    cylinder = { shape = "cylinder", center = { 6, -20, 7 }, radius = 1.5, height = 40 },
    box = { shape = "box", bmin = { 13, -20, 3 }, bmax = { 20.5, 20, 5 } },
    obox = { shape = "oriented_box", center = { 9, 0, 15 }, half = { 3, 20, 1 }, yaw = 0.7 },
    cylinder2 = { shape = "cylinder", center = { 19, -20, 19.5 }, radius = 2, height = 40 },
    hole = { points = { { 17, 14 }, { 22, 14 }, { 22, 18 }, { 17, 18 } }, ymin = -20, ymax = 20,
             area = 0 },
    swamp = { points = { { 3, 19 }, { 7, 18 }, { 8, 22 }, { 4, 23 } }, ymin = -20, ymax = 20,
              area = 7 },
  },
  city = {
    cylinder = { shape = "cylinder", center = { 28, -1, 28 }, radius = 2, height = 30 },
    box = { shape = "box", bmin = { 1, -1, 10 }, bmax = { 6, 4, 22 } },
    obox = { shape = "oriented_box", center = { 28, 9, 16 }, half = { 1.5, 12, 4 }, yaw = 0.7 },
    cylinder2 = { shape = "cylinder", center = { 52, -1, 40 }, radius = 2, height = 30 },
    hole = { points = { { 9, 33 }, { 23, 33 }, { 23, 47 }, { 9, 47 } }, ymin = -1, ymax = 30,
             area = 0 },
    swamp = { points = { { 33, 9 }, { 47, 9 }, { 47, 23 }, { 33, 23 } }, ymin = -1, ymax = 30,
              area = 9 },
  },
}

-- The walk of RT-102's informative note: one small cylinder at a time, added, updated,
-- removed, updated. Most of these layers are repaired (RT-101 .. RT-105), a few fall back.
M.WALK = {
  terrain = { y = -20, points = { { 4, 4 }, { 12, 6 }, { 20, 10 }, { 6, 18 }, { 15, 15 }, { 21, 21 } } },
  city = { y = -1, points = { { 4, 4 }, { 28, 12 }, { 12, 28 }, { 16, 16 }, { 40, 40 }, { 16, 40 },
                              { 40, 16 }, { 52, 28 }, { 28, 52 }, { 20, 4 }, { 44, 30 }, { 30, 44 } } },
}

-- ------------------------------------------------------------------ bytes

local function unhex(h) return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end)) end

-- MESH-040 .. MESH-043: the mesh's tiles as "x,z,layer" -> the tile's bytes and its edits
-- (slots, generations and links, which name slots, left out: RT-027 compares tiles).
function M.tiles(hex)
  local b = unhex(hex)
  local n = string.unpack("<I4", b, 69)
  local pos, out, count = 73, {}, 0
  for _ = 1, n do
    local x, z, layer, len = string.unpack("<i4i4i4I4", b, pos + 8)
    pos = pos + 24
    local tile = b:sub(pos, pos + len - 1)
    pos = pos + len
    local ne = string.unpack("<I4", b, pos)
    local edits = b:sub(pos, pos + 4 + 8 * ne - 1)
    pos = pos + 4 + 8 * ne
    pos = pos + 4 + 24 * string.unpack("<I4", b, pos)
    out[x .. "," .. z .. "," .. layer] = tile .. edits
    count = count + 1
  end
  assert(pos == #b + 1, "mesh bytes end after the last tile record")
  return out, count
end

-- the tiling origin (x, z) of a mesh (MESH-040 params.tiling.origin[0], [2])
local function origin_of(hex)
  local b = unhex(hex:sub(1, 2 * 72))
  local ox, _, oz = string.unpack("<ddd", b, 9)
  return ox, oz
end

function M.same_tiles(a, b)
  local ta, na = M.tiles(a)
  local tb, nb = M.tiles(b)
  if na ~= nb then return false end
  for k, v in pairs(ta) do
    if tb[k] ~= v then return false end
  end
  return true
end

-- ------------------------------------------------------------------ the model

-- SPAN-020 CeilCells, on the rounded quotient
local function ceil_cells(a, b)
  local q = a / b
  local n = math.floor(q)
  local f = q - n
  if f > 0.5 or (f == 0.5 and n % 2 == 1) then n = n + 1 end
  if n < q then n = n + 1 end
  return n
end

local Model = {}
Model.__index = Model

-- s: the settings of the build (settings.preset); r: the build's answer; first: its mesh.
local function new_model(t, s, r, first)
  local m = setmetatable({ t = t, obst = {}, vols = {}, next_o = 1, next_v = 1, queue = {},
                           ntx = r.ntx, ntz = r.ntz }, Model)
  m.cs = s.cell_size
  m.R = ceil_cells(s.agent_radius, s.cell_size)
  m.T = s.tile_cells
  m.border = m.R + 3 -- SPAN-022
  m.g = m.R * m.cs   -- RT-020
  m.ox, m.oz = origin_of(first)
  return m
end

function Model:copy()
  local c = setmetatable({}, Model)
  for k, v in pairs(self) do c[k] = v end
  c.obst, c.vols, c.queue = {}, {}, {}
  for i, v in ipairs(self.obst) do c.obst[i] = v end
  for i, v in ipairs(self.vols) do c.vols[i] = v end
  for i, v in ipairs(self.queue) do c.queue[i] = v end
  return c
end

-- RT-025: the x/z box of the grown footprint
function Model:obstacle_box(o)
  local g = self.g
  if o.shape == "cylinder" then
    local rg = o.radius + g
    return o.center[1] - rg, o.center[1] + rg, o.center[3] - rg, o.center[3] + rg
  elseif o.shape == "box" then
    return o.bmin[1] - g, o.bmax[1] + g, o.bmin[3] - g, o.bmax[3] + g
  end
  local sc = self.t:call("math.sincos", { a = o.yaw })
  local s, c = math.abs(self.t:num(sc.s)), math.abs(self.t:num(sc.c))
  local hx, hz = o.half[1] + g, o.half[3] + g
  local ex, ez = hx * c + hz * s, hx * s + hz * c
  return o.center[1] - ex, o.center[1] + ex, o.center[3] - ez, o.center[3] + ez
end

-- RT-042: the volume's box
function Model.volume_box(_, v)
  local x0, x1, z0, z1 = math.huge, -math.huge, math.huge, -math.huge
  for _, p in ipairs(v.points) do
    x0, x1 = math.min(x0, p[1]), math.max(x1, p[1])
    z0, z1 = math.min(z0, p[2]), math.max(z1, p[2])
  end
  return x0, x1, z0, z1
end

-- RT-050, RT-051: the tiles whose widened grid touches the box, in cache order, appended
-- when not queued yet (every tile of these levels is built, so every tile is cached).
function Model:queue_box(x0, x1, z0, z1)
  local w = self.R + 1
  local width = self.T + 2 * self.border
  local function line(o, gi) return o + gi * self.cs end -- SPAN-100 X(g), Z(g)
  for tz = 0, self.ntz - 1 do
    for tx = 0, self.ntx - 1 do
      local gx0, gz0 = tx * self.T - self.border, tz * self.T - self.border
      local lx, hx = line(self.ox, gx0 - w), line(self.ox, gx0 + width + w)
      local lz, hz = line(self.oz, gz0 - w), line(self.oz, gz0 + width + w)
      if lx <= x1 and x0 <= hx and lz <= z1 and z0 <= hz then
        local key = tx .. "," .. tz
        local queued = false
        for _, q in ipairs(self.queue) do queued = queued or q == key end
        if not queued then self.queue[#self.queue + 1] = key end
      end
    end
  end
end

-- Checks an answer's queued count and the cache's queue against the model.
function Model:check_queue(c, queued, tag)
  local t = self.t
  t:check(queued == nil or queued == #self.queue,
          tag .. ": queued is the queue length (RT-153): " .. tostring(queued) .. " vs " .. #self.queue)
  local q = t:call("tilecache.queue", { cache = c.cache }).queue
  local got = {}
  for i, e in ipairs(q) do got[i] = e[1] .. "," .. e[2] end
  t:check(table.concat(got, " ") == table.concat(self.queue, " "),
          tag .. ": queue in the predicted order (RT-050, RT-051): [" .. table.concat(got, " ") ..
          "] vs [" .. table.concat(self.queue, " ") .. "]")
end

function Model:add_obstacle(c, name, o, tag)
  local a = self.t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = o })
  self.t:check(a.id == self.next_o, tag .. ": obstacle ids 1, 2, 3, ... (RT-130)")
  self.obst[#self.obst + 1] = { id = a.id, name = name, o = o }
  self.next_o = self.next_o + 1
  self:queue_box(self:obstacle_box(o))
  self:check_queue(c, a.queued, tag)
  return a.id
end

function Model:add_volume(c, name, v, tag)
  local a = self.t:call("tilecache.add_volume", { cache = c.cache, volume = v })
  self.t:check(a.id == self.next_v, tag .. ": volume ids 1, 2, 3, ... (RT-130)")
  self.vols[#self.vols + 1] = { id = a.id, name = name, v = v }
  self.next_v = self.next_v + 1
  self:queue_box(self:volume_box(v))
  self:check_queue(c, a.queued, tag)
  return a.id
end

local function take(list, id)
  for i, e in ipairs(list) do
    if e.id == id then return table.remove(list, i) end
  end
  error("the model has no live id " .. id)
end

function Model:remove_obstacle(c, id, tag)
  local a = self.t:call("tilecache.remove_obstacle", { cache = c.cache, id = id })
  self:queue_box(self:obstacle_box(take(self.obst, id).o)) -- RT-050: the box of the shape removed
  self:check_queue(c, a.queued, tag)
end

function Model:remove_volume(c, id, tag)
  local a = self.t:call("tilecache.remove_volume", { cache = c.cache, id = id })
  self:queue_box(self:volume_box(take(self.vols, id).v))
  self:check_queue(c, a.queued, tag)
end

-- RT-060: update(k) takes min(k, length) tiles from the front; nil is UpdateAll.
function Model:update(c, k, tag)
  local a = self.t:call("tilecache.update", { cache = c.cache, max_tiles = k })
  local want = math.min(k or #self.queue, #self.queue)
  self.t:check(a.processed == want, tag .. ": processed " .. tostring(a.processed) .. ", expected " .. want)
  for _ = 1, want do table.remove(self.queue, 1) end
  self:check_queue(c, a.queued, tag)
end

-- ------------------------------------------------------------------ helpers

local function save(t, c) return t:call("mesh.save", { mesh = c.mesh }).bytes end
local function record_cp(t, name, kind, bytes) t:checkpoint(name, kind, bytes) end
local function snap(t, c) return t:call("tilecache.snapshot_save", { cache = c.cache }).bytes end

-- RT-027, RT-043: a fresh build with the model's live obstacles and volumes in the settings
-- (in the order they were added) has the cache mesh's tiles.
local function check_baked(t, m, c, s, level, tag)
  local bs = {}
  for k, v in pairs(s) do bs[k] = v end
  local obst, vols = {}, {}
  for i, e in ipairs(m.obst) do obst[i] = e.o end
  for i, e in ipairs(m.vols) do vols[i] = e.v end
  bs.obstacles = #obst > 0 and obst or nil
  bs.volumes = #vols > 0 and vols or nil
  local fresh = t:call("build3d.soup", { settings = bs, level = level })
  t:check(M.same_tiles(save(t, c), t:call("mesh.save", { mesh = fresh.mesh }).bytes),
          tag .. ": the cache's tiles equal a fresh build with the same obstacles and volumes (RT-027, RT-043)")
end

-- Each call fails with the error given and changes neither the mesh nor the snapshot
-- (RT-133, SNAP-021; CONF-014).
local function errors_unchanged(t, c, tag, cases)
  local m0, s0 = save(t, c), snap(t, c)
  for _, e in ipairs(cases) do
    t:expect_error(e[1], e[2], e[3])
    t:check(save(t, c) == m0 and snap(t, c) == s0,
            tag .. ": " .. e[1] .. " " .. e[3].field .. ": a failed call leaves mesh.save and tilecache.snapshot_save unchanged")
  end
end

local function obstacle_errors(c, t_array)
  local function add(o) return { cache = c.cache, obstacle = o } end
  local function vol(v) return { cache = c.cache, volume = v } end
  local sq = { { 1, 1 }, { 2, 1 }, { 2, 2 }, { 1, 2 } }
  local function R(field, value) return { kind = "out_of_range", field = field, value = value } end
  local A = "tilecache.add_obstacle"
  local V = "tilecache.add_volume"
  return {
    -- RT-023 (SPAN-033 with the prefix obstacle.): NaN, infinities, beyond 2^21, sizes
    { A, add({ shape = "cylinder", center = { 0 / 0, 0, 1 }, radius = 1, height = 1 }), R("obstacle.center.x", "NaN") },
    { A, add({ shape = "cylinder", center = { 1, 0, 1 }, radius = 1 / 0, height = 1 }), R("obstacle.radius", "Infinity") },
    { A, add({ shape = "cylinder", center = { 1, -1 / 0, 1 }, radius = 1, height = 1 }), R("obstacle.center.y", "-Infinity") },
    { A, add({ shape = "cylinder", center = { 1, 0, 1 }, radius = 0, height = 1 }), R("obstacle.radius", "0") },
    { A, add({ shape = "cylinder", center = { 1, 0, 1 }, radius = -2, height = 1 }), R("obstacle.radius", "-2") },
    { A, add({ shape = "cylinder", center = { 1, 0, 1 }, radius = 1, height = -0.5 }), R("obstacle.height", "-0.5") },
    { A, add({ shape = "cylinder", center = { 2097152, 0, 1 }, radius = 1, height = 1 }), R("obstacle.radius", "1") },
    { A, add({ shape = "box", bmin = { -2097153, 0, 1 }, bmax = { 2, 1, 2 } }), R("obstacle.bmin.x", "-2097153") },
    { A, add({ shape = "box", bmin = { 1, 0, 1 }, bmax = { 2, 1, 0 / 0 } }), R("obstacle.bmax.z", "NaN") },
    { A, add({ shape = "box", bmin = { 1, 3, 1 }, bmax = { 2, 1, 2 } }), R("obstacle.bmax.y", "1") },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { 0, 1, 1 }, yaw = 0.5 }), R("obstacle.half.x", "0") },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { 1, -1, 1 }, yaw = 0.5 }), R("obstacle.half.y", "-1") },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { 1, 1, -3 }, yaw = 0.5 }), R("obstacle.half.z", "-3") },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { 1, 1, 1 }, yaw = 4194304 }), R("obstacle.yaw", "4194304") },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { 1, 1, 1 }, yaw = 1 / 0 }), R("obstacle.yaw", "Infinity") },
    -- RT-152: decoding
    { A, add("round"), { kind = "argument", field = "obstacle", value = "" } },
    { A, { cache = c.cache }, { kind = "argument", field = "obstacle", value = "" } },
    { A, add({ shape = "sphere", center = { 1, 0, 1 }, radius = 1 }), { kind = "argument", field = "obstacle.shape", value = "" } },
    { A, add({ shape = "cylinder", center = { 1, 0 }, radius = 1, height = 1 }), { kind = "argument", field = "obstacle.center", value = "" } },
    { A, add({ shape = "cylinder", center = { 1, 0, 1 }, height = 1 }), { kind = "argument", field = "obstacle.radius", value = "" } },
    { A, add({ shape = "box", bmin = { 1, 0, 1 } }), { kind = "argument", field = "obstacle.bmax", value = "" } },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { 1, 1, 1 } }), { kind = "argument", field = "obstacle.yaw", value = "" } },
    -- RT-152: shape first (any other value, the empty value), then the shape's members in
    -- order, each read whole (a malformed item names the whole array)
    { A, add({ shape = 1, center = { 1, 0, 1 }, radius = 1, height = 1 }), { kind = "argument", field = "obstacle.shape", value = "" } },
    { A, add({ center = { 1, 0, 1 }, radius = 1, height = 1 }), { kind = "argument", field = "obstacle.shape", value = "" } },
    { A, add({ shape = "cylinder", height = 1 }), { kind = "argument", field = "obstacle.center", value = "" } },
    { A, add({ shape = "cylinder", center = { 1, "0", 1 }, radius = 1, height = 1 }), { kind = "argument", field = "obstacle.center", value = "" } },
    { A, add({ shape = "box", bmin = { 1, 0 }, bmax = "x" }), { kind = "argument", field = "obstacle.bmin", value = "" } },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { 1, 1, 1, 1 }, yaw = "a" }), { kind = "argument", field = "obstacle.half", value = "" } },
    -- RT-024: -0.0 is replaced after RT-023's checks, which report it as -0
    { A, add({ shape = "cylinder", center = { 1, 0, 1 }, radius = -0.0, height = 1 }), R("obstacle.radius", "-0") },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { -0.0, 1, 1 }, yaw = 0.5 }), R("obstacle.half.x", "-0") },
    { A, add({ shape = "oriented_box", center = { 1, 0, 1 }, half = { 1, 1, -0.0 }, yaw = 0.5 }), R("obstacle.half.z", "-0") },
    -- RT-040 (SPAN-031 with the prefix volume.)
    { V, vol({ points = { { 1, 1 }, { 2, 1 } }, ymin = 0, ymax = 1, area = 0 }), R("volume.npoints", "2") },
    { V, vol({ points = { { 1, 1 }, { 2, 1 }, { 2, 0 / 0 } }, ymin = 0, ymax = 1, area = 0 }), R("volume.points[2].z", "NaN") },
    { V, vol({ points = { { 1, 1 }, { 2, 1 }, { -2097153, 2 } }, ymin = 0, ymax = 1, area = 0 }), R("volume.points[2].x", "-2097153") },
    { V, vol({ points = sq, ymin = -1 / 0, ymax = 1, area = 0 }), R("volume.ymin", "-Infinity") },
    { V, vol({ points = sq, ymin = 2, ymax = 1, area = 0 }), R("volume.ymax", "1") },
    { V, vol({ points = sq, ymin = 0, ymax = 1, area = 64 }), R("volume.area", "64") },
    -- RT-152: decoding
    { V, vol({ points = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 }, { 6, 1 }, { 7, 1 },
                          { 8, 1 }, { 9, 1 }, { 10, 1 }, { 11, 1 }, { 12, 1 }, { 13, 2 } },
               ymin = 0, ymax = 1, area = 0 }), R("volume.npoints", "13") },
    { V, vol("square"), { kind = "argument", field = "volume", value = "" } },
    { V, vol({ points = "sq", ymin = 0, ymax = 1, area = 0 }), { kind = "argument", field = "volume.points", value = "" } },
    { V, vol({ points = { { 1, 1 }, { 2, 1 }, { 2 } }, ymin = 0, ymax = 1, area = 0 }), { kind = "argument", field = "volume.points[2]", value = "" } },
    { V, vol({ points = sq, ymin = 0, area = 0 }), { kind = "argument", field = "volume.ymax", value = "" } },
    -- RT-152: `points` not an array ({} included); its length before its items; `area`
    -- outside u32 is out_of_range with the number's text, not integral argument; an area
    -- above 63 is reported while decoding, before a bad point (C reports the point first)
    { V, vol({ points = {}, ymin = 0, ymax = 1, area = 0 }), { kind = "argument", field = "volume.points", value = "" } },
    { V, vol({ points = t_array({}), ymin = 0, ymax = 1, area = 0 }), R("volume.npoints", "0") },
    { V, vol({ points = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 }, ymin = 0, ymax = 1, area = 0 }), R("volume.npoints", "13") },
    { V, vol({ points = { { 1, 1 }, { 2, 1 }, { 2, 0 / 0 } }, ymin = 0, ymax = 1, area = 64 }), R("volume.area", "64") },
    { V, vol({ points = sq, ymin = 0, ymax = 1, area = -1 }), R("volume.area", "-1") },
    { V, vol({ points = sq, ymin = 0, ymax = 1, area = 4294967296 }), R("volume.area", "4294967296") },
    { V, vol({ points = sq, ymin = 0, ymax = 1, area = 1.5 }), { kind = "argument", field = "volume.area", value = "" } },
    { V, vol({ points = sq, ymin = 0, ymax = 1, area = "3" }), { kind = "argument", field = "volume.area", value = "" } },
    { V, vol({ points = sq, ymin = 0, ymax = 1 }), { kind = "argument", field = "volume.area", value = "" } },
  }
end

-- RT-053, RT-152, CONF-042: ids, budgets, handles, bytes.
local function id_errors(c, m, tile)
  local RO, RV = "tilecache.remove_obstacle", "tilecache.remove_volume"
  local function arg(field, value) return { kind = "argument", field = field, value = value } end
  return {
    { RO, { cache = c.cache, id = m.next_o }, arg("id", tostring(m.next_o)) }, -- never handed out
    { RO, { cache = c.cache, id = 0 }, arg("id", "0") },
    { RV, { cache = c.cache, id = m.next_v + 5 }, arg("id", tostring(m.next_v + 5)) },
    { RO, { cache = c.cache, id = -1 }, arg("id", "") },
    { RO, { cache = c.cache, id = 4294967296 }, arg("id", "") },
    { RV, { cache = c.cache, id = 1.5 }, arg("id", "") },
    { RO, { cache = c.cache }, arg("id", "") },
    { "tilecache.update", { cache = c.cache, max_tiles = -1 }, arg("max_tiles", "") },
    { "tilecache.update", { cache = c.cache, max_tiles = "all" }, arg("max_tiles", "") },
    { "tilecache.queue", { cache = "1" }, arg("cache", "") },
    { "tilecache.update", { cache = c.mesh }, arg("cache", tostring(c.mesh)) },
    { "tilecache.snapshot_save", { cache = tile }, arg("cache", tostring(tile)) },
    { "tilecache.add_obstacle", { cache = 0, obstacle = "x" }, arg("cache", "0") },
    { "tilecache.snapshot_load", { cache = c.cache, bytes = "abc" }, arg("bytes", "") },
    { "tilecache.snapshot_load", { cache = c.cache }, arg("bytes", "") },
    { "tilecache.snapshot_load", { cache = c.cache, bytes = "" }, { kind = "format", field = "magic", value = "0" } },
  }
end

-- RT-018, RT-151: the cache's mesh refuses the ops that change which tiles it holds.
local function mesh_errors(c, r, snapshot)
  local ti = r.tiles[1]
  local arg = { kind = "argument", field = "mesh", value = "" }
  return {
    { "mesh.add_tile", { mesh = c.mesh, tile = ti.tile }, arg },
    { "mesh.replace_tile", { mesh = c.mesh, tile = ti.tile }, arg },
    { "mesh.remove_tile", { mesh = c.mesh, x = ti.x, z = ti.z, layer = ti.layer }, arg },
    { "mesh.snapshot_load", { mesh = c.mesh, bytes = snapshot }, arg },
    -- MESH-018, SNAP-023, MESH-051: the refusal is the op's first own check, after every
    -- argument has been read
    { "mesh.add_tile", { mesh = c.mesh, tile = 999999 }, { kind = "argument", field = "tile", value = "999999" } },
    { "mesh.replace_tile", { mesh = c.mesh }, { kind = "argument", field = "tile", value = "" } },
    { "mesh.remove_tile", { mesh = c.mesh, x = "a", z = ti.z, layer = ti.layer }, { kind = "argument", field = "x", value = "" } },
    { "mesh.snapshot_load", { mesh = c.mesh, bytes = "xyz" }, { kind = "argument", field = "bytes", value = "" } },
  }
end

-- ------------------------------------------------------------------ the history

-- The history of section 11 on one cache. `record(name, kind, bytes)` receives every
-- checkpoint; with `checks` the errors and the bakes run too (the first run).
local function history(t, level, s, repair, record, checks)
  local L = LEVELS[level]
  local sh = M.SHAPES[level]
  local args = { preset = "Humanoid", partition = "layers", detail_sample_distance = 0, level = L,
                 repair = repair }
  local r = t:call("tilecache.soup", args)
  local c = { cache = r.cache, mesh = r.mesh }
  local first = save(t, c)
  local m = new_model(t, s, r, first)
  t:check(r.built == r.ntx * r.ntz, level .. ": every tile built, so every tile is cached (RT-011)")
  t:check(c.mesh == c.cache + 1, level .. ": handles cache, then its mesh, then the tiles (RT-151)")
  for i, ti in ipairs(r.tiles) do
    t:check(ti.tile == c.mesh + i, level .. ": tile handles follow the mesh's (RT-151)")
  end
  record("first", "mesh", first)
  t:call("mesh.snapshot_save", { mesh = c.mesh }) -- RT-151: the mesh ops that read work on it
  local s0 = snap(t, c)
  record("snapshot-first", "snapshot", s0)
  m:check_queue(c, nil, level .. " first build: the queue is empty (RT-016)")

  if checks then
    -- RT-015: cached equals plain, answer and bytes
    local p = t:call("build3d.soup", { preset = "Humanoid", partition = "layers",
                                       detail_sample_distance = 0, level = L })
    t:check(p.ntx == r.ntx and p.ntz == r.ntz and p.built == r.built and p.npolys == r.npolys
            and #p.tiles == #r.tiles, level .. ": the cached build answers as the plain one (RT-015)")
    for i, ti in ipairs(p.tiles) do
      local q = r.tiles[i]
      t:check(q.x == ti.x and q.z == ti.z and q.layer == ti.layer and q.content_id == ti.content_id
              and q.npolys == ti.npolys and q.nverts == ti.nverts, level .. ": tile " .. i .. " as the plain build's (RT-015)")
    end
    t:check(t:call("mesh.save", { mesh = p.mesh }).bytes == first,
            level .. ": the cached build's mesh is the plain build's, byte for byte (RT-015)")
    -- SNAP-020: a plain mesh snapshot (same parameters) is not a tile cache snapshot
    local plain_snap = t:call("mesh.snapshot_save", { mesh = p.mesh }).bytes
    errors_unchanged(t, c, level .. " empty", {
      { "tilecache.snapshot_load", { cache = c.cache, bytes = plain_snap },
        { kind = "format", field = "nsections", value = "1" } },
    })
    -- SNAP-022: the empty state's snapshot loads and saves back to itself
    t:call("tilecache.snapshot_load", { cache = c.cache, bytes = s0 })
    t:check(snap(t, c) == s0 and save(t, c) == first, level .. ": the first snapshot round-trips (SNAP-022)")
  end

  -- RT-020 .. RT-026, RT-040, RT-050: three shapes and two volumes
  local id_cyl = m:add_obstacle(c, "cylinder", sh.cylinder, level .. " add cylinder")
  local id_box = m:add_obstacle(c, "box", sh.box, level .. " add box")
  local id_obox = m:add_obstacle(c, "obox", sh.obox, level .. " add oriented box")
  local id_hole = m:add_volume(c, "hole", sh.hole, level .. " add area-0 volume")
  local id_swamp = m:add_volume(c, "swamp", sh.swamp, level .. " add area volume")
  t:check(#m.queue >= 3, level .. ": the changes queue several tiles")
  t:check(save(t, c) == first, level .. ": nothing changes the mesh before Update (RT-062)")
  local sq = snap(t, c)
  record("snapshot-queued", "snapshot", sq)
  local mq = m:copy()

  if checks then
    errors_unchanged(t, c, level .. " queued", obstacle_errors(c, function(x) return t:array(x) end))
    errors_unchanged(t, c, level .. " queued", id_errors(c, m, r.tiles[1].tile))
    errors_unchanged(t, c, level .. " queued", mesh_errors(c, r, sq))
    -- RT-151: the build ops check what build3d.* check while reading (settings, input,
    -- chunk_size, columns) before `repair`, and `repair` before the build runs
    local bad = "yes"
    errors_unchanged(t, c, level .. " build args", {
      { "tilecache.heightfield", { preset = "Humanoid", repair = bad, columns = { origin = { 0, 0, 0 },
          width = 1, depth = 1, spans = { { { 5, 2, 63 } } } } },
        { kind = "out_of_range", field = "columns.spans[0].ymax", value = "2" } },
      { "tilecache.chunk", { preset = "Humanoid", level = L, chunk_size = -1, repair = bad },
        { kind = "out_of_range", field = "chunk_size", value = "-1" } },
      { "tilecache.soup", { preset = "Humanoid", partition = "x", level = L, repair = bad },
        { kind = "argument", field = "partition", value = "x" } },
      { "tilecache.soup", { preset = "Humanoid", level = L, repair = bad },
        { kind = "argument", field = "repair", value = "" } },
    })
    -- RT-060: max_tiles 0 does nothing
    m:update(c, 0, level .. " update 0")
    t:check(snap(t, c) == sq, level .. ": Update(0) changes nothing (RT-060)")
  end

  -- RT-060: a sliced update
  m:update(c, 1, level .. " update 1")
  local slice1 = save(t, c)
  record("slice-1", "mesh", slice1)
  m:update(c, 1, level .. " update 1 again")
  local slice2 = save(t, c)
  record("slice-2", "mesh", slice2)
  m:update(c, nil, level .. " update all")
  local all1 = save(t, c)
  record("all-1", "mesh", all1)
  local s1 = snap(t, c)
  record("snapshot-1", "snapshot", s1)
  local m1 = m:copy()
  t:check(all1 ~= first, level .. ": the obstacles and volumes changed the mesh")
  if checks then check_baked(t, m, c, s, L, level .. " all-1") end

  -- more changes: remove the box (twice), add another cylinder, remove the area-0 volume
  m:remove_obstacle(c, id_box, level .. " remove box")
  if checks then
    errors_unchanged(t, c, level .. " removed", {
      { "tilecache.remove_obstacle", { cache = c.cache, id = id_box },
        { kind = "argument", field = "id", value = tostring(id_box) } },
    })
  end
  m:add_obstacle(c, "cylinder2", sh.cylinder2, level .. " add cylinder 2")
  m:remove_volume(c, id_hole, level .. " remove area-0 volume")
  if checks then
    errors_unchanged(t, c, level .. " removed", {
      { "tilecache.remove_volume", { cache = c.cache, id = id_hole },
        { kind = "argument", field = "id", value = tostring(id_hole) } },
    })
  end
  m:update(c, nil, level .. " update all 2")
  local all2 = save(t, c)
  record("all-2", "mesh", all2)
  record("snapshot-2", "snapshot", snap(t, c))
  if checks then check_baked(t, m, c, s, L, level .. " all-2") end

  -- RT-133: restoring gives back the mesh saved with the snapshot; SNAP-022: same bytes
  t:call("tilecache.snapshot_load", { cache = c.cache, bytes = s1 })
  m = m1:copy()
  local restored = save(t, c)
  t:check(restored == all1, level .. ": the restored mesh is the one saved with the snapshot (RT-133)")
  t:check(snap(t, c) == s1, level .. ": the snapshot saved after a restore is the one loaded (SNAP-022)")
  record("restored", "mesh", restored)
  record("restored-snapshot", "snapshot", snap(t, c))
  m:check_queue(c, nil, level .. " restored")
  m:update(c, nil, level .. " update after restore")
  t:check(save(t, c) == all1, level .. ": an update after the restore keeps the mesh (RT-134)")

  -- RT-134: restoring the queued snapshot, the same calls give the same meshes
  t:call("tilecache.snapshot_load", { cache = c.cache, bytes = sq })
  m = mq:copy()
  t:check(snap(t, c) == sq and save(t, c) == first, level .. ": the queued snapshot restores (RT-133)")
  m:update(c, 1, level .. " replay update 1")
  t:check(save(t, c) == slice1, level .. ": replayed slice 1 gives the same mesh (RT-134)")
  m:update(c, 1, level .. " replay update 1 again")
  t:check(save(t, c) == slice2, level .. ": replayed slice 2 gives the same mesh (RT-134)")
  m:update(c, nil, level .. " replay update all")
  t:check(save(t, c) == all1, level .. ": the replayed UpdateAll gives the same mesh (RT-134)")
  t:check(snap(t, c) == s1, level .. ": and the same snapshot (RT-134)")

  -- RT-027: removing everything gives back the first build's tiles
  m:remove_obstacle(c, id_cyl, level .. " remove cylinder")
  m:remove_obstacle(c, id_box, level .. " remove box")
  m:remove_obstacle(c, id_obox, level .. " remove oriented box")
  m:remove_volume(c, id_hole, level .. " remove area-0 volume")
  m:remove_volume(c, id_swamp, level .. " remove area volume")
  m:update(c, nil, level .. " update all, nothing left")
  local final = save(t, c)
  record("all-removed", "mesh", final)
  record("snapshot-all-removed", "snapshot", snap(t, c))
  t:check(M.same_tiles(final, first), level .. ": with everything removed the tiles are the first build's (RT-027)")
  return c, r
end

-- RT-151: handle lifetimes. The mesh handle is borrowed: dropping it keeps the cache and its
-- mesh; dropping the cache handle leaves the mesh handle naming nothing.
local function handles(t, c, level)
  local s0 = snap(t, c)
  t:call("drop", { handle = c.mesh })
  t:expect_error("mesh.save", { mesh = c.mesh }, { kind = "argument", field = "mesh", value = tostring(c.mesh) })
  t:check(snap(t, c) == s0, level .. ": dropping the mesh handle keeps the cache's mesh (RT-151)")
  t:call("tilecache.update", { cache = c.cache })
  t:call("drop", { handle = c.cache })
  t:expect_error("tilecache.queue", { cache = c.cache }, { kind = "argument", field = "cache", value = tostring(c.cache) })
  t:expect_error("drop", { handle = c.cache }, { kind = "argument", field = "handle", value = tostring(c.cache) })
end

local function handles_cache_first(t, level, s)
  local r = t:call("tilecache.soup", { preset = "Humanoid", partition = "layers",
                                       detail_sample_distance = 0, level = LEVELS[level] })
  t:call("mesh.save", { mesh = r.mesh })
  t:call("drop", { handle = r.cache })
  t:expect_error("mesh.save", { mesh = r.mesh }, { kind = "argument", field = "mesh", value = tostring(r.mesh) })
  t:expect_error("drop", { handle = r.mesh }, { kind = "argument", field = "handle", value = tostring(r.mesh) })
  t:call("tile.view", { tile = r.tiles[1].tile }) -- the tile copies are the session's own
end

-- SNAP-019: a snapshot of another cache is refused and changes nothing.
local function other_caches(t, c, level, s, other)
  local mine = snap(t, c)
  -- the same level with another simplification error: same mesh parameters, other key
  local os = {}
  for k, v in pairs(s) do os[k] = v end
  os.max_simplification_error = s.max_simplification_error + 0.25
  local same = t:call("tilecache.soup", { settings = os, level = LEVELS[level] })
  local cases = {
    { "tilecache.snapshot_load", { cache = same.cache, bytes = mine }, { kind = "format", field = "fingerprint" } },
  }
  -- another level: its parameters differ (origin height first, SNAP-006)
  local o = t:call("tilecache.soup", { preset = "Humanoid", partition = "layers",
                                       detail_sample_distance = 0, level = LEVELS[other] })
  errors_unchanged(t, { cache = same.cache, mesh = same.mesh }, level .. " other settings", cases)
  errors_unchanged(t, { cache = o.cache, mesh = o.mesh }, level .. " other level", {
    { "tilecache.snapshot_load", { cache = o.cache, bytes = mine }, { kind = "format", field = "params.tiling.origin[1]" } },
  })
  errors_unchanged(t, c, level .. " from the other level", {
    { "tilecache.snapshot_load", { cache = c.cache, bytes = snap(t, { cache = o.cache }) },
      { kind = "format", field = "params.tiling.origin[1]" } },
  })
  -- SNAP-024: a plain mesh refuses the tile cache snapshot at its second tag (TCAC as a u32)
  local p = t:call("build3d.soup", { preset = "Humanoid", partition = "layers",
                                     detail_sample_distance = 0, level = LEVELS[level] })
  t:expect_error("mesh.snapshot_load", { mesh = p.mesh, bytes = mine },
                 { kind = "format", field = "sections[1].tag", value = "1128350548" })
end

-- ------------------------------------------------------------------ the id limits

-- A snapshot's hex text with the u32 at byte offset `off` replaced by `v` (little-endian).
local function hex_set_u32(hex, off, v)
  local b = string.pack("<I4", v)
  local h = b:gsub(".", function(ch) return string.format("%02x", ch:byte()) end)
  return hex:sub(1, 2 * off) .. h .. hex:sub(2 * off + 9)
end

-- The byte offset of the TCAC payload: the 72-byte header, the SLOT section (16-byte header,
-- its length at header offset 8), the TCAC section header (SNAP-002, SNAP-005, SNAP-016).
local function tcac_at(hex)
  local len0 = string.unpack("<I8", unhex(hex:sub(2 * 80 + 1, 2 * 88)))
  return 72 + 16 + len0 + 16
end

-- RT-026, RT-040, RT-130 through SNAP-019 step 2: a snapshot whose next ids are near the end
-- of the u32 range restores (any id at least 1 passes); the adds then hand out 4294967294
-- and fail with limit `obstacle_id` (`volume_id`), value 4294967295, after RT-023's checks;
-- a removed id stays unknown; restoring the saved snapshot gives back the state.
local function id_limits(t, c, level)
  local sh = M.SHAPES[level]
  local s0, m0 = snap(t, c), save(t, c)
  local at = tcac_at(s0)
  local near = hex_set_u32(hex_set_u32(s0, at + 8, 4294967294), at + 12, 4294967294)
  local used = hex_set_u32(hex_set_u32(s0, at + 8, 4294967295), at + 12, 4294967295)
  t:call("tilecache.snapshot_load", { cache = c.cache, bytes = near })
  t:check(snap(t, c) == near, level .. ": next ids 4294967294 restore and save back (SNAP-019, SNAP-022)")
  local a = t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = sh.cylinder })
  local v = t:call("tilecache.add_volume", { cache = c.cache, volume = sh.swamp })
  t:check(a.id == 4294967294 and v.id == 4294967294, level .. ": the last ids are 4294967294 (RT-026, RT-040)")
  errors_unchanged(t, c, level .. " ids used up", {
    { "tilecache.add_obstacle", { cache = c.cache, obstacle = sh.box },
      { kind = "limit", field = "obstacle_id", value = "4294967295" } },
    { "tilecache.add_volume", { cache = c.cache, volume = sh.hole },
      { kind = "limit", field = "volume_id", value = "4294967295" } },
    { "tilecache.add_obstacle", { cache = c.cache, obstacle = { shape = "cylinder", center = { 1, 0, 1 }, radius = 0, height = 1 } },
      { kind = "out_of_range", field = "obstacle.radius", value = "0" } },
  })
  t:call("tilecache.remove_obstacle", { cache = c.cache, id = a.id })
  errors_unchanged(t, c, level .. " last id removed", {
    { "tilecache.remove_obstacle", { cache = c.cache, id = a.id },
      { kind = "argument", field = "id", value = "4294967294" } },
    { "tilecache.add_obstacle", { cache = c.cache, obstacle = sh.box },
      { kind = "limit", field = "obstacle_id", value = "4294967295" } },
  })
  t:call("tilecache.snapshot_load", { cache = c.cache, bytes = used })
  errors_unchanged(t, c, level .. " ids used up by the snapshot", {
    { "tilecache.add_obstacle", { cache = c.cache, obstacle = sh.cylinder },
      { kind = "limit", field = "obstacle_id", value = "4294967295" } },
    { "tilecache.add_volume", { cache = c.cache, volume = sh.swamp },
      { kind = "limit", field = "volume_id", value = "4294967295" } },
  })
  -- SNAP-019 step 2: a next id of 0 is refused with the value 0
  errors_unchanged(t, c, level .. " next id 0", {
    { "tilecache.snapshot_load", { cache = c.cache, bytes = hex_set_u32(s0, at + 8, 0) },
      { kind = "format", field = "next_obstacle_id", value = "0" } },
  })
  -- RT-130: a restore sets the next ids again
  t:call("tilecache.snapshot_load", { cache = c.cache, bytes = s0 })
  t:check(snap(t, c) == s0 and save(t, c) == m0, level .. ": the saved state restores (RT-133)")
end

-- ------------------------------------------------------------------ the queue's edge

local function bits(x) return (string.unpack("<i8", string.pack("<d", x))) end
local function from_bits(i) return (string.unpack("<d", string.pack("<i8", i))) end

-- The greatest binary64 b (near target - g, positive values) with fl(b + g) <= target
-- (touch: fl(b + g) == target) or < target (miss).
local function edge_value(target, g, touch)
  local b = target - g
  while b + g > target do b = from_bits(bits(b) - 1) end
  while from_bits(bits(b) + 1) + g <= target do b = from_bits(bits(b) + 1) end
  if touch then return b + g == target and b or nil end
  while b + g >= target do b = from_bits(bits(b) - 1) end
  return b
end

-- RT-050, RT-051 at the edge: a box whose grown box ends exactly on tile column 1's widened
-- grid queues that tile (touching counts), one a ulp short does not. The tile it touches
-- finds its areas unchanged, so a polygon edit on it stays (RT-065 case 1, RT-066). RT-024:
-- -0.0 is stored as +0.0 (two caches, one history each, the same snapshot).
local function edge_probe(t, level, s)
  local args = { preset = "Humanoid", partition = "layers", detail_sample_distance = 0,
                 level = LEVELS[level] }
  local r = t:call("tilecache.soup", args)
  local c = { cache = r.cache, mesh = r.mesh }
  local m = new_model(t, s, r, save(t, c))
  local w = m.R + 1
  local lo = m.ox + ((1 * m.T - m.border) - w) * m.cs -- X(gx0 - R - 1) of tile column 1
  local touch, miss = edge_value(lo, m.g, true), edge_value(lo, m.g, false)
  t:check(touch ~= nil and miss ~= nil and miss < touch, level .. ": edge values exist")
  if touch == nil or miss == nil then return end
  local ref = t:call("mesh.poly_ref", { mesh = c.mesh, x = 1, z = 0, layer = 0, poly = 0 }).ref
  t:call("mesh.set_poly_flags", { mesh = c.mesh, ref = ref, flags = 0x5a5a })
  local y0, y1 = -20, 40
  m:add_obstacle(c, "miss", { shape = "box", bmin = { miss - 2, y0, 5 }, bmax = { miss, y1, 7 } },
                 level .. " edge: a box one ulp short")
  t:check(#m.queue == 1, level .. ": the box one ulp short queues tile 0,0 only (RT-050)")
  m:add_obstacle(c, "touch", { shape = "box", bmin = { touch - 2, y0, 5 }, bmax = { touch, y1, 7 } },
                 level .. " edge: a box touching")
  t:check(#m.queue == 2 and m.queue[2] == "1,0", level .. ": the touching box queues tile 1,0 (RT-050)")
  m:update(c, nil, level .. " edge update")
  local p = t:call("mesh.get_poly", { mesh = c.mesh, ref = ref })
  t:check(p.flags == 0x5a5a, level .. ": the edit on the unchanged tile stays, same reference (RT-065, RT-066)")
  -- RT-062: a tile is processed from what is in force then: added and removed before the
  -- update, an obstacle leaves the mesh as it was, byte for byte (RT-013 step 1, RT-065)
  local before = save(t, c)
  local id = m:add_obstacle(c, "gone", M.SHAPES[level].cylinder, level .. " edge: add then remove")
  m:remove_obstacle(c, id, level .. " edge: removed before the update")
  m:update(c, nil, level .. " edge: update with nothing in force")
  t:check(save(t, c) == before, level .. ": an obstacle removed before the update changes nothing (RT-062)")
  -- RT-010, RT-015, RT-016, RT-017: the settings' obstacles are part of the first build (the
  -- cached build equals the plain one with them), not removable, and ids still start at 1
  local ps = {}
  for k, v in pairs(s) do ps[k] = v end
  ps.obstacles = { M.SHAPES[level].cylinder }
  local pc = t:call("tilecache.soup", { settings = ps, level = LEVELS[level] })
  local pp = t:call("build3d.soup", { settings = ps, level = LEVELS[level] })
  local pbytes = t:call("mesh.save", { mesh = pc.mesh }).bytes
  t:check(pbytes == t:call("mesh.save", { mesh = pp.mesh }).bytes,
          level .. ": with settings obstacles the cached build equals the plain one (RT-010, RT-015)")
  t:expect_error("tilecache.remove_obstacle", { cache = pc.cache, id = 1 },
                 { kind = "argument", field = "id", value = "1" })
  local a1 = t:call("tilecache.add_obstacle", { cache = pc.cache, obstacle = M.SHAPES[level].box })
  t:check(a1.id == 1, level .. ": a cache built with settings obstacles hands out id 1 first (RT-016, RT-017)")
  t:call("drop", { handle = pc.cache })
  -- RT-024
  local a = t:call("tilecache.soup", args)
  local b = t:call("tilecache.soup", args)
  t:call("tilecache.add_obstacle", { cache = a.cache, obstacle = { shape = "box",
         bmin = { 5, -0.0, 5 }, bmax = { 6, 20, 6 } } })
  t:call("tilecache.add_obstacle", { cache = b.cache, obstacle = { shape = "box",
         bmin = { 5, 0.0, 5 }, bmax = { 6, 20, 6 } } })
  t:call("tilecache.add_volume", { cache = a.cache, volume = { points = { { 5, 5 }, { 6, 5 }, { 6, 6 } },
         ymin = -0.0, ymax = 20, area = 3 } })
  t:call("tilecache.add_volume", { cache = b.cache, volume = { points = { { 5, 5 }, { 6, 5 }, { 6, 6 } },
         ymin = 0.0, ymax = 20, area = 3 } })
  t:check(snap(t, { cache = a.cache }) == snap(t, { cache = b.cache }),
          level .. ": -0.0 is stored as +0.0 (RT-024, RT-040, SNAP-022)")
  t:call("drop", { handle = a.cache })
  t:call("drop", { handle = b.cache })
end

-- RT-101 .. RT-106: the walk on two caches, the repair on and off; after each update both
-- give the same mesh and snapshot bytes (checkpointed), and after each removal the first
-- build's tiles.
local function repair_walk(t, level, s, record)
  local args = { preset = "Humanoid", partition = "layers", detail_sample_distance = 0,
                 level = LEVELS[level] }
  local caches, models = {}, {}
  for k, repair in ipairs({ true, false }) do
    args.repair = repair
    local r = t:call("tilecache.soup", args)
    caches[k] = { cache = r.cache, mesh = r.mesh }
    models[k] = new_model(t, s, r, save(t, caches[k]))
  end
  local first = save(t, caches[1])
  local w = M.WALK[level]
  for i, p in ipairs(w.points) do
    local o = { shape = "cylinder", center = { p[1], w.y, p[2] }, radius = 1, height = 40 }
    local tag = level .. " walk " .. i
    local bytes = {}
    for k = 1, 2 do
      local id = models[k]:add_obstacle(caches[k], "walk", o, tag)
      models[k]:update(caches[k], nil, tag)
      bytes[k] = { save(t, caches[k]), snap(t, caches[k]) }
      models[k]:remove_obstacle(caches[k], id, tag .. " removed")
      models[k]:update(caches[k], nil, tag .. " removed")
      t:check(M.same_tiles(save(t, caches[k]), first), tag .. ": removed, the first build's tiles (RT-027)")
    end
    t:check(bytes[1][1] == bytes[2][1] and bytes[1][2] == bytes[2][2],
            tag .. ": the repair on and off give the same mesh and snapshot (RT-106)")
    t:check(bytes[1][1] ~= first, tag .. ": the cylinder changes the mesh")
    record("walk-" .. i, "mesh", bytes[1][1])
  end
  t:call("drop", { handle = caches[1].cache })
  t:call("drop", { handle = caches[2].cache })
end

-- RT-015, RT-027, RT-150: the chunked and solid-column inputs. tilecache.chunk equals
-- build3d.chunk; on the two floors of pipeline3d's `floors` field, tilecache.heightfield
-- equals build3d.heightfield, and a box on the deck gives the tiles of a fresh build with it.
local function other_inputs(t, level, s)
  local base = { preset = "Humanoid", partition = "layers", detail_sample_distance = 0 }
  local function with(extra)
    local a = {}
    for k, v in pairs(base) do a[k] = v end
    for k, v in pairs(extra) do a[k] = v end
    return a
  end
  local chunk = with({ level = LEVELS[level], chunk_size = 7.5 })
  local cc = t:call("tilecache.chunk", chunk)
  local pc = t:call("build3d.chunk", chunk)
  t:check(save(t, cc) == t:call("mesh.save", { mesh = pc.mesh }).bytes,
          level .. ": tilecache.chunk gives build3d.chunk's mesh (RT-015)")
  t:check(cc.mesh == cc.cache + 1, level .. ": chunk: the cache, then its mesh (RT-151)")
  local cols = require("pipeline3d").FIELDS.floors()
  local hc = t:call("tilecache.heightfield", with({ columns = cols }))
  local hp = t:call("build3d.heightfield", with({ columns = cols }))
  local first = save(t, hc)
  t:check(first == t:call("mesh.save", { mesh = hp.mesh }).bytes,
          level .. ": tilecache.heightfield gives build3d.heightfield's mesh (RT-015)")
  local deck = { shape = "box", bmin = { 20, 0, 5 }, bmax = { 24, 4, 9 } }
  local a = t:call("tilecache.add_obstacle", { cache = hc.cache, obstacle = deck })
  t:check(a.id == 1 and a.queued >= 1, level .. ": a box on the deck queues its tile")
  t:call("tilecache.update", { cache = hc.cache })
  local after = save(t, hc)
  record_cp(t, level .. "-floors-deck-box", "mesh", after)
  local bs = {}
  for k, v in pairs(s) do bs[k] = v end
  bs.obstacles = { deck }
  local fresh = t:call("build3d.heightfield", { settings = bs, columns = cols })
  t:check(after ~= first and M.same_tiles(after, t:call("mesh.save", { mesh = fresh.mesh }).bytes),
          level .. ": floors: the box gives the tiles of a fresh build with it (RT-027)")
  t:call("drop", { handle = hc.cache })
  t:call("drop", { handle = cc.cache })
end

-- build3d/tilecache(-city): the history with the repair on (checkpoints and checks), then
-- with it off (the same bytes, RT-106), then handles and foreign snapshots.
function M.scenario(level, other)
  return {
    title = "Tile cache on the generated " .. level .. ": obstacles, volumes, sliced updates, snapshots",
    clauses = M.CLAUSES,
    run = function(t)
      local s = t:call("settings.preset", { name = "Humanoid" }).settings
      s.partition = "layers"
      s.detail_sample_distance = 0
      local on = {}
      local c = history(t, level, s, true, function(name, kind, bytes)
        on[#on + 1] = bytes
        t:checkpoint(level .. "-" .. name, kind, bytes)
      end, true)
      local i = 0
      history(t, level, s, false, function(name, _, bytes)
        i = i + 1
        t:check(bytes == on[i], level .. " " .. name .. ": the same bytes with the repair off (RT-106, RT-107)")
      end, false)
      repair_walk(t, level, s, function(name, kind, bytes)
        t:checkpoint(level .. "-" .. name, kind, bytes)
      end)
      edge_probe(t, level, s)
      other_inputs(t, level, s)
      other_caches(t, c, level, s, other)
      id_limits(t, c, level)
      handles(t, c, level)
      handles_cache_first(t, level, s)
    end,
  }
end

-- Small hand-made caches (tilecache-state-errors, -generation-wrap, -out-of-memory): the
-- Humanoid preset with unit cells, agent radius 0, height 2, climb 1, the layers partition,
-- MinRegionArea 2, MergeRegionArea 0, no detail samples, `tile_cells` cells a tile.
function M.unit_settings(t, tile_cells)
  local s = t:call("settings.preset", { name = "Humanoid" }).settings
  s.cell_size, s.cell_height = 1, 1
  s.agent_radius, s.agent_height, s.agent_climb = 0, 2, 1
  s.tile_cells = tile_cells
  s.partition = "layers"
  s.min_region_area, s.merge_region_area = 2, 0
  s.detail_sample_distance = 0
  return s
end

-- Solid columns for tilecache.heightfield: w x d columns, a wall 30 high (area 0) on the
-- outer ring, floor 10 high (area 1) inside.
function M.walled_columns(w, d)
  local spans = {}
  for z = 0, d - 1 do
    for x = 0, w - 1 do
      local wall = x == 0 or z == 0 or x == w - 1 or z == d - 1
      spans[#spans + 1] = { wall and { 0, 30, 0 } or { 0, 10, 1 } }
    end
  end
  return { origin = { 0, 0, 0 }, width = w, depth = d, spans = spans }
end

return M
