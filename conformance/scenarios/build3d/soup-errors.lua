-- conformance/scenarios/build3d/soup-errors.lua
-- Errors of the pipeline operations (build3d-polys.md POLY-222, POLY-230 .. POLY-233): each
-- names its field, and a failed build creates no handle; the detail rule (POLY-202) accepts
-- every valid sampling setting.

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

-- two flat triangles at x0 .. x1 and z0 .. z1 corners (walkable, facing up)
local function two(t, x0, z0, x1, z1)
  return soup(t, { { x0, 0, z0 }, { x0, 0, z0 + 1 }, { x0 + 1, 0, z0 },
                   { x1 - 1, 0, z1 - 1 }, { x1 - 1, 0, z1 }, { x1, 0, z1 } },
              { { 0, 1, 2 }, { 3, 4, 5 } })
end

return {
  title = "Pipeline operations: argument errors, the detail rule, the format's limits",
  clauses = { "POLY-202", "POLY-222", "POLY-225", "POLY-230", "POLY-231", "POLY-232",
              "POLY-233" },
  run = function(t)
    local floor = soup(t, { { 0, 0, 0 }, { 0, 0, 6 }, { 6, 0, 6 }, { 6, 0, 0 } },
                       { { 0, 1, 2 }, { 0, 2, 3 } })
    local hum = t:call("settings.preset", { name = "Humanoid" }).settings
    -- POLY-230: exactly one of settings and preset; preset names; overrides
    t:expect_error("build3d.soup", { soup = floor }, { kind = "argument", field = "settings" })
    t:expect_error("build3d.soup", { preset = "Humanoid", settings = hum, soup = floor },
                   { kind = "argument", field = "settings" })
    t:expect_error("build3d.soup", { preset = "Tiny", soup = floor },
                   { kind = "argument", field = "preset" })
    t:expect_error("build3d.soup", { preset = "Humanoid", partition = "voronoi",
                                     detail_sample_distance = 0, soup = floor },
                   { kind = "argument", field = "partition" })
    t:expect_error("build3d.soup", { preset = "Humanoid", detail_sample_distance = "x", soup = floor },
                   { kind = "argument", field = "detail_sample_distance" })
    t:expect_error("build3d.soup", { preset = "Humanoid", detail_sample_distance = -1, soup = floor },
                   { kind = "out_of_range", field = "detail_sample_distance" })
    -- POLY-202: every valid sampling setting is accepted: the presets sample (6 cells), so
    -- does the double just above 0.9 (SPAN-025: no sampling at or below 0.9 cells); the
    -- tiles then carry a detail mesh (POLY-201, POLY-254), and 0.8999 cells none
    for _, args in ipairs({ { preset = "Humanoid", soup = floor },
                            { preset = "Small", detail_sample_distance = 0.9000000000000001, soup = floor },
                            { settings = hum, soup = floor } }) do
      local r = t:call("build3d.soup", args)
      local v = t:call("tile.view", { tile = r.tiles[1].tile })
      t:check(#r.tiles >= 1 and #v.detail == #v.polys, "sampling: one detail record per polygon")
    end
    local ok = t:call("build3d.soup", { preset = "Humanoid", detail_sample_distance = 0.8999,
                                        soup = floor })
    local v0 = t:call("tile.view", { tile = ok.tiles[1].tile })
    t:check(ok.ntx == 1 and ok.ntz == 1 and #ok.tiles == 1 and #v0.detail == 0,
            "0.8999 cells: no sampling, one tile without a detail mesh")
    -- the settings object form: validation errors carry settings.
    hum.detail_sample_distance = 0
    hum.cell_size = 0
    t:expect_error("build3d.soup", { settings = hum, soup = floor },
                   { kind = "out_of_range", field = "settings.cell_size" })
    hum.cell_size = 0.3
    -- POLY-230: soup or level
    t:expect_error("build3d.soup", { preset = "Humanoid", detail_sample_distance = 0 },
                   { kind = "argument", field = "soup" })
    t:expect_error("build3d.soup", { preset = "Humanoid", detail_sample_distance = 0, soup = "4f50" },
                   { kind = "format", field = "soup.length" })
    t:expect_error("build3d.soup", { preset = "Humanoid", detail_sample_distance = 0,
                                     level = { name = "maze", seed = "0000000000000001", size = 1 } },
                   { kind = "argument", field = "level.name" })
    -- POLY-222: more tiles than 2^22 slots (tile_cells 1: 4097 x 1025 tiles); the last
    -- tile beyond 2^21 (a soup ending 1 below 2^21, tiles of 19.2)
    hum.tile_cells = 1
    t:expect_error("build3d.soup", { settings = hum, soup = two(t, 0, 0, 4097 * 0.3 - 0.1, 1025 * 0.3 - 0.1) },
                   { kind = "limit", field = "tile_cells", value = "1" })
    hum.tile_cells = 64
    t:expect_error("build3d.soup", { settings = hum, soup = two(t, 2097150, 0, 2097151, 1) },
                   { kind = "limit", field = "tile_cells", value = "64" })
    -- POLY-231: chunk_size
    t:expect_error("build3d.chunk", { settings = hum, soup = floor },
                   { kind = "argument", field = "chunk_size" })
    t:expect_error("build3d.chunk", { settings = hum, soup = floor, chunk_size = 0 },
                   { kind = "out_of_range", field = "chunk_size" })
    -- POLY-232: columns
    local function cols(w, d, spans)
      return { settings = hum, columns = { origin = { 0, 0, 0 }, width = w, depth = d, spans = spans } }
    end
    t:expect_error("build3d.heightfield", { settings = hum }, { kind = "argument", field = "columns" })
    t:expect_error("build3d.heightfield", cols(2, 1, { {} }), { kind = "argument", field = "columns.spans" })
    t:expect_error("build3d.heightfield", cols(1, 1, { { { 0, 1 } } }),
                   { kind = "argument", field = "columns.spans[0][0]" })
    t:expect_error("build3d.heightfield", cols(0, 0, {}), { kind = "out_of_range", field = "columns.width" })
    -- a failed op creates no handle: the next handle follows the last success's
    local a = t:call("build3d.heightfield", cols(1, 1, { { { 0, 5, 63 } } }))
    t:check(a.ntx == 1 and a.ntz == 1 and a.built == 1 and #a.tiles == 0,
            "one walkable column: built (SPAN-185), eroded away, no tile (POLY-211)")
    t:expect_error("build3d.heightfield", cols(1, 1, { { { 5, 0, 63 } } }),
                   { kind = "out_of_range", field = "columns.spans[0].ymax" })
    t:expect_error("build3d.soup", { preset = "Humanoid", soup = "4f50" },
                   { kind = "format", field = "soup.length" })
    local b = t:call("build3d.heightfield", cols(1, 1, { { { 0, 5, 63 } } }))
    t:check(b.mesh == a.mesh + 1, "failed builds in between create no handle")
  end,
}
