-- conformance/scenarios/build3d/spans-grid-bounds.lua
-- The bounds of a tile's grid (SPAN-102), each reached exactly and exceeded by one: the
-- tile's first column gx0 = tx * TileSize - Border and first row gz0 in [-2^30, 2^30]
-- (out_of_range tx, tz; tx checked before tz), and the vertical extent q = Snap((y1 - y0) /
-- ch) at most 65534 rows (limit y1, checked after tx and tz). Expected values by hand below.

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

local function copy(v)
  if type(v) ~= "table" then return v end
  local r = {}
  for k, x in pairs(v) do r[k] = copy(x) end
  return r
end

return {
  title = "Tile grid bounds: tx, tz at +-2^30 columns, 65534 rows of vertical extent",
  clauses = { "SPAN-102", "SPAN-180", "SPAN-181", "SPAN-182", "SPAN-021", "SPAN-022" },
  run = function(t)
    local floor = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 } },
                       { { 0, 1, 2 }, { 0, 2, 3 } })
    local H = t:call("settings.preset", { name = "Humanoid" }).settings
    -- tile_cells 3, cell_size 0.5: agent_radius 1.0 gives WalkableRadius 2 (1.0 / 0.5 = 2.0),
    -- Border 5; agent_radius 0.5 gives WalkableRadius 1, Border 4 (SPAN-021, SPAN-022).
    -- 2^30 = 1073741824.
    --   Border 5: gx0 = 3 * 357913943 - 5 = 2^30 (the bound itself, accepted);
    --             tx = 357913944 gives 2^30 + 3 (out_of_range).
    --   Border 4: gx0 = 3 * -357913940 - 4 = -2^30 (accepted);
    --             tx = -357913941 gives -2^30 - 3 (out_of_range).
    local up = copy(H); up.cell_size = 0.5; up.agent_radius = 1.0; up.tile_cells = 3
    local lo = copy(H); lo.cell_size = 0.5; lo.agent_radius = 0.5; lo.tile_cells = 3
    local function tile(settings, tx, tz)
      if not settings then return { preset = "Humanoid", soup = floor, tile = { tx, tz } } end
      return { settings = settings, soup = floor, tile = { tx, tz } }
    end
    local function far(settings, tx, tz, what)
      -- SPAN-181, SPAN-182: the grid is made, no triangle meets its box: not built, no error
      local r = t:call("spans.build_tile", tile(settings, tx, tz))
      t:check(r.built == false and r.nspans == 0, what .. ": accepted, not built")
    end
    far(up, 357913943, 0, "gx0 = 2^30")
    far(up, 0, 357913943, "gz0 = 2^30")
    far(lo, -357913940, 0, "gx0 = -2^30")
    far(lo, 0, -357913940, "gz0 = -2^30")
    far(up, 357913943, 357913943, "gx0 = gz0 = 2^30")
    t:expect_error("spans.build_tile", tile(up, 357913944, 0),
                   { kind = "out_of_range", field = "tx", value = "357913944" })
    t:expect_error("spans.build_tile", tile(up, 0, 357913944),
                   { kind = "out_of_range", field = "tz", value = "357913944" })
    t:expect_error("spans.build_tile", tile(lo, -357913941, 0),
                   { kind = "out_of_range", field = "tx", value = "-357913941" })
    t:expect_error("spans.build_tile", tile(lo, 0, -357913941),
                   { kind = "out_of_range", field = "tz", value = "-357913941" })
    -- both out of range: tx first
    t:expect_error("spans.build_tile", tile(up, 357913944, -357913941),
                   { kind = "out_of_range", field = "tx", value = "357913944" })
    -- the same bounds hold for the preset (Humanoid: TileSize 64, Border 5): 64 * 16777216 - 5
    -- = 2^30 - 5 is inside, 64 * 16777217 - 5 = 2^30 + 59 is not.
    far(nil, 16777216, 0, "Humanoid tx = 16777216")
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 16777217 } },
                   { kind = "out_of_range", field = "tz", value = "16777217" })

    -- Vertical extent, Humanoid (ch = 0.1): the frame of the soup is [miny, maxy] (SPAN-181).
    -- A floor at y = 0 and a wall (a vertical triangle at the floor's edge, not walkable)
    -- up to y = top. top = 6553.4: fl(6553.4 / 0.1) snaps to 65534 (SPAN-109), the most rows
    -- allowed; height = 65534 + 1 = 65535. top = 6553.5: 65535 rows, limit y1 with y1's value.
    local function tall(top)
      return soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 }, { 3, top, 0 } },
                  { { 0, 1, 2 }, { 0, 2, 3 }, { 0, 3, 4 } })
    end
    local ok = t:call("spans.build_tile", { preset = "Humanoid", soup = tall(6553.4), tile = { 0, 0 } })
    t:check(ok.built == true, "65534 rows of extent: the tile builds")
    t:checkpoint("extent-65534-rows", "table", ok.bytes, "chf")
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = tall(6553.5), tile = { 0, 0 } },
                   { kind = "limit", field = "y1", value = "6553.5" })
    -- the same extent below y = 0: y0 = -6553.5, y1 = 0
    local function deep(bottom)
      return soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 }, { 3, bottom, 0 } },
                  { { 0, 1, 2 }, { 0, 2, 3 }, { 0, 3, 4 } })
    end
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = deep(-6553.5), tile = { 0, 0 } },
                   { kind = "limit", field = "y1", value = "0" })
    local okd = t:call("spans.build_tile", { preset = "Humanoid", soup = deep(-6553.4), tile = { 0, 0 } })
    t:check(okd.built == true, "65534 rows below the floor: the tile builds")
    t:checkpoint("extent-65534-rows-below", "table", okd.bytes, "chf")
    -- The soup's frame at the coordinate bounds (SPAN-052 allows [-2^21, 2^21], SPAN-102
    -- takes the frame as the grid's origin and vertical range, bounds included): a floor at
    -- the least corner (-2^21, -2^21, -2^21) builds; a wall in the plane x = 2^21 (origin x
    -- = 2^21, not walkable) is accepted and not built; a floor at y = 2^21 (y0 = y1 = 2^21)
    -- builds.
    local M = 2097152
    local low = soup(t, { { -M, -M, -M }, { -M, -M, 3 - M }, { 3 - M, -M, 3 - M } }, { { 0, 1, 2 } })
    local lw = t:call("spans.build_tile", { preset = "Humanoid", soup = low, tile = { 0, 0 } })
    t:check(lw.built == true, "a floor at (-2^21, -2^21, -2^21) builds")
    t:checkpoint("floor-at-minus-2^21", "table", lw.bytes, "chf")
    local wall = soup(t, { { M, 0, 0 }, { M, 1, 0 }, { M, 0, 1 } }, { { 0, 1, 2 } })
    local wl = t:call("spans.build_tile", { preset = "Humanoid", soup = wall, tile = { 0, 0 } })
    t:check(wl.built == false, "origin x = 2^21: accepted, not built (a wall)")
    local high = soup(t, { { 0, M, 0 }, { 0, M, 3 }, { 3, M, 3 } }, { { 0, 1, 2 } })
    local hg = t:call("spans.build_tile", { preset = "Humanoid", soup = high, tile = { 0, 0 } })
    t:check(hg.built == true, "a floor at y = 2^21 builds")
    t:checkpoint("floor-at-y-2^21", "table", hg.bytes, "chf")
    -- tx out of range and y1 over the limit: the grid's columns are checked first
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = tall(6553.5), tile = { 16777217, 0 } },
                   { kind = "out_of_range", field = "tx", value = "16777217" })
  end,
}
