-- build3d/tilecache-boundaries: the run-time tile cache at its boundaries (issue 13, the
-- scenarios that kill what build3d/tilecache lets through). On a floor of 2 x 2 tiles with a
-- hollow pillar and on the generated terrain:
--   * a dense walk: cylinders of several radii on a grid, each added to two caches (repair
--     on and off), updated, compared (mesh and snapshot bytes, RT-106, RT-107) and removed
--     again (the first build's tiles, RT-027); pairs of cylinders that cut a region in two
--     (RT-101 (c)) and small ones next to region edges (RT-101 (b), (d));
--   * volumes one cell wide swept across the first and last walkable column and row of each
--     tile, in steps of a third of a cell: after each update the tiles equal a fresh build
--     with the volume in the settings (RT-042, RT-043, RT-088: the layer box runs from
--     X(gx0 + xmin) to X(gx0 + xmax + 1));
--   * obstacles swept the same way (RT-025, RT-088, RT-027);
--   * sliced updates of one tile at a time give the same bytes as one whole update (RT-060);
--   * a box over a whole tile takes its layers out of the mesh and, removed, adds the tile back
--     at a position that is empty then (the mesh batch's add path, RT-027).
-- The floor's pillars put two holes with the same leftmost x into one region (REG-216), and
-- the walk's cylinders land next to them (REG-220: an old hole in a re-assembled region).
local soups = require("soups3d")
local tc = require("tilecache")
local LEVELS = require("pipeline3d").LEVELS

local function save(t, c) return t:call("mesh.save", { mesh = c.mesh }).bytes end
local function snap(t, c) return t:call("tilecache.snapshot_save", { cache = c.cache }).bytes end

-- a floor 2 x 2 Humanoid tiles wide (38.4 m) at y = 0 with a hollow pillar near a tile edge
-- and a low step, so that layers have regions of several sizes
local function floor_soup(t)
  local v = { { 0, 0, 0 }, { 0, 0, 30 }, { 30, 0, 30 }, { 30, 0, 0 } }
  local f = { { 0, 1, 2 }, { 0, 2, 3 } }
  local function box(x0, z0, x1, z1, h)
    local base = #v
    for _, p in ipairs({ { x0, 0, z0 }, { x0, 0, z1 }, { x1, 0, z1 }, { x1, 0, z0 },
                         { x0, h, z0 }, { x0, h, z1 }, { x1, h, z1 }, { x1, h, z0 } }) do
      v[#v + 1] = p
    end
    for _, r in ipairs({ { 0, 1, 5, 4 }, { 1, 2, 6, 5 }, { 2, 3, 7, 6 }, { 3, 0, 4, 7 }, { 4, 5, 6, 7 } }) do
      f[#f + 1] = { base + r[1], base + r[2], base + r[3] }
      f[#f + 1] = { base + r[1], base + r[3], base + r[4] }
    end
  end
  box(17.5, 8, 20.5, 11, 5)     -- a pillar across the tile edge x = 19.2
  box(6, 20, 12, 26, 0.3)       -- a low step: a separate floor region
  box(24, 3, 25, 27, 5)         -- a long wall: narrow regions beside it
  box(3, 3, 4, 4, 5)            -- two pillars with the same leftmost x: a region with two
  box(3, 7, 4, 8, 5)            -- holes whose order falls to z (REG-216)
  box(12, 4, 13.5, 5, 5)        -- and a pair of different sizes, again one x
  box(12, 9, 12.6, 9.6, 5)
  return soups.soup(t, v, f)
end

local function copy(s)
  local o = {}
  for k, v in pairs(s) do o[k] = v end
  return o
end

return {
  title = "Tile cache at its boundaries: dense repair walks, one-cell volumes and obstacles at the layer boxes",
  clauses = { "REG-150", "REG-216", "REG-220", "RT-013", "RT-025", "RT-027", "RT-042", "RT-043", "RT-060", "RT-085", "RT-088",
              "RT-101", "RT-102", "RT-103", "RT-104", "RT-105", "RT-106", "RT-107" },
  run = function(t)
    local s = t:call("settings.preset", { name = "Humanoid" }).settings
    s.partition = "layers"
    s.detail_sample_distance = 0
    local inputs = {
      { name = "floor", args = { soup = floor_soup(t) }, extent = { 0, 30 } },
      { name = "terrain", args = { level = LEVELS.terrain }, extent = { 0, 24 } },
    }
    for _, inp in ipairs(inputs) do
      local function cache(repair)
        local a = copy(inp.args)
        a.settings = s
        a.repair = repair
        local r = t:call("tilecache.soup", a)
        return { cache = r.cache, mesh = r.mesh, r = r }
      end
      local function fresh(obstacles, volumes)
        local bs = copy(s)
        bs.obstacles, bs.volumes = obstacles, volumes
        local a = copy(inp.args)
        a.settings = bs
        local r = t:call("build3d.soup", a)
        local bytes = t:call("mesh.save", { mesh = r.mesh }).bytes
        t:call("drop", { handle = r.mesh })
        return bytes
      end
      local on, off = cache(true), cache(false)
      local first = save(t, on)
      t:check(first == save(t, off), inp.name .. ": the repair switch does not change the first build (RT-107)")
      local ymin, ymax = -30, 30
      local lo, hi = inp.extent[1], inp.extent[2]

      -- the dense walk (RT-101 .. RT-106): after every update the two caches agree
      local n = 0
      local function both(fn, tag, keep)
        fn(on); fn(off)
        t:call("tilecache.update", { cache = on.cache })
        t:call("tilecache.update", { cache = off.cache })
        local a, b = save(t, on), save(t, off)
        t:check(a == b and snap(t, on) == snap(t, off),
                inp.name .. " " .. tag .. ": the repair on and off give the same mesh and snapshot (RT-106)")
        n = n + 1
        if keep then t:checkpoint(inp.name .. "-" .. tag, "mesh", a) end
        return a
      end
      local step = (hi - lo) / 7
      for _, radius in ipairs({ 0.4, 1.3 }) do
        for i = 1, 6, inp.name == "floor" and 1 or 2 do
          for j = 1, 6, 2 do
            local x, z = lo + i * step + radius / 3, lo + j * step - radius / 5
            local o = { shape = "cylinder", center = { x, ymin, z }, radius = radius, height = ymax - ymin }
            local ids = {}
            local tag = string.format("walk-r%g-%d-%d", radius, i, j)
            both(function(c) ids[c.cache] = t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = o }).id end,
                 tag, i == j)
            both(function(c) t:call("tilecache.remove_obstacle", { cache = c.cache, id = ids[c.cache] }) end,
                 tag .. "-removed")
            t:check(tc.same_tiles(save(t, on), first), inp.name .. " " .. tag .. ": removed, the first build's tiles (RT-027)")
          end
        end
      end
      -- rows near the far end of each tile row and column, where the regions with the last
      -- numbers start: removing the first spans of one of them can move its first span past
      -- the next region's, so the numbers would change (RT-101 (d), REG-150)
      do
        local T = s.tile_cells * s.cell_size
        local ends = {}
        for k = 1, math.ceil((hi - lo) / T) do ends[#ends + 1] = math.min(lo + k * T, hi) end
        for ei, e in ipairs(ends) do
          for q = 1, 4 do
            local zc = e - (0.6 + 1.1 * q) * s.cell_size * (1 + ei % 2)
            local xc = lo + (hi - lo) * (0.12 + 0.21 * q)
            for _, c2 in ipairs({ { xc, zc }, { zc, xc } }) do
              local o = { shape = "cylinder", center = { c2[1], ymin, c2[2] }, radius = 0.45 + 0.2 * q, height = ymax - ymin }
              local ids = {}
              local tag = string.format("row-%d-%d-%.1f", ei, q, c2[1])
              both(function(c) ids[c.cache] = t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = o }).id end, tag)
              both(function(c) t:call("tilecache.remove_obstacle", { cache = c.cache, id = ids[c.cache] }) end, tag .. "-removed")
            end
          end
        end
      end

      -- pairs that cut: two boxes leaving a gap of 1, 2 and 3 cells between them
      for k, gap in ipairs({ s.cell_size, 2 * s.cell_size, 3 * s.cell_size }) do
        local z0 = lo + (hi - lo) * (0.2 + 0.15 * k)
        local a = { shape = "box", bmin = { lo - 1, ymin, z0 }, bmax = { lo + (hi - lo) * 0.45, ymax, z0 + 0.6 } }
        local b = { shape = "box", bmin = { lo + (hi - lo) * 0.45 + gap, ymin, z0 }, bmax = { hi + 1, ymax, z0 + 0.6 } }
        local ids = {}
        local tag = "cut-" .. k
        both(function(c)
          ids[c.cache] = { t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = a }).id,
                           t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = b }).id }
        end, tag, true)
        both(function(c)
          t:call("tilecache.remove_obstacle", { cache = c.cache, id = ids[c.cache][1] })
        end, tag .. "-half")
        both(function(c)
          t:call("tilecache.remove_obstacle", { cache = c.cache, id = ids[c.cache][2] })
        end, tag .. "-removed")
      end
      t:check(tc.same_tiles(save(t, on), first), inp.name .. ": after the walk, the first build's tiles (RT-027)")

      -- a box over the whole last tile: its layers vanish from the mesh (the tile is taken
      -- out), and removing the box adds the tile again at a position that is empty then
      -- (MESH-018's batch, its add path; RT-027)
      do
        local mid = lo + s.tile_cells * s.cell_size
        local cover = { shape = "box", bmin = { mid - 0.05, ymin, mid - 0.05 }, bmax = { hi + 2, ymax, hi + 2 } }
        local _, n0 = tc.tiles(first)
        local ids = {}
        local a = both(function(c) ids[c.cache] = t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = cover }).id end,
                       "cover", true)
        local _, n1 = tc.tiles(a)
        t:check(n1 < n0 and tc.same_tiles(a, fresh({ cover }, nil)),
                inp.name .. ": a box over the last tile takes its layers out, as a fresh build with it (RT-027)")
        local b = both(function(c) t:call("tilecache.remove_obstacle", { cache = c.cache, id = ids[c.cache] }) end,
                       "cover-removed", true)
        t:check(tc.same_tiles(b, first), inp.name .. ": the box removed, the tile is back: the first build's tiles (RT-027)")
      end

      -- one-cell volumes and thin boxes at every column near each walkable edge (RT-088).
      -- A volume [x0, x0 + cs] with x0 a quarter cell into a column holds that column's
      -- centre: it marks the column's span, and it touches the layer box only when the box
      -- ends at X(gx0 + xmax + 1). Even columns in one batch, odd ones in the next, each
      -- batch checked against a fresh build with its volumes (or boxes) in the settings.
      local cs = s.cell_size
      local T = s.tile_cells * cs
      local edges = { lo, hi }
      for k = 1, math.ceil((hi - lo) / T) - 1 do edges[#edges + 1] = lo + k * T end
      local swept = 0
      for axis = 1, 2 do
        for _, e in ipairs(edges) do
          for parity = 0, 1 do
            local vols, boxes = {}, {}
            for k = -8 + parity, 7, 2 do
              local a0 = e + (k + 0.25) * cs
              local b0, b1 = lo + (hi - lo) * 0.3, lo + (hi - lo) * 0.7
              local pts
              if axis == 1 then pts = { { a0, b0 }, { a0 + cs, b0 }, { a0 + cs, b1 }, { a0, b1 } }
              else pts = { { b0, a0 }, { b1, a0 }, { b1, a0 + cs }, { b0, a0 + cs } } end
              vols[#vols + 1] = { points = pts, ymin = ymin, ymax = ymax, area = 5 + (k % 3) }
              if axis == 1 then boxes[#boxes + 1] = { shape = "box", bmin = { a0, ymin, b0 }, bmax = { a0 + cs / 4, ymax, b1 } }
              else boxes[#boxes + 1] = { shape = "box", bmin = { b0, ymin, a0 }, bmax = { b1, ymax, a0 + cs / 4 } } end
            end
            local tag = string.format("%s axis %d edge %.1f parity %d", inp.name, axis, e, parity)
            local ids = {}
            for i, vol in ipairs(vols) do ids[i] = t:call("tilecache.add_volume", { cache = on.cache, volume = vol }).id end
            t:call("tilecache.update", { cache = on.cache })
            local got = save(t, on)
            t:check(tc.same_tiles(got, fresh(nil, vols)), tag .. ": volumes: the tiles of a fresh build with them (RT-043, RT-088)")
            if parity == 0 then t:checkpoint(string.format("%s-volumes-%d-%.1f", inp.name, axis, e), "mesh", got) end
            for _, id in ipairs(ids) do t:call("tilecache.remove_volume", { cache = on.cache, id = id }) end
            -- boxes: every second one, so that the grown boxes leave columns between them
            local bsel = {}
            for i = 1, #boxes, 2 do bsel[#bsel + 1] = boxes[i] end
            for i, b in ipairs(bsel) do ids[i] = t:call("tilecache.add_obstacle", { cache = on.cache, obstacle = b }).id end
            t:call("tilecache.update", { cache = on.cache })
            t:check(tc.same_tiles(save(t, on), fresh(bsel, nil)), tag .. ": boxes: the tiles of a fresh build with them (RT-027, RT-088)")
            for i = 1, #bsel do t:call("tilecache.remove_obstacle", { cache = on.cache, id = ids[i] }) end
            t:call("tilecache.update", { cache = on.cache })
            swept = swept + 1
          end
        end
      end
      t:check(swept > 0 and tc.same_tiles(save(t, on), first), inp.name .. ": after the sweep, the first build's tiles (RT-027)")

      -- RT-060: sliced updates, one tile at a time, end where a whole update ends
      local o1 = { shape = "cylinder", center = { lo + (hi - lo) * 0.5, ymin, lo + (hi - lo) * 0.5 }, radius = 3, height = ymax - ymin }
      t:call("tilecache.add_obstacle", { cache = on.cache, obstacle = o1 })
      t:call("tilecache.add_obstacle", { cache = off.cache, obstacle = o1 })
      local slices = 0
      while t:call("tilecache.update", { cache = on.cache, max_tiles = 1 }).processed == 1 do slices = slices + 1 end
      t:call("tilecache.update", { cache = off.cache })
      t:check(slices >= 1 and tc.same_tiles(save(t, on), save(t, off)), inp.name .. ": one tile at a time ends where one update ends (RT-060)")
      t:checkpoint(inp.name .. "-sliced", "mesh", save(t, on))
      t:call("drop", { handle = on.cache })
      t:call("drop", { handle = off.cache })
    end
  end,
}
