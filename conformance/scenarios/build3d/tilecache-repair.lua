-- build3d/tilecache-repair: the repair's preconditions (RT-101 (a) to (d)) and its search
-- (RT-102) each failed exactly at its boundary and passed one step inside it (issue 13).
--
-- Small solid-column levels (tilecache.heightfield, POLY-232) drawn as maps: '#' is a wall
-- column (solid to row 30, top not walkable), a digit d a floor column (solid to row 10, top
-- of area d). Cell size and height 1, agent radius 0 (no erosion, obstacles not grown,
-- RT-020), so a box obstacle from (x0 + 0.25, z0 + 0.25) to (x1 + 0.75, z1 + 0.75) removes
-- exactly the floor spans of columns x0..x1, z0..z1 (RT-022). In the layer of such a map the
-- regions are the connected sets of equal-area floor columns (RT-084), numbered by their first
-- span in row order (REG-150), and an isolated island below MinRegionArea is dropped (REG-100
-- to REG-104). Every step adds its shapes to two caches (repair on and off), updates, and
-- checks that both give the same mesh and snapshot bytes (RT-106, RT-107) and the tiles of a
-- fresh build with the shapes in the settings (RT-027, RT-043); it checkpoints the mesh and
-- the snapshot, removes the shapes again, updates and checks the first build's tiles (RT-027).
-- The steps, by the path the reference takes (the repair or the reason of its fallback,
-- RT-101; the protocol does not show the path, RT-106, so each step is built so that a repair
-- that ignored the failing condition would give other bytes):
--   corridor (b): a walled room of 6 spans; 2 removed leave exactly MinRegionArea (4: repaired),
--     3 removed leave 3 (the fresh build drops the island: fallback (b)); the same with
--     MinRegionArea 2: 2 left repaired, 1 left fallback; all removed (vanishes);
--   sizes (b): the same boundary in rooms whose region values, in span order, interleave a
--     region with a span of region 0 (area 0 by a settings volume) or with another region
--     (the sizes count each region's spans only);
--   linked (b): a 2-span region of area 2, below MinRegionArea, kept by its link to area 1;
--     removing the two area-1 spans it hangs on isolates it (dropped: fallback (b)); a removal
--     away from it is repaired; removing only the nearer one splits region 1 (fallback (c));
--   gaps (c): two rooms joined by two gaps in a wall: removing one gap needs the global search
--     (the local set of RT-102 is not connected) and is repaired; removing both splits the
--     region (fallback (c)); a removal inside a room leaves a new hole (repaired);
--   numbers (d): three rooms of areas 1, 2, 3 side by side (one layer, three regions): a removed
--     first row moves a room's first span past the next room's (fallback (d), for regions 1 and 2 and for regions 2 and 3), one span
--     fewer keeps the order (repaired);
--   volume (a): a volume of another area (fallback (a)); an area-0 volume over spans an obstacle
--     already removed (repaired); an area-0 volume partly over floor (fallback (a));
--   budget (RT-102): a 40 x 40 level (1600 spans, budget 400): a wall of removed spans that
--     splits the room with more than 400 spans on the side of s0 (the budget runs out: fallback
--     (c)), one with 76 (the queue empties: fallback (c)), and a removed gap of a long wall
--     whose detour exhausts the budget (fallback (c)) plus the same with the other gap;
--   pillars and tiles: holes next to removals, a hole joined to the outline, loops renumbered in
--     a layer with an untouched region of another area; a level of 2 x 2 tiles with removals in the border ring.
local ROWS_FLOOR, ROWS_WALL = 10, 30

-- a map (list of strings, row z = 0 first) -> the heightfield input of POLY-232
local function columns(map)
  local w, d = #map[1], #map
  local spans = {}
  for z = 1, d do
    assert(#map[z] == w, "map rows of one length")
    for x = 1, w do
      local ch = map[z]:sub(x, x)
      if ch == "#" then spans[#spans + 1] = { { 0, ROWS_WALL, 0 } }
      elseif ch:match("%d") then spans[#spans + 1] = { { 0, ROWS_FLOOR, tonumber(ch) } }
      else spans[#spans + 1] = {} end
    end
  end
  return { origin = { 0, 0, 0 }, width = w, depth = d, spans = spans }
end

-- the box obstacle that removes the floor spans of columns x0..x1, z0..z1 (RT-021, RT-022)
local function cut(x0, z0, x1, z1)
  return { shape = "box", bmin = { x0 + 0.25, 5, z0 + 0.25 }, bmax = { x1 + 0.75, 15, z1 + 0.75 } }
end

-- the volume over the same columns (SPAN-160: the cell centres inside the outline)
local function vol(x0, z0, x1, z1, area)
  return { points = { { x0 + 0.25, z0 + 0.25 }, { x1 + 0.75, z0 + 0.25 }, { x1 + 0.75, z1 + 0.75 },
                      { x0 + 0.25, z1 + 0.75 } }, ymin = 5, ymax = 15, area = area }
end

local CASES = {
  {
    name = "corridor", tile = 16, min = 4,
    map = {
      "##########",
      "#11111111#",
      "#11111111#",
      "##########",
      "#111111###",
      "##########",
    },
    steps = {
      { tag = "b-exactly-min", path = "repaired", obstacles = { cut(5, 4, 6, 4) } },
      { tag = "b-one-fewer", path = "fallback (b)", obstacles = { cut(4, 4, 6, 4) } },
      { tag = "b-vanishes", path = "fallback (b)", obstacles = { cut(1, 4, 6, 4) } },
    },
  },
  {
    name = "corridor-min2", tile = 16, min = 2,
    map = {
      "##########",
      "#11111111#",
      "#11111111#",
      "##########",
      "#111111###",
      "##########",
    },
    steps = {
      { tag = "b-exactly-min", path = "repaired", obstacles = { cut(3, 4, 6, 4) } },
      { tag = "b-one-fewer", path = "fallback (b)", obstacles = { cut(2, 4, 6, 4) } },
    },
  },
  {
    name = "corridor-min1", tile = 16, min = 1,
    map = {
      "##########",
      "#11111111#",
      "#11111111#",
      "##########",
      "#111111###",
      "##########",
    },
    steps = {
      { tag = "b-exactly-min", path = "repaired", obstacles = { cut(2, 4, 6, 4) } },
      { tag = "b-vanishes", path = "fallback (b)", obstacles = { cut(1, 4, 6, 4) } },
    },
  },
  {
    -- the first span of the layer view is region 1's, the next one (2, 1) is walkable but
    -- of area 0 by a settings volume (so in the view, RT-081, with region 0), then three of
    -- region 1: region 1's size (RT-100: from the region values) counts its own spans only
    name = "sizes-zero", tile = 16, min = 4, build_volumes = { vol(2, 1, 2, 1, 0) },
    map = {
      "#######",
      "#11111#",
      "#11111#",
      "#######",
    },
    steps = {
      { tag = "b-exactly-min", path = "repaired", obstacles = { cut(3, 1, 5, 1), cut(4, 2, 5, 2) } },
      { tag = "b-one-fewer", path = "fallback (b)", obstacles = { cut(3, 1, 5, 1), cut(3, 2, 5, 2) } },
    },
  },
  {
    -- the view starts 1, 2, 1, 1, 1 (regions 1 and 2): region 1's size counts only its own
    -- spans; what is left of it, in column x = 5, is isolated from region 2 (area 2)
    name = "sizes-region", tile = 16, min = 3,
    map = {
      "#######",
      "#12111#",
      "#12111#",
      "#12111#",
      "#12111#",
      "#11111#",
      "#######",
    },
    steps = {
      { tag = "b-exactly-min", path = "fallback (d)",
        obstacles = { cut(1, 1, 1, 5), cut(2, 5, 5, 5), cut(3, 1, 4, 4), cut(5, 4, 5, 4) } },
      { tag = "b-one-fewer", path = "fallback (b)",
        obstacles = { cut(1, 1, 1, 5), cut(2, 5, 5, 5), cut(3, 1, 4, 4), cut(5, 3, 5, 4) } },
    },
  },
  {
    name = "linked", tile = 16, min = 4,
    map = {
      "##########",
      "#11111111#",
      "#11111111#",
      "####1#####",
      "####1#####",
      "####2#####",
      "####2#####",
      "##########",
    },
    steps = {
      { tag = "b-away", path = "repaired", obstacles = { cut(8, 1, 8, 1) } },
      { tag = "b-isolates-small", path = "fallback (b)", obstacles = { cut(4, 3, 4, 4) } },
      { tag = "c-splits-stem", path = "fallback (c)", obstacles = { cut(4, 3, 4, 3) } },
      { tag = "b-next-to-small", path = "fallback (b)", obstacles = { cut(4, 4, 4, 4) } },
    },
  },
  {
    name = "gaps", tile = 16, min = 4,
    map = {
      "############",
      "#1111#11111#",
      "#1111#11111#",
      "#1111111111#",
      "#1#11#11#11#",
      "#1111#11111#",
      "#1111111111#",
      "############",
    },
    steps = {
      { tag = "c-one-gap-global", path = "repaired", obstacles = { cut(5, 3, 5, 3) } },
      { tag = "c-other-gap-global", path = "repaired", obstacles = { cut(5, 6, 5, 6) } },
      { tag = "c-both-gaps-split", path = "fallback (c)", obstacles = { cut(5, 3, 5, 3), cut(5, 6, 5, 6) } },
      { tag = "c-new-hole", path = "repaired", obstacles = { cut(2, 2, 2, 3) } },
      { tag = "c-narrowed", path = "repaired", obstacles = { cut(7, 1, 9, 4) } },
      { tag = "c-cut-across", path = "fallback (c)", obstacles = { cut(7, 1, 7, 6) } },
    },
  },
  {
    name = "numbers", tile = 16, min = 4,
    map = {
      "###########",
      "#111222333#",
      "#111222333#",
      "#111222333#",
      "###########",
    },
    steps = {
      { tag = "d-first-row-1", path = "fallback (d)", obstacles = { cut(1, 1, 3, 1) } },
      { tag = "d-first-row-1-less-one", path = "repaired", obstacles = { cut(1, 1, 2, 1) } },
      { tag = "d-first-row-2", path = "fallback (d)", obstacles = { cut(4, 1, 6, 1) } },
      { tag = "d-first-row-2-less-one", path = "repaired", obstacles = { cut(4, 1, 5, 1) } },
      { tag = "d-first-row-3", path = "repaired", obstacles = { cut(7, 1, 9, 1) } },
      { tag = "d-two-rooms", path = "fallback (d)", obstacles = { cut(4, 1, 6, 1), cut(7, 1, 8, 1) } },
    },
  },
  {
    name = "volume", tile = 16, min = 4,
    map = {
      "############",
      "#1111111111#",
      "#1111111111#",
      "#1111111111#",
      "#1111111111#",
      "############",
    },
    steps = {
      { tag = "a-other-area", path = "fallback (a)", volumes = { vol(3, 2, 4, 3, 3) } },
      { tag = "a-zero-over-removed", path = "repaired", obstacles = { cut(3, 2, 4, 3) },
        volumes = { vol(3, 2, 4, 3, 0) } },
      { tag = "a-zero-over-floor", path = "fallback (a)", obstacles = { cut(3, 2, 4, 3) },
        volumes = { vol(3, 2, 5, 3, 0) } },
      { tag = "a-removed-only", path = "repaired", obstacles = { cut(3, 2, 5, 3) } },
    },
  },
  {
    name = "pillars", tile = 16, min = 4,
    map = {
      "##############",
      "#111111111222#",
      "#1#11111#1222#",
      "#1111111111#2#",
      "#111#11#111#2#",
      "#1111111111#2#",
      "##############",
    },
    steps = {
      { tag = "hole-next-to-pillar", path = "repaired", obstacles = { cut(3, 2, 3, 2) } },
      { tag = "hole-to-outline", path = "repaired", obstacles = { cut(1, 2, 1, 2) } },
      { tag = "holes-merge", path = "repaired", obstacles = { cut(5, 4, 6, 4) } },
      { tag = "new-hole-and-region-2", path = "repaired", obstacles = { cut(6, 2, 6, 2), cut(12, 1, 12, 1) } },
      { tag = "outline-and-hole", path = "repaired", obstacles = { cut(8, 1, 9, 2) } },
    },
  },
  {
    name = "budget", tile = 40, min = 4, big = true,
    steps = {
      { tag = "split-over-budget", path = "fallback (c), budget", obstacles = { cut(20, 1, 20, 38) } },
      { tag = "split-under-budget", path = "fallback (c), queue empty", obstacles = { cut(3, 1, 3, 38) } },
      { tag = "gap-over-budget", path = "fallback (c), budget", wall = true, obstacles = { cut(20, 1, 20, 1) } },
      { tag = "other-gap-over-budget", path = "fallback (c), budget", wall = true, obstacles = { cut(20, 38, 20, 38) } },
      { tag = "gap-and-narrow", path = "fallback (c), budget", wall = true,
        obstacles = { cut(20, 38, 20, 38), cut(5, 5, 7, 7) } },
    },
  },
  {
    name = "tiles", tile = 9, min = 4,
    map = {
      "##################",
      "#1111111111111111#",
      "#1111111111111111#",
      "#111#1111111#1111#",
      "#1111111111111111#",
      "#1111111111111111#",
      "#11111111#1111111#",
      "#1111111111111111#",
      "#1111111111111111#",
      "##################",
    },
    steps = {
      { tag = "across-tile-edge", path = "repaired", obstacles = { cut(8, 3, 9, 4) } },
      { tag = "ring-band", path = "repaired", obstacles = { cut(9, 1, 10, 8) } },
      { tag = "corner", path = "repaired", obstacles = { cut(8, 8, 9, 9) } },
    },
  },
}

-- the 40 x 40 level of the budget case: one room, or (wall) two halves joined by two gaps
local function big_map(wall)
  local m = {}
  for z = 0, 39 do
    local row = {}
    for x = 0, 39 do
      local edge = x == 0 or z == 0 or x == 39 or z == 39
      local inner = wall and x == 20 and z >= 2 and z <= 37
      row[#row + 1] = (edge or inner) and "#" or "1"
    end
    m[#m + 1] = table.concat(row)
  end
  return m
end

local function copy(s)
  local o = {}
  for k, v in pairs(s) do o[k] = v end
  return o
end

local function save(t, c) return t:call("mesh.save", { mesh = c.mesh }).bytes end
local function snap(t, c) return t:call("tilecache.snapshot_save", { cache = c.cache }).bytes end

-- MESH-040 .. MESH-043: the mesh's tiles "x,z,layer" -> bytes (slots and generations left out)
local function unhex(h) return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end)) end
local function tiles(hex)
  local b = unhex(hex)
  local n = string.unpack("<I4", b, 69)
  local pos, out, count = 73, {}, 0
  for _ = 1, n do
    local x, z, layer, len = string.unpack("<i4i4i4I4", b, pos + 8)
    pos = pos + 24
    local tile = b:sub(pos, pos + len - 1)
    pos = pos + len
    local ne = string.unpack("<I4", b, pos)
    pos = pos + 4 + 8 * ne
    pos = pos + 4 + 24 * string.unpack("<I4", b, pos)
    out[x .. "," .. z .. "," .. layer] = tile
    count = count + 1
  end
  return out, count
end
local function same_tiles(a, b)
  local ta, na = tiles(a)
  local tb, nb = tiles(b)
  if na ~= nb then return false end
  for k, v in pairs(ta) do
    if tb[k] ~= v then return false end
  end
  return true
end

local function settings(t, case)
  local s = t:call("settings.preset", { name = "Humanoid" }).settings
  s.cell_size, s.cell_height = 1, 1
  s.agent_radius, s.agent_height, s.agent_climb = 0, 2, 1
  s.tile_cells = case.tile
  s.partition = "layers"
  s.min_region_area, s.merge_region_area = case.min, 0
  s.max_simplification_error = 0.4
  s.max_edge_len = 0
  s.detail_sample_distance = 0
  return s
end

local function run_case(t, case, map, steps)
  local s = settings(t, case)
  s.volumes = case.build_volumes
  local cols = columns(map)
  local function cache(repair)
    local r = t:call("tilecache.heightfield", { settings = s, columns = cols, repair = repair })
    return { cache = r.cache, mesh = r.mesh, r = r }
  end
  local function fresh(obstacles, volumes)
    local bs = copy(s)
    bs.obstacles, bs.volumes = obstacles, {}
    for _, v in ipairs(case.build_volumes or {}) do bs.volumes[#bs.volumes + 1] = v end
    for _, v in ipairs(volumes) do bs.volumes[#bs.volumes + 1] = v end
    local r = t:call("build3d.heightfield", { settings = bs, columns = cols })
    local bytes = t:call("mesh.save", { mesh = r.mesh }).bytes
    t:call("drop", { handle = r.mesh })
    return bytes
  end
  local on, off = cache(true), cache(false)
  local first = save(t, on)
  t:check(first == save(t, off), case.name .. ": the repair switch does not change the first build (RT-107)")
  t:check(on.r.npolys > 0, case.name .. ": the level has polygons")
  t:checkpoint(case.name .. "-first", "mesh", first)
  for _, st in ipairs(steps) do
    local tag = case.name .. " " .. st.tag .. " (" .. st.path .. ")"
    local ids = { [on] = { o = {}, v = {} }, [off] = { o = {}, v = {} } }
    for _, c in ipairs({ on, off }) do
      for _, o in ipairs(st.obstacles or {}) do
        local a = t:call("tilecache.add_obstacle", { cache = c.cache, obstacle = o })
        t:check(a.queued >= 1, tag .. ": the obstacle queues its tile (RT-050)")
        ids[c].o[#ids[c].o + 1] = a.id
      end
      for _, v in ipairs(st.volumes or {}) do
        local a = t:call("tilecache.add_volume", { cache = c.cache, volume = v })
        ids[c].v[#ids[c].v + 1] = a.id
      end
      local u = t:call("tilecache.update", { cache = c.cache })
      t:check(u.queued == 0, tag .. ": UpdateAll empties the queue (RT-060)")
    end
    local a, b = save(t, on), save(t, off)
    t:check(a == b and snap(t, on) == snap(t, off),
            tag .. ": the repair on and off give the same mesh and snapshot (RT-106)")
    t:check(a ~= first, tag .. ": the step changes the mesh")
    t:check(same_tiles(a, fresh(st.obstacles or {}, st.volumes or {})),
            tag .. ": the tiles of a fresh build with the shapes in the settings (RT-027, RT-043)")
    t:checkpoint(case.name .. "-" .. st.tag, "mesh", a)
    t:checkpoint(case.name .. "-" .. st.tag .. "-snapshot", "snapshot", snap(t, on))
    for _, c in ipairs({ on, off }) do
      for _, id in ipairs(ids[c].o) do t:call("tilecache.remove_obstacle", { cache = c.cache, id = id }) end
      for _, id in ipairs(ids[c].v) do t:call("tilecache.remove_volume", { cache = c.cache, id = id }) end
      t:call("tilecache.update", { cache = c.cache })
    end
    local ra = save(t, on)
    t:check(ra == save(t, off), tag .. ": removed, the repair on and off agree (RT-106)")
    t:check(same_tiles(ra, first), tag .. ": removed, the first build's tiles (RT-027)")
  end
  t:call("drop", { handle = on.cache })
  t:call("drop", { handle = off.cache })
end

return {
  title = "Tile cache repair: each precondition of RT-101 and the search of RT-102 at its boundary",
  clauses = { "REG-100", "REG-150", "RT-013", "RT-022", "RT-027", "RT-043", "RT-084", "RT-101", "RT-102",
              "RT-103", "RT-104", "RT-105", "RT-106", "RT-107" },
  cases = CASES,
  run = function(t)
    for _, case in ipairs(CASES) do
      if case.big then
        local plain, wall = {}, {}
        for _, st in ipairs(case.steps) do
          if st.wall then wall[#wall + 1] = st else plain[#plain + 1] = st end
        end
        run_case(t, { name = case.name, tile = case.tile, min = case.min }, big_map(false), plain)
        run_case(t, { name = case.name .. "-wall", tile = case.tile, min = case.min }, big_map(true), wall)
      else
        run_case(t, case, case.map, case.steps)
      end
    end
  end,
}
