-- build3d/soup-hills-watershed: the whole 3D pipeline (build3d-polys.md POLY-220) on the steep
-- rolling terrain (levels.md LVL-035), watershed partition, presets Humanoid and Small; see
-- conformance/lib/pipeline3d.lua. Its tile seams are where the border heights of the contour
-- stage (REG-225) and MESH-023's rule for seams cut at different vertices (MESH-026) matter:
-- the mesh checkpoints hold every link.
local s = require("pipeline3d").soup_scenario("hills", "watershed")
for _, c in ipairs({ "LVL-035", "REG-225", "MESH-023", "MESH-026" }) do s.clauses[#s.clauses + 1] = c end
return s
