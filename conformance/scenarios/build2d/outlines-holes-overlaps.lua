-- Outlines that overlap, in both orientations, with obstacles that cut holes; the Large
-- preset's tiling (cell 0.5, 128 cells: W = 64, SnapBits 9), agent radius 0 (no shrink).
-- Region: [0,100]^2 union [50,150]^2 (17500) minus the holes [20,40]^2 (400) and
-- [60,140] x [100,120] (1600): area 15500. X and Z lines 64 and 128 are cut lines.
local S = { preset = "Large", agent_radius = 0 }
local UNIT = 512 -- 2^SnapBits: every local coordinate is a multiple of 1/512 here

local check_tiles = require("props2d").check_tiles -- T2D-043, G2D-225 properties

local A = { { 0, 0 }, { 100, 0 }, { 100, 100 }, { 0, 100 } }
local B = { { 150, 150 }, { 50, 150 }, { 50, 50 }, { 150, 50 } } -- clockwise
local H1 = { { 20, 20 }, { 40, 20 }, { 40, 40 }, { 20, 40 } }
local H2 = { { 60, 100 }, { 140, 100 }, { 140, 120 }, { 60, 120 } }

-- the same outline from another start vertex, in the other direction
local function turned(o, k)
  local r = {}
  for i = 0, #o - 1 do r[#r + 1] = o[(k - i) % #o + 1] end
  return r
end

return {
  title = "Overlapping outlines in both orientations minus obstacles, cut by tile lines (Large)",
  clauses = { "T2D-001", "T2D-002", "T2D-013", "T2D-014", "T2D-030", "T2D-031", "T2D-034",
              "T2D-035", "T2D-040", "T2D-041", "T2D-042", "T2D-043", "T2D-044", "T2D-050",
              "T2D-051", "T2D-052", "T2D-053", "T2D-054", "T2D-060", "T2D-061", "T2D-071",
              "G2D-204", "G2D-206", "G2D-223", "G2D-225" },
  run = function(t)
    local r = t:call("build2d.outlines", { settings = S, outlines = { A, B }, obstacles = { H1, H2 } })
    local m = t:call("mesh.save", { mesh = r.handle })
    t:checkpoint("region", "mesh", m.bytes)
    t:check(#r.tiles == 9, "nine tiles: three columns, three rows")
    local area2, np = check_tiles(t, r, 64)
    t:check(area2 == 2 * 15500 * UNIT * UNIT, "the polygons cover the region exactly")
    t:check(np >= 9, "at least one polygon per tile")
    for i, ti in ipairs(r.tiles) do
      if i > 1 then
        local p = r.tiles[i - 1]
        t:check(p.z < ti.z or (p.z == ti.z and p.x < ti.x), "tiles in ascending (row, column)")
      end
    end
    local t0 = t:call("tile.save", { tile = r.tiles[1].handle })
    t:checkpoint("tile-0-0", "tile", t0.bytes)

    -- shuffled: outlines in the other order, other start vertices and directions, the
    -- obstacles swapped: the same bytes (T2D-044)
    local r2 = t:call("build2d.outlines", { settings = S, outlines = { turned(B, 2), turned(A, 1) },
                                             obstacles = { turned(H2, 3), H1 } })
    t:check(t:call("mesh.save", { mesh = r2.handle }).bytes == m.bytes, "shuffled input, same bytes")
  end,
}
