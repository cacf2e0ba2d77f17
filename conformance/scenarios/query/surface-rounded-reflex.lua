-- query/surface-rounded-reflex: QSF-104's hit edge when P has no candidate edge, which happens
-- only when P's world points are not convex. A polygon convex in its binary32 tile-local
-- points (FMT-017) can lose convexity in world points (QRY-010: x0 + x rounded in binary64).
--
-- The tile: origin x -2^21 (FMT-003's bound), tile (0, 0), so x0 = -2^21; world x just above
-- -2^21 has a spacing u = 2^-32. Polygon 0, local (x, z), counter-clockwise:
--   v0 (0, 0), v1 (1, 0), v2 (1, 4), v3 (2u, 4), v4 (1.5u, 3)
-- v3, v4, v0 lie on one local line (x = z u / 2: a straight corner, allowed by FMT-017). In the
-- world, x0 + 1.5u is a tie between x0 + u and x0 + 2u and rounds to the even x0 + 2u, so v4
-- moves inward: world v3 (x0 + 2u, 4), v4 (x0 + 2u, 3), and v4 is a reflex corner.
--
-- Ray R1 from S = (x0 + 0.5, 2) to E = (x0 + u, 1): E is inside the half-planes of edges 0, 1,
-- 2 and 4 (for edge 4, v4 -> v0: Orient = u > 0) but strictly outside edge 3's line (v3 -> v4,
-- x = x0 + 2u: Orient = -u), so E is not inside P (QRY-040) and the walk cannot end there. The
-- line S -> E passes x0 + 1 near z = 3 and x0 + 1.5 near z = 4, so v3 and v4 lie strictly on
-- one side of it: edge 3 does not straddle the line and is no candidate; no other edge has E
-- outside its line. So P has no candidate, and the hit edge is the lowest j with
-- Orient(v[j], v[j+1], E) < 0: edge 3, with QSF-105's parameter on its line (derived below
-- in binary64 in the clause's order) and QSF-106's normal (1, 0, 0). Rays R0 (through edge 4,
-- a candidate) and R2 (through edge 0) come first, so that a walk reading a candidate list
-- left from an earlier ray answers something else.
local S = require("query_surface")

local u = 2.0 ^ -32
local X0 = -(2.0 ^ 21)
local TILING = { origin = { X0, 0, 0 }, cell_size = 1, cell_height = 0.25, tile_cells = 4,
                 max_verts_per_poly = 6 }

local DESC = {
  x = 0, z = 0, layer = 0, tiling = TILING, origin_y = 0,
  verts = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 0, 4 }, { 2 * u, 0, 4 }, { 1.5 * u, 0, 3 } },
  polys = { { verts = { 0, 1, 2, 3, 4 }, neis = { 0, 0, 0, 0, 0 }, area = 0, flags = 1 } },
}

-- QSF-105: the parameter of the ray s -> e on the line of edge a -> b (world x, z), t_in = 0.
local function edge_t(s, e, a, b)
  local dx, dz = e[1] - s[1], e[3] - s[3]
  local ux, uz = b[1] - a[1], b[3] - a[3]
  local den = dx * uz - dz * ux
  local num = (a[1] - s[1]) * uz - (a[3] - s[3]) * ux
  local t = den ~= 0.0 and num / den or 0.0
  if t > 1.0 then t = 1.0 end
  if t < 0.0 then t = 0.0 end
  return t
end

return {
  title = "Raycast's hit edge when rounding to world points leaves a polygon no candidate edge",
  clauses = { "QRY-010", "QRY-040", "QSF-103", "QSF-104", "QSF-105", "QSF-106", "FMT-017" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    local tile = t:call("tile.create", DESC).handle
    t:call("mesh.add_tile", { mesh = m, tile = tile })
    local ref = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 0 }).ref
    -- the world points (QRY-010), as the comment derives them
    local W = { { X0, 0, 0 }, { X0 + 1, 0, 0 }, { X0 + 1, 0, 4 }, { X0 + 2 * u, 0, 4 },
                { X0 + 2 * u, 0, 3 } }
    t:check(X0 + 1.5 * u == X0 + 2 * u and X0 + 2 * u ~= X0 + u,
            "x0 + 1.5u rounds to x0 + 2u (the tie goes to the even neighbour)")
    local b = t:table()
    local function ray(s, e, tag)
      local r = t:call("query.raycast", { mesh = m, poly = ref, start = s, ["end"] = e })
      S.put_ray(b, r)
      t:check(#r.path == 1 and r.path[1].id[4] == 0, tag .. ": the walk stays in polygon 0")
      return r
    end
    local s = { X0 + 0.5, 0, 2 }

    local e0 = { X0 - 0.5, 0, 1 }
    local r0 = ray(s, e0, "R0")
    t:check(r0.status == "wall" and r0.edge == 4 and r0.t == edge_t(s, e0, W[5], W[1]),
            "R0: a wall at candidate edge 4 (v4 -> v0), t on its line (QSF-104, QSF-105)")

    local e2 = { X0 + 0.5, 0, -1 }
    local r2 = ray(s, e2, "R2")
    t:check(r2.status == "wall" and r2.edge == 0 and r2.t == edge_t(s, e2, W[1], W[2]) and
            r2.normal[1] == 0 and r2.normal[3] == 1, "R2: a wall at candidate edge 0, normal (0, 0, 1)")

    local e1 = { X0 + u, 0, 1 }
    local r1 = ray(s, e1, "R1")
    local t1 = edge_t(s, e1, W[4], W[5])
    t:check(r1.status == "wall", "R1: E is not inside P, so the walk ends at a wall (QSF-103)")
    t:check(r1.edge == 3, "R1: no candidate, so the hit edge is edge 3, the lowest with E outside (QSF-104)")
    t:check(r1.t == t1 and t1 < 1 and t1 > 1 - 2 ^ -30,
            "R1: t is QSF-105's parameter on edge 3's line, just below 1")
    t:check(r1.normal[1] == 1 and r1.normal[2] == 0 and r1.normal[3] == 0,
            "R1: the normal of edge 3 (v3 -> v4, straight down in z) is (1, 0, 0) (QSF-106)")

    -- the same from a start on the other side, then again after R0: the answer is R1's
    local s2 = { X0 + 0.75, 0, 2.5 }
    local r3 = ray(s2, e1, "R3")
    t:check(r3.status == "wall" and r3.edge == 3 and r3.t == edge_t(s2, e1, W[4], W[5]),
            "R3: the same fallback edge from another start")
    ray(s, e0, "R0 again")
    local r4 = ray(s, e1, "R1 again")
    t:check(r4.edge == 3 and r4.t == r1.t, "R1 asked again after R0: the same answer")
    t:checkpoint("rounded-reflex rays", "table", b:hex())
  end,
}
