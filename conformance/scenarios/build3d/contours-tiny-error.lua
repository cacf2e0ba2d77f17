-- conformance/scenarios/build3d/contours-tiny-error.lua
-- REG-210's exact test "distance^2 > E2" for a positive E2 far below one cell area: the
-- hand-made floors of contours-maps.lua (lib chfmaps) built whole (build3d.soup) with
-- MaxSimplificationError 0, 2^-40 (E2 = 2^-80, read as M / 2^s with s = 132) and 2^-37.5
-- (E2 = fl(e * e) at 2^-75 or just above: s = 127, the least s of the test's s >= 127 branch).
-- Every positive squared distance of a raw vertex, a fraction num / den with num >= 1 and
-- den <= 2^40, is greater than each of these E2, so the three builds keep the same
-- vertices: the meshes must be equal, byte for byte, and each is a checkpoint.

local maps = require("chfmaps")

local ERRORS = { { "zero", 0 }, { "2^-40", 2.0 ^ -40 }, { "2^-37.5", 2.0 ^ -37.5 } }

return {
  title = "Contour simplification with errors far below a cell: the same vertices as error 0",
  clauses = { "REG-210", "REG-211", "POLY-230" },
  run = function(t)
    local s = t:call("settings.preset", { name = "Humanoid" }).settings
    s.detail_sample_distance = 0
    for i, bytes in ipairs(maps.test_soups(t)) do
      local first
      for _, e in ipairs(ERRORS) do
        s.max_simplification_error = e[2]
        local r = t:call("build3d.soup", { settings = s, soup = bytes })
        local m = t:call("mesh.save", { mesh = r.mesh }).bytes
        t:checkpoint("soup-" .. i .. "-" .. e[1], "mesh", m)
        if first then
          t:check(m == first, "soup " .. i .. ": error " .. e[1] .. " keeps the vertices of error 0")
        else
          first = m
        end
      end
    end
  end,
}
