-- The polygon stage (build3d-polys.md section 3) on hand-made soups, with the three
-- partitions: a square floor (one contour, one convex polygon) and the same floor with a
-- tall hollow pillar in the middle (a contour with a hole, or several contours around it).

local floor = require("soups3d").floor -- a 6 x 6 floor, optionally with a hollow pillar

return {
  title = "Polygons of one tile: a square floor, a floor with a pillar, three partitions",
  clauses = { "POLY-011", "POLY-021", "POLY-023", "POLY-024", "POLY-030", "POLY-042",
              "POLY-044", "POLY-060", "POLY-061", "POLY-070", "POLY-071", "POLY-090", "POLY-091" },
  run = function(t)
    local plain, pillar = floor(t, false), floor(t, true)
    for _, part in ipairs({ "watershed", "monotone", "layers" }) do
      -- Humanoid: the floor's one region is a 14 x 14 square of cells (REG contour
      -- scenario contours-tile), well inside the 64-cell tile: its four corners make two
      -- triangles (POLY-024) that merge into one quadrilateral (POLY-044, MaxVertsPerPoly
      -- 6); no edge lies on a tile side, so no portals (POLY-061) and no internal links.
      local r = t:call("polys.build_tile", { preset = "Humanoid", partition = part,
                                             soup = plain, tile = { 0, 0 } })
      t:check(r.built == true and r.ncontours == 1, part .. ": one contour")
      t:check(r.nverts == 4 and r.npolys == 1, part .. ": one quadrilateral")
      t:check(r.portals == 0 and r.links == 0 and r.untriangulated == 0, part .. ": all walls")
      t:checkpoint("floor-" .. part, "table", r.bytes, "polys")
      -- With the pillar the walkable area is not convex: several polygons, linked across
      -- shared edges (each shared edge counted from both sides, so an even count).
      local p = t:call("polys.build_tile", { preset = "Humanoid", partition = part,
                                             soup = pillar, tile = { 0, 0 } })
      t:check(p.built == true and p.npolys >= 2 and p.untriangulated == 0, part .. ": pillar")
      t:check(p.links >= 2 and p.links % 2 == 0, part .. ": links mutual")
      t:checkpoint("pillar-" .. part, "table", p.bytes, "polys")
    end
    -- A tile with no walkable triangle is not built.
    local e = t:call("polys.build_tile", { preset = "Humanoid", soup = plain, tile = { 3, 3 } })
    t:check(e.built == false and e.npolys == 0 and e.bytes == "", "empty tile")
  end,
}
