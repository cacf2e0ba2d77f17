-- pipeline3d.lua -- the build3d/soup-*, chunk-* and heightfield-* scenarios of the whole
-- 3D pipeline (build3d-polys.md POLY-220 .. POLY-233), shared by their files (require
-- "pipeline3d"). Each build is a "mesh" checkpoint (mesh.save, MESH-040: the per-tile parts
-- of the mesh artifact name the tile that differs) and is checked for the properties of
-- POLY-227 (props3d.lua). Settings: a preset with DetailSampleDistance 0 (POLY-201, POLY-202).
local check_mesh = require("props3d").check_mesh

local M = {}

M.LEVELS = {
  terrain = { name = "terrain", seed = "00000000000000a1", size = 24 },
  city = { name = "city", seed = "0000000000000007", size = 2 },
  stairs = { name = "stairs", seed = "00000000000000a1", size = 12 },
  dungeon = { name = "dungeon", seed = "0000000000000003", size = 16 },
  hills = { name = "hills", seed = "00000000000000a1", size = 24 },
}
M.PARTITIONS = { "watershed", "monotone", "layers" }
M.PRESETS = { "Humanoid", "Small" }

-- the values props3d needs, from settings.preset (SPAN-090) and SPAN-021
local function props_settings(t, preset)
  local s = t:call("settings.preset", { name = preset }).settings
  local climb_rows = math.floor(s.agent_climb / s.cell_height) -- the whole-cell rule (SPAN-021)
  return { cell_size = s.cell_size, cell_height = s.cell_height, tile_cells = s.tile_cells,
           max_verts_per_poly = s.max_verts_per_poly,
           walkable_climb = climb_rows * s.cell_height }
end

-- One build's common checks: grid, tiles in build order (POLY-223), properties, checkpoint.
function M.check_build(t, tag, r, ps)
  t:check(r.ntx >= 1 and r.ntz >= 1 and r.built <= r.ntx * r.ntz, tag .. ": tile grid")
  local prev, prevl, sum, npos = -1, -1, 0, 0
  for _, ti in ipairs(r.tiles) do
    local k = ti.z * r.ntx + ti.x
    -- rows then columns, and within a position its layers ascending (RT-086 (d))
    t:check(k > prev or (k == prev and ti.layer > prevl), tag .. ": rows then columns (POLY-223)")
    if k ~= prev then npos = npos + 1 end
    prev, prevl = k, ti.layer
    sum = sum + ti.npolys
    t:check(ti.npolys >= 1, tag .. ": no empty tile (POLY-211)")
  end
  t:check(#r.tiles >= 1 and npos <= r.built, tag .. ": tiles added are built tiles")
  t:check(sum == r.npolys, tag .. ": polygon total")
  local np = check_mesh(t, r, ps)
  t:check(np == r.npolys, tag .. ": every polygon viewed")
  local bytes = t:call("mesh.save", { mesh = r.mesh }).bytes
  t:checkpoint(tag, "mesh", bytes)
  return bytes
end

-- Layers without detail sampling is built layer first (build3d-runtime.md RT-080): the
-- clauses of that path, for the scenarios that build with Layers.
local LAYER_FIRST = { "RT-080", "RT-081", "RT-083", "RT-084", "RT-085", "RT-086" }

local function with_layers(list, part)
  if part == "layers" then
    for _, c in ipairs(LAYER_FIRST) do list[#list + 1] = c end
  end
  return list
end

-- build3d/soup-<level>-<partition>: both presets.
function M.soup_scenario(level, part)
  return {
    title = "Whole 3D pipeline from a soup: level " .. level .. ", " .. part .. " partition",
    clauses = with_layers({ "POLY-201", "POLY-212", "POLY-213", "POLY-214", "POLY-216",
                            "POLY-217", "POLY-220", "POLY-221", "POLY-223", "POLY-224",
                            "POLY-227", "POLY-230", "POLY-233" }, part),
    run = function(t)
      for _, preset in ipairs(M.PRESETS) do
        local r = t:call("build3d.soup", { preset = preset, partition = part,
                                           detail_sample_distance = 0, level = M.LEVELS[level] })
        M.check_build(t, level .. "-" .. part .. "-" .. preset, r, props_settings(t, preset))
      end
    end,
  }
end

-- build3d/chunk-<level>: every partition, Humanoid; the bytes equal the soup build's.
function M.chunk_scenario(level)
  return {
    title = "Whole 3D pipeline from a chunked mesh equals the soup build: level " .. level,
    clauses = with_layers({ "POLY-220", "POLY-221", "POLY-226", "POLY-227", "POLY-231",
                            "POLY-233" }, "layers"),
    run = function(t)
      local ps = props_settings(t, "Humanoid")
      for _, part in ipairs(M.PARTITIONS) do
        local args = { preset = "Humanoid", partition = part, detail_sample_distance = 0,
                       level = M.LEVELS[level] }
        local soup = t:call("mesh.save", { mesh = t:call("build3d.soup", args).mesh }).bytes
        for _, size in ipairs({ 7.5, 40 }) do
          args.chunk_size = size
          local r = t:call("build3d.chunk", args)
          local bytes = M.check_build(t, level .. "-" .. part .. "-chunk" .. size, r, ps)
          t:check(bytes == soup, level .. "-" .. part .. ": chunk size " .. size ..
                  " gives the soup's bytes (POLY-226)")
        end
      end
    end,
  }
end

-- Solid columns for build3d.heightfield (POLY-232): f(x, z) gives the column's spans as a
-- list of {ymin, ymax, area}, ascending.
local function columns(w, d, origin, f)
  local spans = {}
  for z = 0, d - 1 do
    for x = 0, w - 1 do spans[#spans + 1] = f(x, z) end
  end
  return { origin = origin, width = w, depth = d, spans = spans }
end

-- The heightfield inputs, 150 x 90 columns (Humanoid: 3 x 2 tiles of 64 cells).
M.FIELDS = {
  -- a floor 10 rows thick, a raised block (step of 6 rows: a wall for the climb of 4
  -- rows) in the middle, a pit without spans, a low area-5 strip
  plateau = function()
    return columns(150, 90, { -3.5, 1.25, 7 }, function(x, z)
      if x >= 100 and x < 120 and z >= 20 and z < 45 then return {} end
      if x >= 50 and x < 80 and z >= 30 and z < 70 then return { { 0, 16, 63 } } end
      if z >= 80 then return { { 0, 10, 5 } } end
      return { { 0, 10, 63 } }
    end)
  end,
  -- two floors: the ground, and a deck 30 rows higher over x in [40, 110), z in [10, 60)
  -- reached by a ramp of one row per column along x from x = 110 down to the ground
  floors = function()
    return columns(150, 90, { 0, 0, 0 }, function(x, z)
      local c = { { 0, 4, 63 } }
      if z >= 10 and z < 60 then
        if x >= 40 and x < 110 then c[#c + 1] = { 30, 33, 63 }
        elseif x >= 110 and x < 139 then c = { { 0, 4 + (139 - x), 63 } } end
      end
      return c
    end)
  end,
  -- a terrain of gentle waves: height (x + 2z) mod 7 rows over a base of 20
  waves = function()
    return columns(150, 90, { 10, -2, -10 }, function(x, z)
      return { { 0, 20 + (x + 2 * z) % 7 // 2, 63 } }
    end)
  end,
}

-- build3d/heightfield-<field>: every partition, Humanoid.
function M.heightfield_scenario(field)
  return {
    title = "Whole 3D pipeline from solid columns: " .. field .. ", three partitions",
    clauses = with_layers({ "POLY-212", "POLY-220", "POLY-221", "POLY-223", "POLY-224",
                            "POLY-227", "POLY-232", "POLY-233" }, "layers"),
    run = function(t)
      local ps = props_settings(t, "Humanoid")
      local cols = M.FIELDS[field]()
      for _, part in ipairs(M.PARTITIONS) do
        local r = t:call("build3d.heightfield", { preset = "Humanoid", partition = part,
                                                  detail_sample_distance = 0, columns = cols })
        t:check(r.ntx == 3 and r.ntz == 2, field .. ": 150 x 90 columns are 3 x 2 tiles")
        M.check_build(t, field .. "-" .. part, r, ps)
      end
    end,
  }
end

M.props_settings = props_settings
return M
