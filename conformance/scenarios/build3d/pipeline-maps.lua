-- conformance/scenarios/build3d/pipeline-maps.lua
-- Whole builds (build3d.soup, build3d-polys.md POLY-230) of the hand-made floors of
-- contours-maps.lua (pillars in rows, mounds astride the tile borders, generated floors
-- with holes, steps, ramps and turned boxes) under settings that move every stage off
-- the presets' values: area volumes (area borders in the contours, REG-211; regions of
-- several areas), short MaxEdgeLen (REG-212 splits), simplification errors 0 and 2.6
-- (REG-210), 3 and 4 vertices per polygon (POLY-011 merging), no island removal and no
-- merging (REG-104, REG-113), dense height sampling (POLY-203 .. POLY-209) and the three
-- partitions. Each build is a "mesh" checkpoint (mesh.save, MESH-040).

local maps = require("chfmaps")

-- settings changes, applied to the Humanoid preset's object
local VARIANTS = {
  { name = "watershed" },
  { name = "monotone", partition = "monotone" },
  { name = "layers", partition = "layers" },
  { name = "areas", volumes = true, max_edge_len = 3 },
  { name = "fine", max_simplification_error = 0, max_verts_per_poly = 3, min_region_area = 0,
    merge_region_area = 0, partition = "monotone" },
  { name = "coarse", max_simplification_error = 2.6, max_verts_per_poly = 4,
    detail_sample_distance = 2, detail_sample_max_error = 0.2, merge_region_area = 40 },
  { name = "layers-areas", partition = "layers", volumes = true, min_region_area = 20,
    detail_sample_distance = 3, detail_sample_max_error = 0.3 },
}

local VOLUMES = {
  { points = { { 2, 2 }, { 9, 3 }, { 8, 11 }, { 3, 9 } }, ymin = -1, ymax = 2, area = 5 },
  { points = { { 12, 1 }, { 17, 1 }, { 17, 30 }, { 12, 30 } }, ymin = -1, ymax = 0.4, area = 7 },
  { points = { { 20, 20 }, { 26, 20 }, { 26, 26 } }, ymin = -1, ymax = 2, area = 0 },
}

local function settings(t, v)
  local s = t:call("settings.preset", { name = "Humanoid" }).settings
  for k, x in pairs(v) do
    if k ~= "name" and k ~= "volumes" then s[k] = x end
  end
  if v.volumes then s.volumes = VOLUMES end
  return s
end

return {
  title = "Whole builds of hand-made floors under settings off the presets",
  clauses = { "POLY-230", "POLY-233", "REG-210", "REG-211", "REG-212", "REG-104", "REG-113",
              "POLY-011", "POLY-203", "POLY-209", "MESH-040" },
  run = function(t)
    local soups = maps.test_soups(t)
    for i, bytes in ipairs(soups) do
      for _, v in ipairs(VARIANTS) do
        local r = t:call("build3d.soup", { settings = settings(t, v), soup = bytes })
        t:check(r.built >= 1, "soup " .. i .. " " .. v.name .. ": tiles built")
        t:checkpoint("soup-" .. i .. "-" .. v.name, "mesh", t:call("mesh.save", { mesh = r.mesh }).bytes)
      end
    end
  end,
}
