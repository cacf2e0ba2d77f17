-- build3d/tilecache-mut-repair: repairs whose result differs from the first build's in the
-- two places the other repair scenarios did not reach (issue 13), read through
-- tilecache.layer (RT-154) with the repair on and off (RT-106, RT-107):
--   * ledge: a surviving loop whose corner's diagonal cell is DA (REG-206: B has no neighbour
--     across towards it, a ledge), a span of the border ring, removed: the corner loses its
--     tile-border flag, the loop survives "changed" and its region is re-joined (RT-104,
--     RT-105). Built on the border between tiles (1, 0) and (0, 0) in both orientations.
--   * unjoined: MaxSimplificationError so large that a region's outline and its holes keep
--     only their two initial points (REG-209); a two-point outline has no candidate for any
--     hole (REG-218: a straight q, and O(q, p, u) = -O(p, q, w)), so every hole is left
--     unjoined (REG-219) and the layer's count is above 0. A repair in that region (its old
--     unjoined holes counted out), in another region (the count kept) and one that adds a hole
--     (RT-105's count: first build's, minus the touched regions' old, plus the new);
--   * rugged: floors of heights 9, 10 and 11 (climb 1, so some neighbours are not linked,
--     REG-003), every 1 x 1 and 1 x 2 cut compared on and off, one checkpoint.
-- Levels: solid columns ('#' wall, a digit a floor of that area at row 10, 'u' a floor of area
-- 1 at row 11, 'd' at row 9), cell size and height 1, agent radius 0, so a box over columns
-- x0..x1, z0..z1 removes exactly their floor spans (RT-022). Every expected layer is the
-- reference's with the repair off and the layer of a fresh cache with the shape in the
-- settings (its first build, RT-100); the checks below name the premise each step needs.
local ROWS_WALL = 30

local FLOOR = { u = 11, h = 12 }
local function columns(map)
  local w, d = #map[1], #map
  local spans = {}
  for z = 1, d do
    assert(#map[z] == w, "map rows of one length")
    for x = 1, w do
      local ch = map[z]:sub(x, x)
      if ch == "#" then spans[#spans + 1] = { { 0, ROWS_WALL, 0 } }
      elseif FLOOR[ch] then spans[#spans + 1] = { { 0, FLOOR[ch], 1 } }
      elseif ch == "l" then spans[#spans + 1] = { { 0, 10, 1 }, { 13, ROWS_WALL, 0 } }
      elseif ch:match("%d") then spans[#spans + 1] = { { 0, 10, tonumber(ch) } }
      else spans[#spans + 1] = {} end
    end
  end
  return { origin = { 0, 0, 0 }, width = w, depth = d, spans = spans }
end

-- removes the floor spans of columns x0..x1, z0..z1
local function cut(x0, z0, x1, z1)
  return { shape = "box", bmin = { x0 + 0.25, 5, z0 + 0.25 }, bmax = { x1 + 0.75, 15, z1 + 0.75 } }
end

local function settings(t, case)
  local s = t:call("settings.preset", { name = "Humanoid" }).settings
  s.cell_size, s.cell_height = 1, 1
  s.agent_radius, s.agent_height, s.agent_climb = 0, 2, case.climb or 1
  s.tile_cells = case.tile
  s.partition = "layers"
  s.min_region_area, s.merge_region_area = case.min, 0
  s.max_simplification_error = case.error or 0.4
  s.max_edge_len = 0
  s.detail_sample_distance = 0
  return s
end

local function unhex(h) return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end)) end
-- REG-222: the count of unjoined holes (offset 40) and the tile-border flags of every raw
-- vertex record, in loop order (so a step can tell that a flag changed)
local function unjoined(a) return (string.unpack("<I4", unhex(a.bytes), 41)) end
local function border_flags(a)
  local b = unhex(a.bytes)
  local nloops = string.unpack("<I4", b, 25)
  local p, n = 45, 0
  for _ = 1, nloops do
    local nraw, nsimp = string.unpack("<I4I4", b, p + 8)
    p = p + 24
    for _ = 1, nraw do
      if b:byte(p + 15) & 1 == 1 then n = n + 1 end
      p = p + 20
    end
    p = p + 4 * nsimp
  end
  return n
end

local function layer(t, c, u)
  return t:call("tilecache.layer", { cache = c, tile = { u.x, u.z }, layer = u.layer })
end
local function same(a, b)
  return a.nspans == b.nspans and a.nregions == b.nregions and a.regions == b.regions and
         a.bytes == b.bytes and a.edges == b.edges
end
local function put(b, a)
  b:u32(a.nspans)
  b:u32(a.nregions)
  b:bytes(a.regions)
  b:bytes(a.bytes)
  b:bytes(a.edges)
end

local CASES = {
  {
    -- climb 2: 'h' (row 12) is linked to the floors of row 10 around it but not to 'l' (row
    -- 10 under a ceiling at row 13: the two overlap by one row, SPAN-142), and neither is a
    -- ledge (SPAN-122: the overlap is not above WalkableHeight, so neither sees the other).
    -- Tile (1, 0) owns map columns 6..11 (its border ring: 3..5), tile (0, 0) columns 0..5 (its
    -- ring: 6..8). For tile (1, 0) the corner of edge (6, 3) -x has s = (6, 3), A = (5, 3) in
    -- the ring, B = (6, 2) = 'l' and, B having no neighbour across towards it, D = DA = (5, 2)
    -- = 'h' in the ring (REG-206): a tile-border vertex whose flag goes when (5, 2) is removed.
    -- For tile (0, 0) the same turned: s = (5, 4), edge +x, B = (5, 5) = 'l', D = DA = (6, 5).
    name = "ledge", tile = 6, min = 2, climb = 2,
    map = {
      "#############",
      "#11111111111#",
      "#1111hl11111#",
      "#11111111111#",
      "#11111111111#",
      "#1111lh11111#",
      "#11111111111#",
      "#############",
    },
    steps = {
      { tag = "ring-da-removed", obstacles = { cut(5, 2, 5, 2) }, flags = { ["1,0,0"] = 1 } },
      { tag = "ring-da-turned", obstacles = { cut(6, 5, 6, 5) }, flags = { ["0,0,0"] = 1 } },
      { tag = "both", obstacles = { cut(5, 2, 5, 2), cut(6, 5, 6, 5) }, flags = { ["1,0,0"] = 1, ["0,0,0"] = 1 } },
      { tag = "low-side", obstacles = { cut(6, 2, 6, 2), cut(5, 5, 5, 5) } },
    },
  },
  {
    -- one room of area 1 (region R): a block of area 4 in its -x -z corner and single cells of
    -- area 5 and 6 in its +x -z and -x +z corners, walls elsewhere. With an error of 1000
    -- (REG-210 keeps nothing more) R's outline is its six change points (REG-209) around those
    -- three, and its segment from the area-5 cell to the area-6 cell cuts off the room's +x +z
    -- corner. The hole there (cells of area 2 and 3 with walls, four change points) lies beyond
    -- that segment: only the outline vertex opposite has it in its cone (REG-218), and that
    -- diagonal crosses the segment, so the hole stays unjoined (REG-219).
    name = "unjoined", tile = 16, min = 0, error = 1000,
    map = {
      "##############",
      "#441111111115#",
      "#441111111111#",
      "#111111111111#",
      "#111111111111#",
      "#111111111111#",
      "#1111111112#1#",
      "#111111111#31#",
      "#611111111111#",
      "##############",
    },
    first_unjoined = 1,
    steps = {
      { tag = "region-with-hole", obstacles = { cut(5, 4, 5, 4) }, unjoined = 1 },
      { tag = "other-region", obstacles = { cut(1, 1, 1, 1) }, unjoined = 1 },
      { tag = "contact", obstacles = { cut(2, 2, 2, 2) } },
      { tag = "next-to-hole", obstacles = { cut(8, 6, 8, 7) } },
    },
  },
}

-- rugged: floors of rows 10, 11, 12 and 10 under a ceiling at 13 ('l'), climb 2, from a fixed
-- linear congruential sequence (no math.random)
do
  local rows, seed = { string.rep("#", 14) }, 12345
  local pick = { "1", "1", "u", "h", "l" }
  for _ = 1, 9 do
    local r = "#"
    for _ = 1, 12 do
      seed = (seed * 1103515245 + 12345) % 2147483648
      r = r .. pick[(seed >> 16) % 5 + 1]
    end
    rows[#rows + 1] = r .. "#"
  end
  rows[#rows + 1] = string.rep("#", 14)
  CASES[#CASES + 1] = { name = "rugged", tile = 6, min = 0, climb = 2, map = rows, steps = {}, walk = true }
end

local function units_of(r, case)
  local u = {}
  for _, tl in ipairs(r.tiles) do u[#u + 1] = { x = tl.x, z = tl.z, layer = tl.layer } end
  return u
end

local function run_case(t, case)
  local s = settings(t, case)
  local cols = columns(case.map)
  local function cache(repair, obstacles)
    local bs = {}
    for k, v in pairs(s) do bs[k] = v end
    bs.obstacles, bs.volumes = obstacles or {}, {}
    return t:call("tilecache.heightfield", { settings = bs, columns = cols, repair = repair })
  end
  local on, off = cache(true), cache(false)
  local units = units_of(on, case)
  local first = {}
  local b0 = t:table()
  for i, u in ipairs(units) do
    first[i] = layer(t, on.cache, u)
    t:check(same(first[i], layer(t, off.cache, u)), case.name .. ": first build, repair on and off")
    put(b0, first[i])
  end
  if case.first_unjoined then
    t:check(unjoined(first[1]) == case.first_unjoined, case.name .. ": the first build leaves " ..
            case.first_unjoined .. " holes unjoined: " .. unjoined(first[1]))
  end
  t:checkpoint(case.name .. "-first", "table", b0:hex())
  for _, st in ipairs(case.steps) do
    local tag = case.name .. " " .. st.tag
    local ion, ioff = {}, {}
    for _, o in ipairs(st.obstacles) do
      ion[#ion + 1] = t:call("tilecache.add_obstacle", { cache = on.cache, obstacle = o }).id
      ioff[#ioff + 1] = t:call("tilecache.add_obstacle", { cache = off.cache, obstacle = o }).id
    end
    local fr = cache(true, st.obstacles)
    local b = t:table()
    local changed = false
    for i, u in ipairs(units) do
      local a = layer(t, on.cache, u)
      local where = tag .. ": layer " .. u.x .. "," .. u.z .. "," .. u.layer
      t:check(same(a, layer(t, off.cache, u)), where .. ": the repair on and off give the same layer (RT-106)")
      t:check(same(a, layer(t, fr.cache, u)), where .. ": the layer of a fresh build with the shapes (RT-100)")
      changed = changed or not same(a, first[i])
      local want = st.flags and st.flags[u.x .. "," .. u.z .. "," .. u.layer]
      if want then
        local f0, f1 = border_flags(first[i]), border_flags(a)
        t:check(f0 - f1 >= want, where .. ": tile-border flags cleared " .. (f0 - f1) .. ", at least " .. want)
      end
      if st.unjoined then
        t:check(unjoined(a) == st.unjoined, where .. ": unjoined holes " .. unjoined(a) .. ", want " .. st.unjoined)
      end
      put(b, a)
      t:checkpoint(case.name .. "-" .. st.tag .. "-" .. u.x .. "," .. u.z .. "," .. u.layer, "table", a.bytes, "contours")
    end
    t:check(changed, tag .. ": the step changes a layer")
    t:checkpoint(case.name .. "-" .. st.tag, "table", b:hex())
    -- the mesh after an update, repair on and off (RT-106) and against the fresh build (RT-027)
    t:call("tilecache.update", { cache = on.cache })
    t:call("tilecache.update", { cache = off.cache })
    local m_on = t:call("mesh.save", { mesh = on.mesh }).bytes
    t:check(m_on == t:call("mesh.save", { mesh = off.mesh }).bytes, tag .. ": the meshes, repair on and off (RT-106)")
    t:checkpoint(case.name .. "-" .. st.tag .. "-mesh", "mesh", m_on)
    t:call("drop", { handle = fr.cache })
    for k = 1, #ion do
      t:call("tilecache.remove_obstacle", { cache = on.cache, id = ion[k] })
      t:call("tilecache.remove_obstacle", { cache = off.cache, id = ioff[k] })
    end
    for i, u in ipairs(units) do
      t:check(same(layer(t, on.cache, u), first[i]), tag .. ": removed, the first build's layer (RT-013)")
    end
    t:call("tilecache.update", { cache = on.cache })
    t:call("tilecache.update", { cache = off.cache })
  end
  if case.walk then
    local w, d = #case.map[1], #case.map
    local b, bad, n = t:table(), 0, 0
    for _, sh in ipairs({ { 0, 0 }, { 1, 0 }, { 0, 1 } }) do
      for z = 1, d - 2 - sh[2] do
        for x = 1, w - 2 - sh[1] do
          local o = cut(x, z, x + sh[1], z + sh[2])
          local io = t:call("tilecache.add_obstacle", { cache = on.cache, obstacle = o }).id
          local jo = t:call("tilecache.add_obstacle", { cache = off.cache, obstacle = o }).id
          for _, u in ipairs(units) do
            local a = layer(t, on.cache, u)
            if not same(a, layer(t, off.cache, u)) then bad = bad + 1 end
            n = n + 1
            b:u32(a.nregions)
            b:u32(#a.bytes // 2)
            b:bytes(a.regions)
          end
          t:call("tilecache.remove_obstacle", { cache = on.cache, id = io })
          t:call("tilecache.remove_obstacle", { cache = off.cache, id = jo })
        end
      end
    end
    t:check(bad == 0, case.name .. " walk: repair on and off differ in " .. bad .. " of " .. n .. " layers (RT-106)")
    t:checkpoint(case.name .. "-walk", "table", b:hex())
  end
  t:call("drop", { handle = on.cache })
  t:call("drop", { handle = off.cache })
end

return {
  title = "Tile cache repair: a ledge's corner at the tile border, unjoined holes, rugged floors (RT-104, RT-105)",
  clauses = { "REG-206", "REG-209", "REG-218", "REG-219", "REG-222", "RT-101", "RT-103", "RT-104",
              "RT-105", "RT-106", "RT-154" },
  run = function(t)
    for _, case in ipairs(CASES) do run_case(t, case) end
  end,
}
