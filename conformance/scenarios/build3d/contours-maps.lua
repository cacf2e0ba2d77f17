-- conformance/scenarios/build3d/contours-maps.lua
-- The contour stage (build3d-regions.md section 6) on hand-made floors (chfmaps.lua): two
-- floors with pillars in rows and columns (holes of one region whose leftmost vertices share
-- x, REG-216; candidates at equal distances, REG-217), a floor of 2 x 2 tiles with stepped
-- mounds astride the tile borders (REG-225's heights, its ties and the climb itself), and
-- generated floor soups: floors of
-- 1.5 m cells with cells left out (holes of one size in rows and columns, so one region
-- has several holes with the same leftmost x, REG-216), steps under and over the climb,
-- ramps (heights along the tile border, REG-225), boxes standing on the floor, some
-- turned by (3, 4) / 5 (diagonal walls: simplification ties, REG-210), floors longer than
-- MaxEdgeLen (REG-212). Every tile the soup covers, the three partitions and the three
-- presets; one table checkpoint per soup, preset and partition holds the REG-222 bytes of
-- every tile in order (with the counts of REG-223).

local maps = require("chfmaps")

local PRESETS = { "Humanoid", "Small", "Large" }
local PARTS = { "watershed", "monotone", "layers" }

return {
  title = "Contours of generated floors: holes in rows, steps, ramps, turned boxes",
  clauses = { "REG-202", "REG-205", "REG-206", "REG-207", "REG-208", "REG-209", "REG-210",
              "REG-211", "REG-212", "REG-213", "REG-214", "REG-215", "REG-216", "REG-217",
              "REG-218", "REG-219", "REG-220", "REG-222", "REG-223", "REG-225" },
  run = function(t)
    local grids = { maps.pillars(t, { 4, 8.5, 13 }, { 4, 8.5, 13 }, 1), maps.pillars(t, { 3, 9 }, { 2, 6, 10, 14 }, 1.2) }
    for i, bytes in ipairs(grids) do
      for _, part in ipairs(PARTS) do
        local c = t:call("contours.build_tile", { preset = "Humanoid", partition = part,
                                                  soup = bytes, tile = { 0, 0 } })
        t:check(c.built, "pillars " .. i .. " " .. part .. ": built")
        t:checkpoint("pillars-" .. i .. "-" .. part, "table", c.bytes, "contours")
      end
    end
    local hill = maps.mounds(t)
    for _, part in ipairs(PARTS) do
      local b = t:table()
      for _, tile in ipairs({ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } }) do
        local c = t:call("contours.build_tile", { preset = "Humanoid", partition = part,
                                                  soup = hill, tile = tile })
        b:bytes(c.bytes)
      end
      t:checkpoint("mounds-" .. part, "table", b:hex())
    end
    local r = maps.rng(29)
    for i, o in ipairs(maps.SOUPS) do
      local bytes = maps.soup_bytes(t, maps.random_soup(r, o))
      local ext = { o.nx * o.cell, o.nz * o.cell }
      for _, preset in ipairs(PRESETS) do
        local ts = ({ Humanoid = 19.2, Small = 4.8, Large = 64 })[preset]
        for _, part in ipairs(PARTS) do
          local b = t:table()
          for tz = 0, math.min(math.ceil(ext[2] / ts) - 1, 2) do
            for tx = 0, math.min(math.ceil(ext[1] / ts) - 1, 2) do
              local c = t:call("contours.build_tile", { preset = preset, partition = part,
                                                        soup = bytes, tile = { tx, tz } })
              b:bool(c.built)
              b:u32(c.nregions); b:u32(c.nloops); b:u32(c.ncontours); b:u32(c.nverts)
              b:u32(c.unjoined)
              b:bytes(c.bytes)
            end
          end
          t:checkpoint("soup-" .. i .. "-" .. preset .. "-" .. part, "table", b:hex())
        end
      end
    end
  end,
}
