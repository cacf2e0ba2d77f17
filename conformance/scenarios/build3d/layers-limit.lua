-- conformance/scenarios/build3d/layers-limit.lua
-- RT-082's limit reached exactly and passed by one, on the layer-first path of the pipeline
-- (build3d.heightfield, POLY-232) and of the tile cache (tilecache.heightfield). The input is
-- a 32 x 20 heightfield (preset Small, agent_radius 0, min_region_area 0: one tile) whose
-- columns alternate a low floor (y 1) and a high one (y 21, 20 cells up, more than the climb
-- of 8) like a checkerboard. A high cell next to a low one is a ledge (not walkable), a low
-- cell between high ones is walkable but linked to none (the step is more than the climb),
-- so every low cell off the grid's edge is a sweep region of its own, hence a layer of its
-- own (REG-071 .. REG-074): 15 per row. The row before the last is made all low from column
-- k on, which joins its low cells and those of the neighbouring rows into one region. With
-- k = 16 the tile has exactly 256 layers (checked by regions.layers on stage 1 to 3's
-- compact heightfield, spans.build_columns); with k = 18 and the low cell (2, 2) removed,
-- 257: a limit error `layers` with the value 257.

local W, D = 32, 20

local function columns(t, k, hole)
  local cols = {}
  for z = 0, D - 1 do
    for x = 0, W - 1 do
      local low = (x + z) % 2 == 0 or (z == D - 2 and x >= k)
      if hole and x == hole[1] and z == hole[2] then
        cols[#cols + 1] = t:array({})
      else
        cols[#cols + 1] = { { 0, low and 1 or 21, 63 } }
      end
    end
  end
  return cols
end

-- the same columns in SPAN-192's form (col_start and one list of spans)
local function flat(t, cols)
  local cs, sp = { 0 }, {}
  for _, c in ipairs(cols) do
    for _, s in ipairs(c) do sp[#sp + 1] = s end
    cs[#cs + 1] = #sp
  end
  return cs, sp
end

local function settings(t)
  local s = t:call("settings.preset", { name = "Small" }).settings
  s.agent_radius = 0
  s.min_region_area = 0
  s.partition = "layers"
  s.detail_sample_distance = 0
  return s
end

local function nlayers(t, s, cols)
  local cs, sp = flat(t, cols)
  local b = t:call("spans.build_columns", { settings = s, tile = { 0, 0 },
    columns = { origin = { 0, 0, 0 }, width = W, depth = D, col_start = cs, spans = sp } })
  return t:call("regions.layers", { chf = b.bytes }).nlayers
end

return {
  title = "RT-082: a tile of exactly 256 layers builds, one of 257 is a limit error",
  clauses = { "RT-082", "RT-081", "RT-086", "REG-071", "REG-073", "REG-074", "REG-077", "POLY-232" },
  run = function(t)
    local s = settings(t)
    local at = columns(t, 16)
    local over = columns(t, 18, { 2, 2 })
    t:check(nlayers(t, s, at) == 256, "k = 16: 256 layers")
    t:check(nlayers(t, s, over) == 257, "k = 18 without (2, 2): 257 layers")
    local hf = { origin = { 0, 0, 0 }, width = W, depth = D }
    hf.spans = at
    local r = t:call("build3d.heightfield", { settings = s, columns = hf })
    t:check(r.built == 1 and #r.tiles >= 1, "256 layers: the tile is built")
    t:checkpoint("at-256", "mesh", t:call("mesh.save", { mesh = r.mesh }).bytes)
    local c = t:call("tilecache.heightfield", { settings = s, columns = hf })
    t:check(t:call("mesh.save", { mesh = c.mesh }).bytes == t:call("mesh.save", { mesh = r.mesh }).bytes,
            "the tile cache's build of 256 layers is the pipeline's (RT-015)")
    hf.spans = over
    t:expect_error("build3d.heightfield", { settings = s, columns = hf },
                   { kind = "limit", field = "layers", value = "257" })
    t:expect_error("tilecache.heightfield", { settings = s, columns = hf },
                   { kind = "limit", field = "layers", value = "257" })
  end,
}
