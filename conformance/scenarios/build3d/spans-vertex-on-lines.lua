-- conformance/scenarios/build3d/spans-vertex-on-lines.lua
-- SPAN-106's split at a vertex lying exactly on the split line: the vertex is kept on both
-- sides and no crossing point is made next to it (a crossing is made only for an edge whose
-- two ends are strictly on opposite sides). A triangle with its least-x vertex exactly on a
-- row line and a column line, and its next vertex 1000 units away: a crossing point wrongly
-- made at that vertex would be computed from the far end, fl(1000 + fl(v - 1000)), which is
-- not v (0.8999999999999773 for v = 0.8999999999999999), and would put a sliver into the
-- column left of the vertex, where the triangle has no point.
--
-- Values (Humanoid, tile (0, 0): gx0 = gz0 = -5, cs = 0.3; the frame's origin (0, 0, 0)
-- from the floors at the origin): X(8) = Z(8) = fl(0 + fl(3 * 0.3)) = 0.8999999999999999.
-- Triangle (X(8), 0, Z(8)) -> (1000, 0, 1000) -> (X(8) + 3, 0, 0.4), walkable (flat, normal
-- up). In rows 7 and 8 (z in [Z(7), Z(9)]) its pieces start at column 8; column 7 gets
-- nothing from it (a wrong crossing point would put spans in column 7, rows 7 and 8).

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

return {
  title = "A vertex on a row and a column line, its neighbour far away: no column-7 sliver",
  clauses = { "SPAN-105", "SPAN-106", "SPAN-107", "SPAN-108", "SPAN-181" },
  run = function(t)
    local v = 0 + (8 - 5) * 0.3
    t:check(v == 0.8999999999999999 and 1000 + (v - 1000) < v, "the line and the rounding as derived")
    -- floors around the hole left of the vertex, so that a span wrongly put there has four
    -- neighbours at its height (no ledge, SPAN-122) and reaches the compact heightfield:
    -- x in [0, 0.6] (columns 5, 6), and x in [0.6, v] over z in [0, 0.6] and [1.2, 3]
    -- (column 7, rows 5, 6 and 9 on); column 7 rows 7 and 8 stay empty.
    local function quad(x0, z0, x1, z1, verts, tris)
      local b = #verts
      verts[b + 1] = { x0, 0, z0 }; verts[b + 2] = { x0, 0, z1 }
      verts[b + 3] = { x1, 0, z1 }; verts[b + 4] = { x1, 0, z0 }
      tris[#tris + 1] = { b, b + 1, b + 2 }; tris[#tris + 1] = { b, b + 2, b + 3 }
    end
    local verts, tris = { { v, 0, v }, { 1000, 0, 1000 }, { v + 3, 0, 0.4 } }, { { 0, 1, 2 } }
    quad(0, 0, 0.6, 3, verts, tris)
    quad(0.6, 0, v, 0.6, verts, tris)
    quad(0.6, 1.2, v, 3, verts, tris)
    local s = soup(t, verts, tris)
    local r = t:call("spans.build_tile", { preset = "Humanoid", soup = s, tile = { 0, 0 } })
    t:check(r.built == true, "tile (0, 0) builds")
    t:checkpoint("vertex-on-lines", "table", r.bytes, "chf")
  end,
}
