-- build3d/tilecache-layer: a cached layer's state through tilecache.layer (RT-154) around
-- every boundary of the repair (RT-100 .. RT-106; issue 13). The mesh carries no region
-- numbers, so a repair that ignored precondition (c) (a split region) or (d) (renumbering)
-- gave the mesh and snapshot bytes of scratch; the layer's region values, contour set
-- (REG-222) and edge map (REG-214) show it.
--
-- Levels as in build3d/tilecache-repair: small solid-column maps ('#' a wall column, a digit d
-- a floor column of area d, 'B' a floor with a second floor of area 1 above it, '.' no
-- column), cell size and height 1, agent radius 0, so a box obstacle over columns x0..x1,
-- z0..z1 removes exactly their floor spans (RT-022). Two caches per level, the repair on and
-- off (RT-107); shapes are added to both and every layer of the level is asked for without an
-- Update (RT-154: the areas in force). Checks, beside the checkpoints:
--   * the repair on and off give the same answer (RT-106) -- whatever path the reference takes;
--   * for the named steps, the same answer as the first build of a fresh cache with the shapes
--     in the settings (RT-010: that is the first build's kept data, RT-100);
--   * after the shapes are removed the first build's answer comes back (RT-013 step 2), and the
--     op changes neither the queue nor the snapshot (RT-154);
-- Steps (by the path the reference takes, RT-101):
--   min (b): MinRegionArea - 1, exactly, + 1 spans left in a region; a region that vanishes;
--   split (c): a corridor cut in two, a room cut by a wall with one gap left and none left,
--     the piece holding the first span on either side (so the numbers move, REG-150);
--   numbers (d): a removed first row moving a region's first span past the next region's, and
--     one span fewer (repaired, the numbers kept);
--   holes (REG-216, REG-219, REG-220): two and three pillars with one leftmost x (order falls to
--     z), a removal that makes their region dirty (re-joined), a removal in another region (their
--     region untouched), a new hole beside old ones;
--   layers: a level with two floors (RT-081), each layer asked for;
--   walk: every 1 x 1, 1 x 2, 2 x 1, 2 x 2 and 1 x 3 cut of each level, one at a time, on and off
--     compared in full, one checkpoint per level (region values, region count, contour length);
--   errors: the argument order and values of RT-154.
local ROWS_FLOOR, ROWS_WALL = 10, 30

local function columns(map)
  local w, d = #map[1], #map
  local spans = {}
  for z = 1, d do
    assert(#map[z] == w, "map rows of one length")
    for x = 1, w do
      local ch = map[z]:sub(x, x)
      if ch == "#" then spans[#spans + 1] = { { 0, ROWS_WALL, 0 } }
      elseif ch == "B" then spans[#spans + 1] = { { 0, ROWS_FLOOR, 1 }, { 20, 22, 1 } }
      elseif ch == "S" then spans[#spans + 1] = { { 0, ROWS_FLOOR, 2 } }
      elseif ch == "H" then spans[#spans + 1] = { { 0, 13, 1 } }
      elseif ch == "Q" then spans[#spans + 1] = { { 0, ROWS_FLOOR, 0 }, { 12, 13, 1 } }
      elseif ch:match("%d") then spans[#spans + 1] = { { 0, ROWS_FLOOR, tonumber(ch) } }
      else spans[#spans + 1] = {} end
    end
  end
  return { origin = { 0, 0, 0 }, width = w, depth = d, spans = spans }
end

-- removes the floor spans of columns x0..x1, z0..z1 (the lower floor only: y 5 .. 15)
local function cut(x0, z0, x1, z1)
  return { shape = "box", bmin = { x0 + 0.25, 5, z0 + 0.25 }, bmax = { x1 + 0.75, 15, z1 + 0.75 } }
end
-- the same on the upper floor of 'B' columns (y 15 .. 25)
local function cut_up(x0, z0, x1, z1)
  return { shape = "box", bmin = { x0 + 0.25, 15, z0 + 0.25 }, bmax = { x1 + 0.75, 25, z1 + 0.75 } }
end
local function vol(x0, z0, x1, z1, area)
  return { points = { { x0 + 0.25, z0 + 0.25 }, { x1 + 0.75, z0 + 0.25 }, { x1 + 0.75, z1 + 0.75 },
                      { x0 + 0.25, z1 + 0.75 } }, ymin = 5, ymax = 15, area = area }
end

local CASES = {
  {
    name = "min", tile = 16, min = 4,
    map = {
      "###########",
      "#111111111#",
      "#111111111#",
      "###########",
      "#1111111###",
      "###########",
    },
    steps = {
      { tag = "b-min-plus-one", path = "repaired", obstacles = { cut(6, 4, 7, 4) } },
      { tag = "b-exactly-min", path = "repaired", obstacles = { cut(5, 4, 7, 4) } },
      { tag = "b-min-minus-one", path = "fallback (b)", obstacles = { cut(4, 4, 7, 4) } },
      { tag = "b-first-span-min", path = "repaired", obstacles = { cut(1, 4, 3, 4) } },
      { tag = "b-vanishes", path = "fallback (b)", obstacles = { cut(1, 4, 7, 4) } },
      { tag = "b-big-region", path = "repaired", obstacles = { cut(2, 1, 8, 2) } },
    },
  },
  {
    name = "min0", tile = 16, min = 0,
    map = {
      "########",
      "#111111#",
      "####1###",
      "#111111#",
      "########",
    },
    steps = {
      { tag = "b-one-left", path = "repaired", obstacles = { cut(1, 1, 5, 1) } },
      { tag = "b-vanishes", path = "fallback (b)", obstacles = { cut(1, 1, 6, 1) } },
      { tag = "c-stem", path = "fallback (c)", obstacles = { cut(4, 2, 4, 2) } },
    },
  },
  {
    name = "split", tile = 16, min = 2,
    map = {
      "############",
      "#1111#11111#",
      "#1111#11111#",
      "#1111111111#",
      "#1111#11111#",
      "#1111111111#",
      "############",
    },
    steps = {
      { tag = "c-one-gap-left", path = "repaired", obstacles = { cut(5, 3, 5, 3) } },
      { tag = "c-other-gap-left", path = "repaired", obstacles = { cut(5, 5, 5, 5) } },
      { tag = "c-no-gap-left", path = "fallback (c)", obstacles = { cut(5, 3, 5, 3), cut(5, 5, 5, 5) } },
      { tag = "c-first-span-side", path = "fallback (c)", obstacles = { cut(3, 1, 3, 5) } },
      { tag = "c-far-side", path = "fallback (c)", obstacles = { cut(8, 1, 8, 5) } },
      { tag = "c-corner-cut", path = "repaired", obstacles = { cut(1, 1, 1, 1) } },
      { tag = "c-diagonal-pinch", path = "fallback (c)", obstacles = { cut(2, 1, 2, 1), cut(1, 2, 1, 2) } },
    },
  },
  {
    -- a cut two rows thick: the ring of its first row lies in the piece above, that of its second
    -- row in the piece below; a removal in region 2 (area 2, the same layer) between them in span
    -- order (RT-102 searches each region once, over its whole ring)
    name = "split-rows", tile = 16, min = 2,
    map = {
      "##########",
      "#11111222#",
      "#11111222#",
      "#11111222#",
      "#11111222#",
      "#11111222#",
      "#11111222#",
      "##########",
    },
    steps = {
      { tag = "c-thick-cut", path = "fallback (c)", obstacles = { cut(1, 3, 5, 4), cut(7, 3, 7, 3) } },
      { tag = "c-thick-cut-alone", path = "fallback (c)", obstacles = { cut(1, 3, 5, 4) } },
      { tag = "c-thick-cut-gap", path = "repaired", obstacles = { cut(1, 3, 4, 4), cut(7, 3, 7, 3) } },
      { tag = "c-two-regions", path = "repaired", obstacles = { cut(2, 3, 3, 4), cut(7, 3, 7, 4) } },
    },
  },
  {
    name = "numbers", tile = 16, min = 2,
    map = {
      "#############",
      "#11122233345#",
      "#11122233345#",
      "#11122233345#",
      "#############",
    },
    steps = {
      { tag = "d-region1-row", path = "fallback (d)", obstacles = { cut(1, 1, 3, 1) } },
      { tag = "d-region1-row-less-one", path = "repaired", obstacles = { cut(1, 1, 2, 1) } },
      { tag = "d-region2-row", path = "fallback (d)", obstacles = { cut(4, 1, 6, 1) } },
      { tag = "d-region3-row", path = "fallback (d)", obstacles = { cut(7, 1, 9, 1) } },
      { tag = "d-region3-row-less-one", path = "repaired", obstacles = { cut(7, 1, 8, 1) } },
      { tag = "d-last-region", path = "repaired", obstacles = { cut(10, 1, 10, 1) } },
      { tag = "d-two-rows", path = "fallback (d)", obstacles = { cut(1, 1, 3, 2) } },
      { tag = "d-and-volume", path = "fallback (a)", obstacles = { cut(1, 1, 3, 1) }, volumes = { vol(10, 3, 10, 3, 2) } },
    },
  },
  {
    -- rooms apart: the span after region 1's first run is a wall (region 0), not region 2's
    name = "numbers-walls", tile = 16, min = 2,
    map = {
      "#########",
      "#11#222##",
      "#11#222#3",
      "#11#222##",
      "#########",
    },
    steps = {
      { tag = "d-first-run", path = "fallback (d)", obstacles = { cut(1, 1, 2, 1) } },
      { tag = "d-first-run-less-one", path = "repaired", obstacles = { cut(1, 1, 1, 1) } },
      { tag = "d-region2-run", path = "fallback (d)", obstacles = { cut(4, 1, 6, 1) } },
      { tag = "d-region1-column", path = "repaired", obstacles = { cut(1, 1, 1, 3) } },
    },
  },
  {
    name = "holes", tile = 16, min = 2,
    map = {
      "##############",
      "#111111111111#",
      "#1#111#111111#",
      "#111111111#11#",
      "#1#111#111111#",
      "#111111111#11#",
      "#1#111111111##",
      "#111111111122#",
      "##############",
    },
    steps = {
      { tag = "dirty-far", path = "repaired", obstacles = { cut(12, 1, 12, 1) } },
      { tag = "dirty-between", path = "repaired", obstacles = { cut(4, 3, 4, 3) } },
      { tag = "pillar-grows", path = "repaired", obstacles = { cut(2, 3, 2, 3) } },
      { tag = "pillars-join", path = "repaired", obstacles = { cut(2, 5, 2, 5) } },
      { tag = "pillar-to-outline", path = "repaired", obstacles = { cut(1, 2, 1, 2) } },
      { tag = "other-region", path = "repaired", obstacles = { cut(12, 7, 12, 7) } },
      { tag = "new-hole-same-x", path = "repaired", obstacles = { cut(6, 6, 6, 6) } },
      { tag = "hole-order-z", path = "repaired", obstacles = { cut(8, 2, 8, 2), cut(8, 5, 8, 5) } },
      { tag = "two-regions", path = "repaired", obstacles = { cut(5, 1, 5, 1), cut(11, 7, 11, 7) } },
    },
  },
  {
    name = "areas", tile = 16, min = 2,
    map = {
      "###########",
      "#111112222#",
      "#112112222#",
      "#111113333#",
      "#111113333#",
      "###########",
    },
    steps = {
      { tag = "island-of-2", path = "repaired", obstacles = { cut(1, 1, 1, 1) } },
      { tag = "island-removed", path = "fallback (b)", obstacles = { cut(3, 2, 3, 2) } },
      { tag = "border-2-3", path = "repaired", obstacles = { cut(6, 2, 7, 3) } },
      { tag = "zero-volume", path = "repaired", obstacles = { cut(8, 3, 9, 4) }, volumes = { vol(8, 3, 9, 4, 0) } },
      { tag = "other-area", path = "fallback (a)", volumes = { vol(2, 3, 3, 4, 3) } },
    },
  },
  {
    name = "floors", tile = 16, min = 2,
    map = {
      "############",
      "#1111111111#",
      "#11BBBBBB11#",
      "#11BBBBBB11#",
      "#11BBBBBB11#",
      "#11BBBBBB11#",
      "#1111111111#",
      "############",
    },
    steps = {
      { tag = "lower", path = "repaired", obstacles = { cut(1, 1, 1, 1) } },
      { tag = "lower-under", path = "repaired", obstacles = { cut(5, 3, 5, 3) } },
      { tag = "upper", path = "repaired", obstacles = { cut_up(5, 3, 5, 3) } },
      { tag = "upper-split", path = "fallback (c)", obstacles = { cut_up(5, 3, 5, 4) } },
      { tag = "both", path = "repaired", obstacles = { cut(1, 6, 2, 6), cut_up(7, 4, 7, 4) } },
    },
  },
  {
    -- every room below MinRegionArea: no ordinary region, no polygon, so no tile (RT-085); the
    -- layer is still there and asked for by its coordinates
    name = "dropped", tile = 16, min = 8, units = { { x = 0, z = 0, layer = 0 } }, unchanged = true,
    map = {
      "#########",
      "#111#111#",
      "#111#111#",
      "#########",
    },
    steps = {
      { tag = "b-island-shrinks", path = "repaired", obstacles = { cut(2, 1, 2, 1) } },
      { tag = "b-island-split", path = "repaired", obstacles = { cut(2, 1, 2, 2) } },
      { tag = "b-both", path = "repaired", obstacles = { cut(1, 1, 1, 1), cut(7, 2, 7, 2) } },
    },
  },
  {
    -- the same with the walkable spans beside the island taken away by a settings volume of
    -- area 0: they stay in the layer (RT-081) with region 0, so region value 0 has more spans
    -- than MinRegionArea while no ordinary region exists
    name = "dropped-volume", tile = 16, min = 8, units = { { x = 0, z = 0, layer = 0 } }, unchanged = true,
    build_volumes = { vol(3, 1, 7, 3, 0) },
    map = {
      "#########",
      "#1111111#",
      "#1111111#",
      "#1111111#",
      "#########",
    },
    steps = {
      { tag = "b-island-shrinks", path = "repaired", obstacles = { cut(1, 1, 1, 1) } },
      { tag = "b-island-split", path = "repaired", obstacles = { cut(1, 2, 2, 2) } },
      { tag = "b-zero-area-spans", path = "repaired", obstacles = { cut(4, 2, 5, 2) } },
    },
  },
  {
    -- tiles of 6 (Border 3): map row 3 is grid row 0 of the tiles tz = 1 and map column 3 grid
    -- column 0 of the tiles tx = 1, so removals there look past the grid's edge (RT-101 (b)'s
    -- neighbours); the one-span region of area 2 is below MinRegionArea, kept by its links
    name = "ring-row", tile = 6, min = 2,
    map = {
      "#############",
      "#11111111111#",
      "#11111111111#",
      "#11111111111#",
      "#11111111111#",
      "#11111111111#",
      "#11111111111#",
      "#11111111111#",
      "#11121111111#",
      "#11111111111#",
      "#11111111111#",
      "#############",
    },
    steps = {
      { tag = "grid-row-0", path = "repaired", obstacles = { cut(2, 3, 2, 3) } },
      { tag = "grid-column-0", path = "repaired", obstacles = { cut(3, 5, 3, 5) } },
      { tag = "grid-corner", path = "repaired", obstacles = { cut(3, 3, 3, 3) } },
      { tag = "next-to-small", path = "fallback (b)", obstacles = { cut(4, 7, 4, 7) } },
    },
  },
  {
    -- a one-way link (SPAN-143): with climb 3, the floor r at row 13 of column Q links to the
    -- one-span region s (area 2, row 10) at its -x, while s links back to the lower span q of
    -- Q (row 10, area 0, in the layer by REG-078); s's island is kept only by r's link
    -- (REG-100, REG-102: "linked" either way), so removing r drops it (RT-101 (b))
    name = "one-way", tile = 16, min = 2, climb = 3,
    map = {
      "######",
      "#SQHH#",
      "##HHH#",
      "##HHH#",
      "######",
    },
    steps = {
      { tag = "b-removes-the-link", path = "fallback (b)", obstacles = { cut(2, 1, 2, 1) } },
      { tag = "b-away", path = "repaired", obstacles = { cut(4, 3, 4, 3) } },
    },
  },
  {
    -- one repair that traces 24 new loops (a hole per removed span): more than the first
    -- capacity of the repair's list of new loops (RT-104)
    name = "many-holes", tile = 32, min = 2, nowalk = true,
    map = {
      "###########################",
      "#1111111111111111111111111#",
      "#1111111111111111111111111#",
      "#1111111111111111111111111#",
      "#1111111111111111111111111#",
      "#1111111111111111111111111#",
      "#1111111111111111111111111#",
      "#1111111111111111111111111#",
      "###########################",
    },
    steps = {},
  },
  {
    name = "tiles", tile = 6, min = 2,
    map = {
      "#############",
      "#11111111111#",
      "#11111#11111#",
      "#11111111111#",
      "#11#1111#111#",
      "#11111111111#",
      "#11111111111#",
      "#############",
    },
    steps = {
      { tag = "tile-edge", path = "repaired", obstacles = { cut(5, 2, 6, 3) } },
      { tag = "tile-corner", path = "repaired", obstacles = { cut(5, 5, 6, 6) } },
      { tag = "band", path = "fallback (c)", obstacles = { cut(6, 1, 6, 6) } },
    },
  },
}

-- many-holes: 24 single-span cuts, 3 columns and 2 rows apart, in one step
do
  local holes = {}
  for _, z in ipairs({ 2, 4, 6 }) do
    for x = 2, 23, 3 do holes[#holes + 1] = cut(x, z, x, z) end
  end
  for _, cs in ipairs(CASES) do
    if cs.name == "many-holes" then
      cs.steps = { { tag = "24-new-holes", path = "repaired", obstacles = holes } }
    end
  end
end

local function copy(s)
  local o = {}
  for k, v in pairs(s) do o[k] = v end
  return o
end

local function settings(t, case)
  local s = t:call("settings.preset", { name = "Humanoid" }).settings
  s.cell_size, s.cell_height = 1, 1
  s.agent_radius, s.agent_height, s.agent_climb = 0, 2, case.climb or 1
  s.tile_cells = case.tile
  s.partition = "layers"
  s.min_region_area, s.merge_region_area = case.min, 0
  s.max_simplification_error = 0.4
  s.max_edge_len = 0
  s.detail_sample_distance = 0
  return s
end

local function layer(t, c, u)
  return t:call("tilecache.layer", { cache = c, tile = { u.x, u.z }, layer = u.layer })
end
local function same(a, b)
  return a.nspans == b.nspans and a.nregions == b.nregions and a.regions == b.regions and
         a.bytes == b.bytes and a.edges == b.edges
end
-- every answer of a list of units into one table builder (RT-154's fields in order)
local function put(b, a)
  b:u32(a.nspans)
  b:u32(a.nregions)
  b:bytes(a.regions)
  b:bytes(a.bytes)
  b:bytes(a.edges)
end

-- the layers of a level: every (x, z, layer) the first build added, plus layer 1 of a tile
-- whose layer 0 has no polygon is not needed here (every level's layers have polygons)
local function units_of(r, case)
  if case and case.units then return case.units end
  local u = {}
  for _, tl in ipairs(r.tiles) do u[#u + 1] = { x = tl.x, z = tl.z, layer = tl.layer } end
  return u
end

local function add_all(t, c, st)
  local ids = { o = {}, v = {} }
  for _, o in ipairs(st.obstacles or {}) do
    ids.o[#ids.o + 1] = t:call("tilecache.add_obstacle", { cache = c, obstacle = o }).id
  end
  for _, v in ipairs(st.volumes or {}) do
    ids.v[#ids.v + 1] = t:call("tilecache.add_volume", { cache = c, volume = v }).id
  end
  return ids
end
local function remove_all(t, c, ids)
  for _, id in ipairs(ids.o) do t:call("tilecache.remove_obstacle", { cache = c, id = id }) end
  for _, id in ipairs(ids.v) do t:call("tilecache.remove_volume", { cache = c, id = id }) end
end

local function run_case(t, case)
  local s = settings(t, case)
  local cols = columns(case.map)
  local function cache(repair, obstacles, volumes)
    local bs = copy(s)
    bs.obstacles, bs.volumes = obstacles or {}, {}
    for _, v in ipairs(case.build_volumes or {}) do bs.volumes[#bs.volumes + 1] = v end
    for _, v in ipairs(volumes or {}) do bs.volumes[#bs.volumes + 1] = v end
    local r = t:call("tilecache.heightfield", { settings = bs, columns = cols, repair = repair })
    return r
  end
  local on, off = cache(true), cache(false)
  local units = units_of(on, case)
  t:check(#units > 0, case.name .. ": the level has layers")
  local first = {}
  local b0 = t:table()
  for i, u in ipairs(units) do
    first[i] = layer(t, on.cache, u)
    t:check(same(first[i], layer(t, off.cache, u)), case.name .. ": the first build, repair on and off (RT-107)")
    put(b0, first[i])
    local tag = case.name .. "-first-" .. u.x .. "," .. u.z .. "," .. u.layer
    t:checkpoint(tag .. "-contours", "table", first[i].bytes, "contours")
  end
  t:checkpoint(case.name .. "-first", "table", b0:hex())
  local snap0 = t:call("tilecache.snapshot_save", { cache = on.cache }).bytes
  for _, st in ipairs(case.steps) do
    local tag = case.name .. " " .. st.tag .. " (" .. st.path .. ")"
    local ion, ioff = add_all(t, on.cache, st), add_all(t, off.cache, st)
    local q = t:call("tilecache.queue", { cache = on.cache }).queue
    local sn = t:call("tilecache.snapshot_save", { cache = on.cache }).bytes
    local fr = cache(true, st.obstacles, st.volumes)
    local b = t:table()
    local changed = false
    for i, u in ipairs(units) do
      local a = layer(t, on.cache, u)
      t:check(same(a, layer(t, off.cache, u)), tag .. ": layer " .. u.x .. "," .. u.z .. "," .. u.layer ..
              ": the repair on and off give the same layer (RT-106)")
      t:check(same(a, layer(t, fr.cache, u)), tag .. ": layer " .. u.x .. "," .. u.z .. "," .. u.layer ..
              ": the layer of a fresh build with the shapes in the settings (RT-100, RT-154)")
      changed = changed or not same(a, first[i])
      put(b, a)
      if not same(a, first[i]) then
        t:checkpoint(case.name .. "-" .. st.tag .. "-" .. u.x .. "," .. u.z .. "," .. u.layer, "table", a.bytes, "contours")
      end
    end
    t:check(changed or case.unchanged, tag .. ": the step changes a layer")
    t:checkpoint(case.name .. "-" .. st.tag, "table", b:hex())
    t:check(#t:call("tilecache.queue", { cache = on.cache }).queue == #q, tag .. ": tilecache.layer queues nothing (RT-154)")
    t:check(t:call("tilecache.snapshot_save", { cache = on.cache }).bytes == sn,
            tag .. ": tilecache.layer leaves the snapshot alone (RT-154)")
    t:call("drop", { handle = fr.cache })
    remove_all(t, on.cache, ion)
    remove_all(t, off.cache, ioff)
    for i, u in ipairs(units) do
      t:check(same(layer(t, on.cache, u), first[i]), tag .. ": removed, the first build's layer (RT-013)")
    end
  end
  local u = t:call("tilecache.update", { cache = on.cache })
  t:check(u.queued == 0 and t:call("tilecache.snapshot_save", { cache = on.cache }).bytes ~= snap0,
          case.name .. ": every step undone and updated (the next ids moved, RT-130)")
  t:call("drop", { handle = on.cache })
  t:call("drop", { handle = off.cache })
end

-- every small cut of the level, one at a time: on and off compared, one checkpoint
local SHAPES = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 2, 0 }, { 0, 2 } }
local function walk(t, case)
  local s = settings(t, case)
  s.volumes = case.build_volumes
  local cols = columns(case.map)
  local on = t:call("tilecache.heightfield", { settings = s, columns = cols, repair = true })
  local off = t:call("tilecache.heightfield", { settings = s, columns = cols, repair = false })
  local units = units_of(on, case)
  local w, d = #case.map[1], #case.map
  local b = t:table()
  local bad = 0
  for _, sh in ipairs(SHAPES) do
    for z = 1, d - 2 - sh[2] do
      for x = 1, w - 2 - sh[1] do
        local o = cut(x, z, x + sh[1], z + sh[2])
        local io = t:call("tilecache.add_obstacle", { cache = on.cache, obstacle = o }).id
        local jo = t:call("tilecache.add_obstacle", { cache = off.cache, obstacle = o }).id
        for _, u in ipairs(units) do
          local a = layer(t, on.cache, u)
          if not same(a, layer(t, off.cache, u)) then bad = bad + 1 end
          b:u32(a.nregions)  -- the walk's checkpoint: region values and sizes only (small)
          b:u32(#a.bytes // 2)
          b:bytes(a.regions)
        end
        t:call("tilecache.remove_obstacle", { cache = on.cache, id = io })
        t:call("tilecache.remove_obstacle", { cache = off.cache, id = jo })
      end
    end
  end
  t:check(bad == 0, case.name .. " walk: every cut, the repair on and off give the same layers (RT-106): " ..
          bad .. " differ")
  t:checkpoint(case.name .. "-walk", "table", b:hex())
  t:call("drop", { handle = on.cache })
  t:call("drop", { handle = off.cache })
end

local function errors(t)
  local case = { tile = 6, min = 2 }
  local s = settings(t, case)
  local cols = columns(CASES[#CASES].map)
  local r = t:call("tilecache.heightfield", { settings = s, columns = cols })
  local c = r.cache
  t:expect_error("tilecache.layer", { cache = "x", tile = { 0, 0 }, layer = 0 },
                 { kind = "argument", field = "cache", value = "" })
  t:expect_error("tilecache.layer", { cache = r.mesh + 1000, tile = { 0, 0 }, layer = 0 },
                 { kind = "argument", field = "cache", value = tostring(r.mesh + 1000) })
  t:expect_error("tilecache.layer", { cache = r.mesh, tile = { 0, 0 }, layer = 0 },
                 { kind = "argument", field = "cache", value = tostring(r.mesh) })
  t:expect_error("tilecache.layer", { cache = c, layer = 0 }, { kind = "argument", field = "tile", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 0 }, layer = 0 }, { kind = "argument", field = "tile", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 0, 0, 0 }, layer = 0 }, { kind = "argument", field = "tile", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 0, 2147483648 }, layer = 0 },
                 { kind = "argument", field = "tile", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { -2147483649, 0 }, layer = 0 },
                 { kind = "argument", field = "tile", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 0.5, 0 }, layer = 0 }, { kind = "argument", field = "tile", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 0, 0 } }, { kind = "argument", field = "layer", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 0, 0 }, layer = -1 }, { kind = "argument", field = "layer", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 0, 0 }, layer = 4294967296 },
                 { kind = "argument", field = "layer", value = "" })
  -- `tile` is read before `layer`, both before the cache's tiles are looked at
  t:expect_error("tilecache.layer", { cache = c, tile = { 0 }, layer = -1 }, { kind = "argument", field = "tile", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 9, 9 }, layer = -1 }, { kind = "argument", field = "layer", value = "" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 9, 0 }, layer = 0 }, { kind = "argument", field = "tile", value = "9,0" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 0, -1 }, layer = 0 }, { kind = "argument", field = "tile", value = "0,-1" })
  t:expect_error("tilecache.layer", { cache = c, tile = { -2147483648, 2147483647 }, layer = 0 },
                 { kind = "argument", field = "tile", value = "-2147483648,2147483647" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 1, 1 }, layer = 1 },
                 { kind = "out_of_range", field = "layer", value = "1" })
  t:expect_error("tilecache.layer", { cache = c, tile = { 1, 1 }, layer = 4294967295 },
                 { kind = "out_of_range", field = "layer", value = "4294967295" })
  local a = t:call("tilecache.layer", { cache = c, tile = { 1, 1 }, layer = 0 })
  t:check(a.nspans > 0 and #a.regions == 4 * a.nspans and #a.edges == 32 * a.nspans,
          "errors: a layer's regions are u16 and its edges u32 per edge key (RT-154)")
  -- the two-floor level: layer 1 is there, layer 2 is not
  local fl
  for _, cs in ipairs(CASES) do if cs.name == "floors" then fl = cs end end
  local r2 = t:call("tilecache.heightfield", { settings = settings(t, fl), columns = columns(fl.map) })
  local l1 = t:call("tilecache.layer", { cache = r2.cache, tile = { 0, 0 }, layer = 1 })
  t:check(l1.nspans >= 8, "floors: layer 1 holds the upper floor (RT-081)")
  t:expect_error("tilecache.layer", { cache = r2.cache, tile = { 0, 0 }, layer = 2 },
                 { kind = "out_of_range", field = "layer", value = "2" })
  -- a cache on the general path (RT-080: watershed) has no layers
  local gs = settings(t, case)
  gs.partition = "watershed"
  local g = t:call("tilecache.heightfield", { settings = gs, columns = cols })
  t:expect_error("tilecache.layer", { cache = g.cache, tile = { 0, 0 }, layer = 0 },
                 { kind = "argument", field = "cache", value = tostring(g.cache) })
  t:expect_error("tilecache.layer", { cache = g.cache, tile = { 0 }, layer = 0 },
                 { kind = "argument", field = "tile", value = "" })
  t:call("drop", { handle = g.cache })
  t:call("drop", { handle = r2.cache })
  t:call("drop", { handle = c })
end

return {
  title = "Tile cache layers (tilecache.layer): regions, contours and edge map around every repair boundary",
  clauses = { "REG-150", "REG-214", "REG-216", "REG-219", "REG-220", "REG-222", "RT-013", "RT-041", "RT-081",
              "RT-084", "RT-100", "RT-101", "RT-102", "RT-103", "RT-104", "RT-105", "RT-106", "RT-107",
              "RT-154" },
  run = function(t)
    errors(t)
    for _, case in ipairs(CASES) do run_case(t, case) end
    for _, case in ipairs(CASES) do
      if not case.nowalk then walk(t, case) end
    end
  end,
}
