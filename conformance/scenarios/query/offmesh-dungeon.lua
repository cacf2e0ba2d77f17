-- query/offmesh-dungeon: off-mesh links on a built level (spec/query.md QRY-070 .. QRY-072). The
-- dungeon level of query/levels-dungeon (3D pipeline, Humanoid), then every tile remade by
-- tile.view + tile.create (FMT-073) with one slot added: from the surface point over its
-- polygon 0's centre to the surface point over polygon 0 of the next tile in the build's list
-- (the last one to the first), every other slot bidirectional, radius 0.5, area 0, flags 1.
-- The links join components the level leaves apart (pillar tops, LVL-060), so more pairs find a
-- path; PRNG-drawn pairs as in conformance/lib/query.lua (pairs_scenario), with the reverse
-- insertion order giving the same answers (the connections are a function of the set of tiles).
local Q = require("query")

local function f32(x) return string.unpack("<f", string.pack("<f", x)) end

local built -- the mesh and the link ends, for the checks after the pairs

local function build(t)
  local L = Q.LEVELS.dungeon
  local r = t:call("build3d.soup", { preset = "Humanoid", partition = L.partition,
                                     level = { name = L.name, seed = L.seed, size = L.size } })
  local handles = {}
  for _, ti in ipairs(r.tiles) do handles[#handles + 1] = ti.tile end
  local V = Q.views(t, handles)
  local function surface(ti)
    local v = V[ti.x .. "," .. ti.z .. "," .. ti.layer]
    local c = Q.centre(v, 0)
    local n = t:call("query.nearest_poly", { mesh = r.mesh, center = { c[1], c[2] + 0.3, c[3] },
                                             half_extents = { 1, 2, 1 } })
    return n.found and n.point or nil, v
  end
  local m = t:call("mesh.create", Q.params(t, r.mesh)).handle
  local out = { mesh = m, tiles = {} }
  built = { mesh = m, ends = {} }
  for i, ti in ipairs(r.tiles) do
    local a, v = surface(ti)
    local b = surface(r.tiles[i % #r.tiles + 1])
    local view = t:call("tile.view", { tile = ti.tile })
    if a and b then
      local function loc(p, clamp)
        local x, y, z = f32(p[1] - v.x0), f32(p[2] - v.origin_y), f32(p[3] - v.z0)
        if clamp then
          x = math.min(math.max(x, 0.0), v.fW)
          z = math.min(math.max(z, 0.0), v.fW)
        end
        return { x, y, z }
      end
      built.ends[#built.ends + 1] = { a, b }
      view.offmesh = { { start = loc(a, true), ["end"] = loc(b, false), radius = 0.5, flags = 1,
                         area = 0, bidirectional = i % 2 == 0, user_id = i } }
    end
    local h = t:call("tile.create", view).handle
    t:call("mesh.add_tile", { mesh = m, tile = h })
    out.tiles[#out.tiles + 1] = { x = ti.x, z = ti.z, layer = ti.layer, tile = h }
  end
  return out
end

local s = Q.pairs_scenario("offmesh-dungeon",
  "Queries on the dungeon level with an off-mesh link per tile: find path over links, OFFMESH corners",
  build, 300, 100, 40)
for _, c in ipairs({ "QRY-070", "QRY-071", "QRY-072", "MESH-025" }) do s.clauses[#s.clauses + 1] = c end
local pairs_run = s.run
s.run = function(t)
  pairs_run(t)
  -- from each link's start to its end: found, and the straight path shows OFFMESH corners
  local b, found, flagged = t:table(), 0, 0
  for _, e in ipairs(built.ends) do
    local f = t:call("query.find_path", { mesh = built.mesh, start = e[1], ["end"] = e[2] })
    Q.put_path(b, f)
    if f.status == "found" then
      found = found + 1
      local sp = t:call("query.straight_path", { mesh = built.mesh, start = e[1], ["end"] = e[2],
                                                 path = Q.refs(f.path) })
      Q.put_corners(b, sp.corners)
      for _, c in ipairs(sp.corners) do
        if c.flags & 4 ~= 0 then flagged = flagged + 1; break end
      end
    end
  end
  t:check(found == #built.ends and #built.ends >= 10, "every link's start reaches its end")
  t:check(flagged >= #built.ends // 2, "most of those paths take their link (OFFMESH corners)")
  t:checkpoint("link ends", "table", b:hex())
end
return s
