-- conformance/scenarios/build3d/mut-contours-join.lua
-- Hole joining (build3d-regions.md REG-216 .. REG-219) where a join's segment passes near
-- slanted edges. First, hand-made wedges (see wedge_map): an outline vertex inside the
-- bounding box of a slanted edge but beside it, where REG-218's test must find the segment
-- free (a test of the bounding box alone would block it; the issue-13 survivor at
-- contours_simplify.c:267, `o3 == 0` written `o3 == 1`, fails here). Then 60 generated
-- floors of 18 x 18 m with turned pillars (holes) and turned wall blocks on the edges
-- (chfmaps' generator, seed 1318). One table checkpoint per map and partition holds the
-- REG-222 bytes with the counts of REG-223.

local maps = require("chfmaps")

local PARTS = { "watershed", "monotone", "layers" }
-- turning directions (a, b) / |(a, b)|, integers so that the corners stay exact enough
local DIRS = { { 1, 0 }, { 3, 4 }, { 4, 3 }, { 1, 1 }, { 5, 12 }, { 2, 1 }, { 1, 2 } }

local function turned(cx, cz, hw, hd, d)
  local n = math.sqrt(d[1] * d[1] + d[2] * d[2])
  local ux, uz = d[1] / n, d[2] / n
  local function at(a, b) return { cx + a * ux - b * uz, cz + a * uz + b * ux } end
  return { at(-hw, -hd), at(-hw, hd), at(hw, hd), at(hw, -hd) }
end

local function random_map(t, r)
  local s = maps.soup_new()
  maps.floor_quad(s, 0, 0, 18, 18, 0)
  for _ = 1, r:int(1, 6) do -- pillars: holes of the floor's region
    local cx, cz = 3 + r:int(0, 120) / 10, 3 + r:int(0, 120) / 10
    local hw, hd = 0.4 + r:int(0, 16) / 10, 0.4 + r:int(0, 16) / 10
    maps.prism(s, turned(cx, cz, hw, hd, DIRS[r:int(1, #DIRS)]), 0, 4)
  end
  for _ = 1, r:int(0, 4) do -- a wall block turned about a point of an edge of the floor
    local side, at = r:int(1, 4), 1 + r:int(0, 160) / 10
    local cx, cz = ({ 0, 18, at, at })[side], ({ at, at, 0, 18 })[side]
    local hw, hd = 0.5 + r:int(0, 30) / 10, 0.5 + r:int(0, 30) / 10
    maps.prism(s, turned(cx, cz, hw, hd, DIRS[r:int(1, #DIRS)]), 0, 4)
  end
  return maps.soup_bytes(t, s)
end

-- A wedge of wall juts from the floor's left edge (lower face rising by 1/2, upper face by
-- 1/4, meeting at a sharp tip) and a pillar (a hole) stands above its root: the outline
-- vertex where the upper face leaves the floor's edge is the nearest candidate of the
-- pillar's leftmost vertex, and it lies inside the bounding box of the wedge's lower face,
-- behind that face (REG-218: beside the edge, not on it, so the join is not blocked). Each
-- map is drawn as given and mirrored in z (the mirror reverses the loops' turning sense).
local function wedge_map(t, px, pz, mirror)
  local s = maps.soup_new()
  local function m(pts)
    if not mirror then return pts end
    local r = {}
    for k = #pts, 1, -1 do r[#r + 1] = { pts[k][1], 18 - pts[k][2] } end
    return r
  end
  maps.floor_quad(s, 0, 0, 18, 18, 0)
  maps.prism(s, m({ { -0.5, 3.75 }, { -0.5, 6.375 }, { 12, 10.5 } }), 0, 4)
  maps.prism(s, m({ { -0.5, 6 }, { -0.5, 8 }, { 3.5, 8 }, { 3.5, 6 } }), 0, 4)
  maps.prism(s, m({ { px, pz }, { px, pz + 1 }, { px + 1, pz + 1 }, { px + 1, pz } }), 0, 4)
  return maps.soup_bytes(t, s)
end

return {
  title = "Hole joins along slanted diagonals: turned pillars and wall notches",
  clauses = { "REG-216", "REG-217", "REG-218", "REG-219", "REG-222", "REG-223" },
  run = function(t)
    for _, mirror in ipairs({ false, true }) do
      for _, px in ipairs({ 4.5, 5, 5.5 }) do
        for _, pz in ipairs({ 10, 10.5 }) do
          local bytes = wedge_map(t, px, pz, mirror)
          for _, part in ipairs(PARTS) do
            local c = t:call("contours.build_tile", { preset = "Humanoid", partition = part,
                                                      soup = bytes, tile = { 0, 0 } })
            local b = t:table()
            b:u32(c.nloops); b:u32(c.nverts); b:u32(c.unjoined)
            b:bytes(c.bytes)
            t:checkpoint(string.format("wedge-%s-%g-%g-%s", mirror and "m" or "a", px, pz, part),
                         "table", b:hex())
          end
        end
      end
    end
    local r = maps.rng(1318)
    for i = 1, 60 do
      local bytes = random_map(t, r)
      for _, part in ipairs(PARTS) do
        local c = t:call("contours.build_tile", { preset = "Humanoid", partition = part,
                                                  soup = bytes, tile = { 0, 0 } })
        local b = t:table()
        b:bool(c.built)
        b:u32(c.nregions); b:u32(c.nloops); b:u32(c.ncontours); b:u32(c.nverts)
        b:u32(c.unjoined)
        b:bytes(c.bytes)
        t:checkpoint("map-" .. i .. "-" .. part, "table", b:hex())
      end
    end
  end,
}
