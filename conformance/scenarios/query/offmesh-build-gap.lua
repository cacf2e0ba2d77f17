-- query/offmesh-build-gap: off-mesh link definitions given with a 3D build (spec/build3d-polys.md
-- POLY-240 .. POLY-245, protocol POLY-234), connected by the queries (query.md QRY-070 ..
-- QRY-072). Two floors (Small preset, tiles of 4.8) 1.5 apart on x, B 1.0 higher: no polygon of
-- A reaches B. Three definitions: a bidirectional jump across the gap, a one-way drop back
-- whose start lies on B and end on A, and one whose start lies outside the grid (dropped,
-- POLY-242). The build's mesh is compared byte for byte with the build without definitions
-- remade in Lua (POLY-242 .. POLY-244 by lib/offmesh3d.lua, then tile.view + tile.create), so
-- the slot fields are derived, not taken from the build.
local S = require("soups3d")
local Q = require("query")
local O = require("offmesh3d")

local function floors(t)
  local v = { { 0, 0, 0 }, { 0, 0, 6 }, { 6, 0, 6 }, { 6, 0, 0 },
              { 7.5, 1, 0 }, { 7.5, 1, 6 }, { 13.5, 1, 6 }, { 13.5, 1, 0 } }
  local f = { { 0, 1, 2 }, { 0, 2, 3 }, { 4, 5, 6 }, { 4, 6, 7 } }
  return S.soup(t, v, f)
end

local LINKS = {
  { start = { 5.5, 0, 3 }, ["end"] = { 8.0, 1, 3 }, radius = 0.5, bidirectional = true,
    area = 5, flags = 1, user_id = 7 },
  { start = { 8.0, 1, 1.25 }, ["end"] = { 5.5, 0, 1.25 }, radius = 0.5, bidirectional = false,
    area = 0, flags = 1, user_id = 8 },
  { start = { -1.0, 0, 3 }, ["end"] = { 1.0, 0, 3 }, radius = 0.5, bidirectional = 0,
    area = 0, flags = 1, user_id = 9 },
}

return {
  title = "A 3D build with off-mesh link definitions: a path across a gap only through a link",
  clauses = { "POLY-240", "POLY-242", "POLY-244", "POLY-245", "POLY-234", "POLY-217",
              "QRY-070", "QRY-071", "QRY-072" },
  run = function(t)
    local soup = floors(t)
    local r0 = t:call("build3d.soup", { preset = "Small", soup = soup })
    local r1 = t:call("build3d.soup", { preset = "Small", soup = soup, offmesh = LINKS })
    t:check(r0.offmesh == nil, "no offmesh member without the argument (POLY-234)")
    t:check(r1.offmesh == 2, "two slots stored, the one outside the grid dropped (POLY-242)")
    t:check(#r1.tiles == #r0.tiles, "the same tiles")
    local m2, count = O.remade(t, r0, LINKS)
    t:check(count == 2, "Lua places two slots")
    local b1 = t:call("mesh.save", { mesh = r1.mesh }).bytes
    local b2 = t:call("mesh.save", { mesh = m2 }).bytes
    t:check(b1 == b2, "the build's mesh is the Lua placement's, byte for byte (POLY-244, POLY-245)")
    local changed = 0
    for k, ti in ipairs(r1.tiles) do
      if ti.content_id ~= r0.tiles[k].content_id then changed = changed + 1 end
    end
    t:check(changed >= 1 and changed <= 2, "only the tiles with slots change (POLY-245)")
    t:checkpoint("mesh with links", "mesh", b1)

    local a, bpt = { 1.0, 0, 3 }, { 12.5, 1, 3 }
    local b = t:table()
    local f0 = t:call("query.find_path", { mesh = r0.mesh, start = a, ["end"] = bpt })
    t:check(f0.status ~= "found", "without links B is out of reach")
    Q.put_path(b, f0)
    for _, dir in ipairs({ { a, bpt }, { bpt, a } }) do
      local f = t:call("query.find_path", { mesh = r1.mesh, start = dir[1], ["end"] = dir[2] })
      t:check(f.status == "found", "with links the path is found")
      Q.put_path(b, f)
      if f.status == "found" then
        local sp = t:call("query.straight_path", { mesh = r1.mesh, start = dir[1], ["end"] = dir[2],
                                                   path = Q.refs(f.path) })
        local off = 0
        for _, c in ipairs(sp.corners) do if c.flags & 4 ~= 0 then off = off + 1 end end
        t:check(off == 2, "the link shows as two OFFMESH corners (QRY-072)")
        Q.put_corners(b, sp.corners)
      end
    end
    t:checkpoint("paths", "table", b:hex())
  end,
}
