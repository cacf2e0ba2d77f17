-- conformance/scenarios/build3d/regions-levels.lua
-- The three partitions (build3d-regions.md) on every tile of every levels.md generator at
-- the three presets (Humanoid, Small, Large), each with the preset's Border,
-- MinRegionArea and MergeRegionArea: one checkpoint per level, preset, tile and partition
-- (the canonical bytes of REG-160), and the layer assignment (REG-077, REG-078) of each
-- tile. Output properties checked on every tile (REG-170: one value per span, no
-- distances outside the watershed, counts consistent with the values).

local LEVELS = {
  { name = "terrain", size = 16 },
  { name = "city", size = 1 },
  { name = "stairs", size = 8 },
  { name = "dungeon", size = 12 },
}
local PRESETS = { "Humanoid", "Small", "Large" }
local PARTS = { "watershed", "monotone", "layers" }
local SEED = "00000000000000a1"

return {
  title = "Region partitions on every tile of the four level generators at the three presets",
  clauses = { "REG-005", "REG-020", "REG-031", "REG-040", "REG-051", "REG-055", "REG-074",
              "REG-080", "REG-104", "REG-113", "REG-150", "REG-160", "REG-170", "REG-180",
              "REG-182" },
  run = function(t)
    for _, lv in ipairs(LEVELS) do
      for _, preset in ipairs(PRESETS) do
        local s = t:call("settings.preset", { name = preset }).settings
        local d = t:call("settings.validate", { settings = s }).derived
        local level = { name = lv.name, seed = SEED, size = lv.size }
        local all = t:call("spans.build", { preset = preset, level = level })
        local built = 0
        for tz = 0, all.ntz - 1 do
          for tx = 0, all.ntx - 1 do
            local tag = lv.name .. "-" .. preset .. "-" .. tx .. "," .. tz
            local c = t:call("spans.build_tile", { preset = preset, tile = { tx, tz }, level = level })
            if c.built then
              built = built + 1
              for _, p in ipairs(PARTS) do
                local r = t:call("regions.build", { chf = c.bytes, partition = p, border = d.border,
                                                    min_region_area = s.min_region_area,
                                                    merge_region_area = s.merge_region_area })
                local nb, n0, top = 0, 0, 0
                for _, v in ipairs(r.regions) do
                  if v == 32769 then nb = nb + 1
                  elseif v == 0 then n0 = n0 + 1
                  elseif v > top then top = v end
                end
                t:check(r.nspans == c.nspans and #r.regions == c.nspans,
                        tag .. " " .. p .. ": one value per span")
                t:check(p == "watershed" or r.max_dist == 0, tag .. " " .. p .. ": no distances")
                t:check(nb == r.border_spans and top == r.nregions and
                        r.removed == n0 - (c.nspans - c.walkable),
                        tag .. " " .. p .. ": counts match the values")
                t:checkpoint(tag .. "-" .. p, "table", r.bytes, "regions")
              end
              local l = t:call("regions.layers", { chf = c.bytes })
              t:check(l.nlayers >= 1 or c.walkable == 0, tag .. ": layers")
              t:check(#l.layers == c.nspans, tag .. ": one layer per span")
            end
          end
        end
        t:check(built == all.built, lv.name .. "/" .. preset .. ": every built tile visited")
      end
    end
  end,
}
