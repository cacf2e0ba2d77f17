-- query/offmesh-build-borders: which tile stores a definition's slot (spec/build3d-polys.md
-- POLY-242: the tile whose FMT-005 extent holds the start, x0 <= x < x1 and z0 <= z < z1).
-- A 12 x 12 floor (Small preset, tiles of 4.8, grid 3 x 3). Starts: exactly on the side
-- x = 4.8 shared by columns 0 and 1 (column 1), one binary64 step below it (column 0), on the
-- corner (4.8, 4.8) of four tiles (tile 1, 1), on the grid's far side x = 3 * 4.8 (no
-- column: dropped), below the grid's origin (dropped); slots in definition order (POLY-244);
-- then starts exactly on the origin's sides x = x0, z = z0 (column 0) and one step before.
-- Each expectation is written here from the rule, and the mesh is compared with the Lua
-- placement (lib/offmesh3d.lua).
local S = require("soups3d")
local O = require("offmesh3d")

local function floor12(t)
  return S.soup(t, { { 0, 0, 0 }, { 0, 0, 12 }, { 12, 0, 12 }, { 12, 0, 0 } },
                { { 0, 1, 2 }, { 0, 2, 3 } })
end

local W = 32 * 0.15
local function link(x, z, id)
  return { start = { x, 0, z }, ["end"] = { x + 1, 0, z + 1 }, radius = 0.25,
           bidirectional = 1, area = 1, flags = 3, user_id = id }
end

return {
  title = "Off-mesh definitions on tile sides and corners: the half-open assignment rule",
  clauses = { "POLY-242", "POLY-244", "POLY-245" },
  run = function(t)
    local below = W - 2.0 ^ -50 -- the binary64 just below 4.8
    t:check(below < W and below + 2.0 ^ -50 == W, "one step below the side")
    local links = {
      link(1 * W, 2.0, 1),          -- on the shared side: column 1
      link(below, 2.0, 2),          -- just below: column 0
      link(1 * W, 1 * W, 3),        -- on a corner of four tiles: tile (1, 1)
      link(3 * W, 2.0, 4),          -- the grid's far side: no column
      link(-0.5, 2.0, 5),           -- before the origin: no column
      link(1 * W + 1.0, 2.0, 6),    -- column 1 again, after definition 0
    }
    local soup = floor12(t)
    local r0 = t:call("build3d.soup", { preset = "Small", soup = soup })
    local r1 = t:call("build3d.soup", { preset = "Small", soup = soup, offmesh = links })
    t:check(r1.ntx == 3 and r1.ntz == 3, "a 3 x 3 grid")
    t:check(r1.offmesh == 4, "four slots stored")
    local want = { ["1,0"] = { 1, 6 }, ["0,0"] = { 2 }, ["1,1"] = { 3 } }
    local b = t:table()
    for _, ti in ipairs(r1.tiles) do
      local v = t:call("tile.view", { tile = ti.tile })
      local ids = {}
      for _, s in ipairs(v.offmesh or {}) do ids[#ids + 1] = s.user_id end
      local w = want[ti.x .. "," .. ti.z] or {}
      t:check(table.concat(ids, ",") == table.concat(w, ","),
              "tile " .. ti.x .. "," .. ti.z .. " holds " .. table.concat(w, ","))
      b:i32(ti.x); b:i32(ti.z); b:u32(#ids)
      for _, s in ipairs(v.offmesh or {}) do
        for k = 1, 3 do b:f32(s.start[k]) end
        for k = 1, 3 do b:f32(s["end"][k]) end
        b:f32(s.radius); b:u32(s.user_id)
      end
    end
    local m2, count = O.remade(t, r0, links)
    t:check(count == 4, "Lua places four")
    local b1 = t:call("mesh.save", { mesh = r1.mesh }).bytes
    t:check(b1 == t:call("mesh.save", { mesh = m2 }).bytes, "the Lua placement's mesh")
    t:checkpoint("slots by tile", "table", b:hex())
    t:checkpoint("mesh", "mesh", b1)
    -- A grid whose origin is x = -1.85: for the start one binary64 step below x0 of column 2
    -- (fl(-1.85 + 2 * 4.8) = 7.75), fl(fl(x - origin) / W) rounds up to exactly 2, yet the
    -- start lies in column 1 by POLY-242's exact test (an estimate alone would pick 2).
    local o = -1.85
    local lo2 = o + 2 * W
    local x = lo2 - 2.0 ^ -50
    t:check(lo2 == 7.75 and x < lo2 and (x - o) / W == 2.0, "the estimate rounds up")
    local soup2 = S.soup(t, { { o, 0, 0 }, { o, 0, 12 }, { o + 12, 0, 12 }, { o + 12, 0, 0 } },
                         { { 0, 1, 2 }, { 0, 2, 3 } })
    local l2 = { link(x, 2.0, 11), link(lo2, 2.0, 12) }
    local q0 = t:call("build3d.soup", { preset = "Small", soup = soup2 })
    local q1 = t:call("build3d.soup", { preset = "Small", soup = soup2, offmesh = l2 })
    local got = {}
    for _, ti in ipairs(q1.tiles) do
      local v = t:call("tile.view", { tile = ti.tile })
      for _, sl in ipairs(v.offmesh or {}) do got[sl.user_id] = ti.x end
    end
    t:check(got[11] == 1 and got[12] == 2, "one step below column 2's side: column 1")
    local m3 = O.remade(t, q0, l2)
    local b3 = t:call("mesh.save", { mesh = q1.mesh }).bytes
    t:check(b3 == t:call("mesh.save", { mesh = m3 }).bytes, "the Lua placement's mesh (origin -1.85)")
    t:checkpoint("mesh, origin -1.85", "mesh", b3)
    -- Starts exactly on the grid's origin sides x = x0 and z = z0 of column 0 (the closed
    -- lower bounds: column 0), one binary64 step before them (no column: dropped), and on
    -- the origin's corner itself.
    local l3 = { link(0, 2.0, 21), link(2.0, 0, 22), link(0, 0, 23), link(-2.0 ^ -1074, 2.0, 24),
                 link(2.0, -2.0 ^ -1074, 25) }
    local p1 = t:call("build3d.soup", { preset = "Small", soup = soup, offmesh = l3 })
    t:check(p1.offmesh == 3, "three slots on the origin sides, two dropped")
    local in00 = {}
    for _, ti in ipairs(p1.tiles) do
      local v = t:call("tile.view", { tile = ti.tile })
      for _, sl in ipairs(v.offmesh or {}) do in00[#in00 + 1] = ti.x .. "," .. ti.z .. ":" .. sl.user_id end
    end
    t:check(table.concat(in00, " ") == "0,0:21 0,0:22 0,0:23", "the origin sides belong to tile (0, 0)")
    local m4 = O.remade(t, r0, l3)
    local b4 = t:call("mesh.save", { mesh = p1.mesh }).bytes
    t:check(b4 == t:call("mesh.save", { mesh = m4 }).bytes, "the Lua placement's mesh (origin sides)")
    t:checkpoint("mesh, origin sides", "mesh", b4)
  end,
}
