-- conformance/scenarios/build3d/tilecache-grid.lua
-- Tile caches over grids of many tiles (build3d-runtime.md): the generated dungeon and
-- stairs levels under the Small preset (6 x 5 and 9 x 5 tiles; the stairs stack up to 14
-- layers in a tile), layer-first and general path. The cached build keeps every built
-- tile's data (RT-011) and equals the plain build byte for byte (RT-015); then obstacles on
-- tile corners and a volume across a row of tiles, sliced and whole updates, and removal:
-- after each update the cache's tiles equal a fresh plain build with the live shapes in its
-- settings (RT-027, RT-043), and every state is a checkpoint (mesh.save, and the snapshot).

local tc = require("tilecache")

local LEVELS = {
  { name = "dungeon", seed = "0000000000000003", size = 16 },
  { name = "stairs", seed = "00000000000000a1", size = 12 },
}

local function settings(t, part)
  local s = t:call("settings.preset", { name = "Small" }).settings
  s.partition = part
  s.detail_sample_distance = 0
  return s
end

-- the shapes, placed by the tiling of the cache's first tile: a cylinder on the corner of
-- four tiles, a box over two columns, and a volume over a row of tiles
local function shapes(t, r)
  local v = t:call("tile.view", { tile = r.tiles[1].tile }).tiling
  local w = v.tile_cells * v.cell_size
  local ox, oz = v.origin[1], v.origin[3]
  local cx, cz = ox + 2 * w, oz + 2 * w
  return {
    obstacles = {
      { shape = "cylinder", center = { cx, -50, cz }, radius = 0.9, height = 200 },
      { shape = "box", bmin = { ox + w - 0.4, -50, oz + 0.3 }, bmax = { ox + w + 0.5, 150, oz + 3 * w } },
    },
    volume = { points = { { ox + 0.5, oz + w + 1 }, { ox + 4 * w, oz + w + 1 }, { ox + 4 * w, oz + w + 2.5 },
                          { ox + 0.5, oz + w + 2.5 } }, ymin = -50, ymax = 150, area = 0 },
  }
end

local function fresh(t, s, level, obst, vols)
  local bs = {}
  for k, v in pairs(s) do bs[k] = v end
  bs.obstacles = #obst > 0 and obst or nil
  bs.volumes = #vols > 0 and vols or nil
  local r = t:call("build3d.soup", { settings = bs, level = level })
  return t:call("mesh.save", { mesh = r.mesh }).bytes
end

local function state(t, tag, c, s, level, obst, vols)
  local m = t:call("mesh.save", { mesh = c.mesh }).bytes
  t:check(tc.same_tiles(m, fresh(t, s, level, obst, vols)),
          tag .. ": the cache's tiles equal a fresh build with the live shapes (RT-027, RT-043)")
  t:checkpoint(tag, "mesh", m)
  t:checkpoint(tag .. "-snapshot", "snapshot", t:call("tilecache.snapshot_save", { cache = c.cache }).bytes)
end

return {
  title = "Tile caches over grids of 30 and 45 tiles: cached = plain, obstacles and a volume baked",
  clauses = { "RT-011", "RT-015", "RT-027", "RT-043", "RT-050", "RT-060", "RT-062", "RT-080", "RT-086" },
  run = function(t)
    for _, level in ipairs(LEVELS) do
      for _, part in ipairs({ "layers", "watershed" }) do
        local tag = level.name .. "-" .. part
        local s = settings(t, part)
        local r = t:call("tilecache.soup", { settings = s, level = level })
        local c = { cache = r.cache, mesh = r.mesh }
        t:check(#r.tiles > 16, tag .. ": more than 16 tiles kept")
        local plain = t:call("build3d.soup", { settings = s, level = level })
        t:check(t:call("mesh.save", { mesh = c.mesh }).bytes ==
                t:call("mesh.save", { mesh = plain.mesh }).bytes, tag .. ": cached build = plain build (RT-015)")
        local sh = shapes(t, r)
        local ids = {}
        for i, o in ipairs(sh.obstacles) do
          ids[i] = t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = o }).id
        end
        local vid = t:call("tilecache.add_volume", { cache = c.cache, volume = sh.volume }).id
        t:call("tilecache.update", { cache = c.cache, max_tiles = 3 })
        t:call("tilecache.update", { cache = c.cache })
        state(t, tag .. "-shapes", c, s, level, sh.obstacles, { sh.volume })
        t:check(not tc.same_tiles(t:call("mesh.save", { mesh = c.mesh }).bytes,
                                  t:call("mesh.save", { mesh = plain.mesh }).bytes),
                tag .. ": the shapes change tiles")
        t:call("tilecache.remove_obstacle", { cache = c.cache, id = ids[1] })
        t:call("tilecache.remove_volume", { cache = c.cache, id = vid })
        t:call("tilecache.update", { cache = c.cache })
        state(t, tag .. "-box", c, s, level, { sh.obstacles[2] }, {})
        t:call("tilecache.remove_obstacle", { cache = c.cache, id = ids[2] })
        t:call("tilecache.update", { cache = c.cache })
        t:check(tc.same_tiles(t:call("mesh.save", { mesh = c.mesh }).bytes,
                              t:call("mesh.save", { mesh = plain.mesh }).bytes),
                tag .. ": every shape removed: the first build's tiles again (RT-062)")
      end
    end
  end,
}
