-- conformance/scenarios/build3d/pipeline-parts.lua
-- Part builds through the protocol (build3d-polys.md POLY-229, POLY-235): the generated
-- dungeon and stairs levels (preset Small: grids of 6 x 5 and 9 x 5 tiles) built whole, then
-- in parts whose ranges cover the grid, on the general path (watershed) and on the
-- layer-first path (layers). Each part's mesh is a checkpoint (its slot count is in the
-- mesh header, MESH-040); each part's tiles are the whole build's tiles of its positions, in
-- the same order (POLY-229: a tile depends only on the settings, the input and its
-- position); the parts merged into a mesh created with the whole build's parameters give the
-- whole build's bytes. Then ranges past and across the grid's edge (clipped, possibly
-- empty), the work budget counted over the range's positions only (SPAN-202), off-mesh
-- definitions outside the range dropped (POLY-242), and every decoding and range error of
-- POLY-235 and POLY-229 with the order of the checks (grid limits, then off-mesh
-- validation, then the range).

local LEVELS = {
  { name = "dungeon", seed = "0000000000000003", size = 16 },
  { name = "stairs", seed = "00000000000000a1", size = 12 },
}

local function req(level, part, extra)
  local a = { preset = "Small", partition = part, detail_sample_distance = 0, level = level }
  for k, v in pairs(extra or {}) do a[k] = v end
  return a
end

local function range(x0, x1, z0, z1) return { x0 = x0, x1 = x1, z0 = z0, z1 = z1 } end

-- the whole build's tiles at the positions of the clipped range, in build order
local function expected_tiles(whole, r)
  local out = {}
  for _, ti in ipairs(whole.tiles) do
    if ti.x >= r.x0 and ti.x <= r.x1 and ti.z >= r.z0 and ti.z <= r.z1 then out[#out + 1] = ti end
  end
  return out
end

local function same_tiles(t, tag, got, want)
  t:check(#got == #want, tag .. ": " .. #want .. " tiles")
  local np = 0
  for i = 1, math.min(#got, #want) do
    local a, b = got[i], want[i]
    t:check(a.x == b.x and a.z == b.z and a.layer == b.layer and a.content_id == b.content_id,
            tag .. ": tile " .. i .. " is the whole build's (" .. b.x .. ", " .. b.z .. ", " .. b.layer .. ")")
    np = np + a.npolys
  end
  return np
end

-- The ranges of a split of the grid at column cx and row cz (four rectangles, some with
-- bounds past the grid), and one strip per row.
local function splits(ntx, ntz)
  local cx, cz = ntx // 2, ntz // 3
  local list = {
    range(0, cx - 1, 0, cz - 1), range(cx, ntx + 7, 0, cz - 1),
    range(0, cx - 1, cz, 1000000), range(cx, 2147483647, cz, ntz - 1),
  }
  local rows = {}
  for z = 0, ntz - 1 do rows[#rows + 1] = range(0, ntx - 1, z, z) end
  return { list, rows }
end

-- The mesh parameters of POLY-224, read from a tile of the whole build and the settings.
local function mesh_params(t, whole, max_tiles)
  local s = t:call("settings.preset", { name = "Small" }).settings
  local climb = math.floor(s.agent_climb / s.cell_height) * s.cell_height
  local v = t:call("tile.view", { tile = whole.tiles[1].tile })
  return { tiling = v.tiling, walkable_climb = climb, max_tiles = max_tiles }
end

-- MESH-040: params.max_tiles, the u32 at byte 64 of a mesh's bytes (hex text)
local function max_tiles_of(hex)
  local v = 0
  for k = 3, 0, -1 do v = v * 256 + tonumber(hex:sub(129 + 2 * k, 130 + 2 * k), 16) end
  return v
end

local function parts_of(t, lv, part, whole, whole_bytes, set, si)
  local tiles, slots = {}, 0
  for ri, r in ipairs(set) do
    local tag = lv.name .. "-" .. part .. "-split" .. si .. "-" .. ri
    local p = t:call("build3d.soup", req(lv, part, { tile_range = r }))
    t:check(p.ntx == whole.ntx and p.ntz == whole.ntz, tag .. ": the whole grid")
    local np = same_tiles(t, tag, p.tiles, expected_tiles(whole, r))
    t:check(p.npolys == np, tag .. ": polygons of the part's tiles")
    t:check(p.built <= whole.built, tag .. ": built within the range")
    local pb = t:call("mesh.save", { mesh = p.mesh }).bytes
    t:checkpoint(tag, "mesh", pb)
    for _, ti in ipairs(p.tiles) do tiles[#tiles + 1] = ti end
    slots = slots + max_tiles_of(pb) -- POLY-229: the part's slot count
  end
  -- POLY-229's merge: the tiles of every part in POLY-223's order into one mesh
  table.sort(tiles, function(a, b)
    if a.z ~= b.z then return a.z < b.z end
    if a.x ~= b.x then return a.x < b.x end
    return a.layer < b.layer
  end)
  local m = t:call("mesh.create", mesh_params(t, whole, slots)).handle
  for _, ti in ipairs(tiles) do t:call("mesh.add_tile", { mesh = m, tile = ti.tile }) end
  local merged = t:call("mesh.save", { mesh = m }).bytes
  t:check(slots == max_tiles_of(whole_bytes), lv.name .. "-" .. part .. "-split" .. si .. ": slot counts add up")
  t:check(merged == whole_bytes, lv.name .. "-" .. part .. "-split" .. si .. ": merged parts = whole build")
end

local function edges(t, lv, whole)
  local tag = lv.name .. "-edges"
  -- past the grid: no position, one slot, no tile
  local past = t:call("build3d.soup", req(lv, "watershed", { tile_range = range(whole.ntx, whole.ntx + 3, 0, 0) }))
  t:check(#past.tiles == 0 and past.built == 0 and past.npolys == 0, tag .. ": a range past the grid builds nothing")
  t:checkpoint(tag .. "-past-x", "mesh", t:call("mesh.save", { mesh = past.mesh }).bytes)
  local below = t:call("build3d.soup", req(lv, "watershed", { tile_range = range(0, 0, whole.ntz, 2147483647) }))
  t:check(#below.tiles == 0 and below.built == 0, tag .. ": past the grid in z")
  t:checkpoint(tag .. "-past-z", "mesh", t:call("mesh.save", { mesh = below.mesh }).bytes)
  -- the last column and the last row, each one position
  local last = range(whole.ntx - 1, whole.ntx - 1, whole.ntz - 1, whole.ntz - 1)
  local c = t:call("build3d.soup", req(lv, "layers", { tile_range = last }))
  same_tiles(t, tag .. "-corner", c.tiles, expected_tiles(t:call("build3d.soup", req(lv, "layers")), last))
  t:checkpoint(tag .. "-corner", "mesh", t:call("mesh.save", { mesh = c.mesh }).bytes)
end

-- SPAN-202: a part build's budget counts the range's positions only. The soup is one
-- vertical triangle (never walkable: nothing is built) over 64 x 65 tiles of 56 + 8 cells,
-- one tile row above max_build_cells (2^24); 64 of its rows pass.
local function wall(t, x, z)
  return require("soups3d").soup(t, { { 0, 0, 0 }, { x, 0, z }, { x, 1, z } }, { { 0, 1, 2 } })
end

local function budget(t)
  local s = t:call("settings.preset", { name = "Humanoid" }).settings
  s.cell_size = 1
  s.agent_radius = 1
  s.detail_sample_distance = 0
  s.tile_cells = 56
  local soup = wall(t, 3584, 3585)
  t:expect_error("build3d.soup", { settings = s, soup = soup },
                 { kind = "limit", field = "limits.max_build_cells", value = "17039360" })
  local p = t:call("build3d.soup", { settings = s, soup = soup, tile_range = range(0, 63, 0, 63) })
  t:check(p.ntx == 64 and p.ntz == 65 and p.built == 0, "budget: 64 x 64 positions of 64 x 65 pass")
  t:checkpoint("budget-part", "mesh", t:call("mesh.save", { mesh = p.mesh }).bytes)
  t:expect_error("build3d.soup", { settings = s, soup = soup, tile_range = range(0, 63, 0, 64) },
                 { kind = "limit", field = "limits.max_build_cells", value = "17039360" })
  -- one column of 65 rows, 65 * 64^2 = 266240 cells, against a host limit one below
  t:expect_error("build3d.soup", { settings = s, soup = soup, tile_range = range(0, 0, 0, 1000),
                                   limits = { max_build_cells = 266239 } },
                 { kind = "limit", field = "limits.max_build_cells", value = "266240" })
  -- POLY-229's clipping seen through the budget, at 64^2 = 4096 cells a position: x1 = 62
  -- (ntx - 2) keeps 63 columns and z1 = 63 (ntz - 2) 64 rows, each within a limit of exactly
  -- that many positions; one more column or row is over it; a range past the grid in x or
  -- in z counts no position, so a limit below one position's cells lets it pass
  local cells = 64 * 64
  local function within(r, limit, tag)
    local q = t:call("build3d.soup", { settings = s, soup = soup, tile_range = r,
                                       limits = { max_build_cells = limit } })
    t:check(q.built == 0 and #q.tiles == 0, "budget: " .. tag)
  end
  within(range(0, 62, 0, 0), 63 * cells, "63 columns within 63 positions")
  t:expect_error("build3d.soup", { settings = s, soup = soup, tile_range = range(0, 63, 0, 0),
                                   limits = { max_build_cells = 63 * cells } },
                 { kind = "limit", field = "limits.max_build_cells", value = tostring(64 * cells) })
  within(range(0, 0, 0, 63), 64 * cells, "64 rows within 64 positions")
  t:expect_error("build3d.soup", { settings = s, soup = soup, tile_range = range(0, 0, 0, 64),
                                   limits = { max_build_cells = 64 * cells } },
                 { kind = "limit", field = "limits.max_build_cells", value = tostring(65 * cells) })
  within(range(64, 70, 0, 0), cells - 1, "past the grid in x, no position")
  within(range(0, 0, 65, 70), cells - 1, "past the grid in z, no position")
  -- POLY-222 at its boundary: a grid of exactly 2^22 = 2048 x 2048 tiles is within the
  -- format's slots, so the first refusal is the budget's (SPAN-204); one more row is not
  t:expect_error("build3d.soup", { settings = s, soup = wall(t, 2048 * 56, 2048 * 56) },
                 { kind = "limit", field = "limits.max_tiles", value = "4194304" })
  t:expect_error("build3d.soup", { settings = s, soup = wall(t, 2048 * 56, 2048 * 56 + 1) },
                 { kind = "limit", field = "tile_cells", value = "56" })
end

-- POLY-242: definitions whose column lies outside the range are dropped.
local function offmesh(t, lv, whole)
  local v = t:call("tile.view", { tile = whole.tiles[1].tile }).tiling
  local w = v.tile_cells * v.cell_size
  local defs = {}
  for tz = 0, whole.ntz - 1 do
    for tx = 0, whole.ntx - 1 do
      local x = v.origin[1] + (tx + 0.5) * w
      local z = v.origin[3] + (tz + 0.5) * w
      defs[#defs + 1] = { start = { x, 0.5, z }, ["end"] = { x + 1, 0.5, z + 1 }, radius = 0.5,
                          bidirectional = true, area = 1, flags = 1, user_id = #defs }
    end
  end
  local all = t:call("build3d.soup", req(lv, "watershed", { offmesh = defs }))
  local part = t:call("build3d.soup", req(lv, "watershed", { offmesh = defs, tile_range = range(1, 2, 1, 1) }))
  local built = 0
  for _, ti in ipairs(part.tiles) do built = built + 1 end
  t:check(part.offmesh == built and part.offmesh <= all.offmesh,
          "offmesh: one slot per tile of the range, the others dropped")
  t:checkpoint(lv.name .. "-offmesh-part", "mesh", t:call("mesh.save", { mesh = part.mesh }).bytes)
end

local function errors(t, lv)
  local function bad(r, kind, field, value)
    t:expect_error("build3d.soup", req(lv, "watershed", { tile_range = r }),
                   { kind = kind, field = field, value = value })
  end
  bad(5, "argument", "tile_range")
  bad({ 0, 1, 0, 1 }, "argument", "tile_range")
  bad({ x1 = 1, z0 = 0, z1 = 1 }, "argument", "tile_range.x0")
  bad({ x0 = 0.5, x1 = 1, z0 = 0, z1 = 1 }, "argument", "tile_range.x0")
  bad({ x0 = 0, x1 = "1", z0 = 0, z1 = 1 }, "argument", "tile_range.x1")
  bad({ x0 = 0, x1 = 1, z1 = 1 }, "argument", "tile_range.z0")
  bad({ x0 = 0, x1 = 1, z0 = 0 }, "argument", "tile_range.z1")
  bad({ x0 = 0, x1 = 1, z0 = 0, z1 = 2147483648 }, "argument", "tile_range.z1")
  bad({ x0 = -2147483649, x1 = 1, z0 = 0, z1 = 1 }, "argument", "tile_range.x0")
  bad({ x0 = 0, x1 = 1, z0 = 0, z1 = 1, w = 0 }, "argument", "tile_range")
  bad(range(-1, 1, 0, 1), "out_of_range", "tile_range.x0", "-1")
  bad(range(-2147483648, 1, 0, 1), "out_of_range", "tile_range.x0", "-2147483648")
  bad(range(3, 2, 0, 1), "out_of_range", "tile_range.x1", "2")
  bad(range(3, -1, 0, 1), "out_of_range", "tile_range.x1", "-1")
  bad(range(0, 0, -1, 1), "out_of_range", "tile_range.z0", "-1")
  bad(range(0, 0, 2, 1), "out_of_range", "tile_range.z1", "1")
  -- x0 = x1 and z0 = z1 are a range of one position
  local one = t:call("build3d.soup", req(lv, "watershed", { tile_range = range(2, 2, 3, 3) }))
  t:check(one.built <= 1 and #one.tiles <= 1, "one position")
  -- the order: an off-mesh definition's error (POLY-241) before the range's
  t:expect_error("build3d.soup", req(lv, "watershed", {
                   tile_range = range(-1, 0, 0, 0),
                   offmesh = { { start = { 0, 0, 0 }, ["end"] = { 1, 0, 1 }, radius = 0,
                                 bidirectional = false, area = 0, flags = 0, user_id = 0 } } }),
                 { kind = "out_of_range", field = "offmesh[0].radius", value = "0" })
  -- an empty object has no x0
  bad({}, "argument", "tile_range.x0")
end

return {
  title = "Part builds through the protocol: parts equal the whole, merged; clipping, budget, errors",
  clauses = { "POLY-229", "POLY-235", "POLY-223", "POLY-224", "POLY-233", "POLY-242",
              "SPAN-202", "SPAN-204", "POLY-222", "MESH-040" },
  run = function(t)
    for _, lv in ipairs(LEVELS) do
      for _, part in ipairs({ "watershed", "layers" }) do
        local whole = t:call("build3d.soup", req(lv, part))
        local bytes = t:call("mesh.save", { mesh = whole.mesh }).bytes
        t:checkpoint(lv.name .. "-" .. part .. "-whole", "mesh", bytes)
        for si, set in ipairs(splits(whole.ntx, whole.ntz)) do
          parts_of(t, lv, part, whole, bytes, set, si)
        end
        if part == "watershed" then
          edges(t, lv, whole)
          offmesh(t, lv, whole)
        end
      end
    end
    budget(t)
    errors(t, LEVELS[1])
  end,
}
