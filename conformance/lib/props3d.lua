-- props3d.lua -- properties every mesh of the 3D pipeline must have (build3d-polys.md
-- POLY-227), shared by the build3d/soup-*, chunk-* and heightfield-* scenarios
-- (require "props3d"; the runner puts conformance/lib first on package.path).
--
-- check_mesh(t, res, s): res is the answer of build3d.soup / .chunk / .heightfield, s the
-- settings' {cell_size, cell_height, tile_cells, max_verts_per_poly, walkable_climb}.
-- Views every tile (tile.view) and checks: polygons convex and counter-clockwise in their
-- binary32 positions (math.orient2d_f32 decides each turn exactly, FMT-017); at most
-- max_verts_per_poly vertices; internal neighbour codes mutual (FMT-020); every vertex
-- inside the tile's square and 0 <= y <= 16384 * cell_size (FMT-010, FMT-011, POLY-215);
-- portal edges on their side (FMT-021); and, for portal edges of side-by-side tiles that
-- the mesh links (they overlap, MESH-022, and they cross or a gap at an end of the overlap is
-- within twice the climb, MESH-023: the floors of one column are told apart by height), each
-- edge is covered by the edges of the other side it links with. Pairs of linked edges whose intervals differ (a region
-- boundary meets the side in one tile only) are counted in res.mismatched. Returns the number of polygons and twice the walkable area (world
-- units^2, from the binary32 positions).
local M = {}

local function f32(x) return (string.unpack("<f", string.pack("<f", x))) end
local function sgn(x) return x > 0 and 1 or (x < 0 and -1 or 0) end

-- height of edge e = {u0, h0, u1, h1} at u (the interpolation of MESH-023)
local function height(e, u)
  if u == e[1] then return e[2] end
  if u == e[3] then return e[4] end
  return e[2] + (e[4] - e[2]) * ((u - e[1]) / (e[3] - e[1]))
end
-- MESH-023: edges e and f over [lo, hi] link when they cross, or either end's gap is within
-- twice the climb
local function gaps_link(e, f, lo, hi, s)
  local g0, g1 = height(e, lo) - height(f, lo), height(e, hi) - height(f, hi)
  local reach = 2 * s.walkable_climb
  return (g0 < 0 and g1 > 0) or (g0 > 0 and g1 < 0) or math.abs(g0) <= reach or
         math.abs(g1) <= reach
end

function M.check_mesh(t, res, s)
  local fw = f32(s.tile_cells * s.cell_size)
  local ylim = 16384 * s.cell_size
  local npolys, area2, portals = 0, 0, {}
  for _, ti in ipairs(res.tiles) do
    local v = t:call("tile.view", { tile = ti.tile })
    local tag = "tile " .. ti.x .. "," .. ti.z
    t:check(v.x == ti.x and v.z == ti.z and v.layer == ti.layer and ti.layer >= 0
            and ti.layer <= 255, tag .. ": coordinates, layer (POLY-217)")
    t:check(#v.polys == ti.npolys and #v.verts == ti.nverts, tag .. ": counts")
    t:check((v.ndetail or #(v.detail or {})) == 0, tag .. ": no detail mesh (POLY-201)")
    local P = {}
    for i, p in ipairs(v.verts) do
      t:check(p[1] >= 0 and p[1] <= fw and p[3] >= 0 and p[3] <= fw, tag .. ": vertex in the square")
      t:check(p[2] >= 0 and p[2] <= ylim, tag .. ": vertex height within FMT-011")
      P[i - 1] = p
    end
    local edges = {} -- "a,b" -> polygon index (0-based) and code
    for pi, poly in ipairs(v.polys) do
      local n = #poly.verts
      for j = 1, n do
        edges[poly.verts[j] .. "," .. poly.verts[j % n + 1]] = { pi - 1, poly.neis[j] }
      end
    end
    local sides = { [0] = {}, {}, {}, {} }
    for pi, poly in ipairs(v.polys) do
      local n = #poly.verts
      npolys = npolys + 1
      t:check(n >= 3 and n <= s.max_verts_per_poly, tag .. ": 3 to MaxVertsPerPoly vertices")
      for j = 1, n do
        local a, b, c = P[poly.verts[j]], P[poly.verts[j % n + 1]], P[poly.verts[(j + 1) % n + 1]]
        local o = t:call("math.orient2d_f32", { a = { a[1], a[3] }, b = { b[1], b[3] },
                                                c = { c[1], c[3] } }).sign
        local straight = o == 0 and sgn(b[1] - a[1]) == sgn(c[1] - b[1])
                         and sgn(b[3] - a[3]) == sgn(c[3] - b[3])
        t:check(o > 0 or straight, tag .. ": convex, counter-clockwise turn in binary32")
        area2 = area2 + a[1] * b[3] - a[3] * b[1]
        local nei = poly.neis[j]
        if nei >= 1 and nei < 0x8000 then
          local back = edges[poly.verts[j % n + 1] .. "," .. poly.verts[j]]
          t:check(back ~= nil and back[1] == nei - 1 and back[2] == pi, tag .. ": mutual neighbours")
        elseif nei >= 0x8000 then
          local sd = nei - 0x8000
          local on = (sd == 0 and a[1] == 0 and b[1] == 0) or (sd == 2 and a[1] == fw and b[1] == fw)
                     or (sd == 1 and a[3] == fw and b[3] == fw) or (sd == 3 and a[3] == 0 and b[3] == 0)
          t:check(on, tag .. ": portal edge on its side")
          local u = (sd == 0 or sd == 2) and 3 or 1
          local e = { a[u], v.origin_y + a[2], b[u], v.origin_y + b[2] }
          if e[1] > e[3] then e = { e[3], e[4], e[1], e[2] } end
          table.insert(sides[sd], e)
        end
      end
    end
    -- the layers of one position (RT-085) share its sides: the mesh links a portal edge
    -- with the tiles of every layer next to it (MESH-022)
    local key = ti.x .. "," .. ti.z
    local all = portals[key]
    if not all then
      portals[key] = sides
    else
      for sd = 0, 3 do
        for _, e in ipairs(sides[sd]) do table.insert(all[sd], e) end
      end
    end
  end
  -- each linked portal edge of one tile is covered by the other tile's portal edges it
  -- links with (no part of a shared side is a portal on one side and a wall on the other);
  -- edges that link with an edge of another interval are counted in res.mismatched
  local mismatched = 0
  local function covered(e, list)
    local fs = {}
    for _, f in ipairs(list) do
      local lo, hi = math.max(e[1], f[1]), math.min(e[3], f[3])
      if lo < hi and gaps_link(e, f, lo, hi, s) then
        fs[#fs + 1] = f
        if not (e[1] == f[1] and e[3] == f[3]) then mismatched = mismatched + 1 end
      end
    end
    if #fs == 0 then return true end -- linked with nothing: a portal over a gap or a step
    table.sort(fs, function(x, y) return x[1] < y[1] end)
    local cur = e[1]
    for _, f in ipairs(fs) do
      if f[1] > cur then return false end
      if f[3] > cur then cur = f[3] end
    end
    return cur >= e[3]
  end
  local seen = {}
  for _, ti in ipairs(res.tiles) do
    local key = ti.x .. "," .. ti.z
    local me = (not seen[key]) and portals[key] or nil
    seen[key] = true
    if me then
    for _, pair in ipairs({ { 2, (ti.x + 1) .. "," .. ti.z, 0 }, { 1, ti.x .. "," .. (ti.z + 1), 3 } }) do
      local other = portals[pair[2]]
      if other then
        for _, e in ipairs(me[pair[1]]) do
          t:check(covered(e, other[pair[3]]),
                  "tile " .. ti.x .. "," .. ti.z .. ": linked portal edge covered by the neighbour's")
        end
        for _, f in ipairs(other[pair[3]]) do
          t:check(covered(f, me[pair[1]]),
                  "tile " .. pair[2] .. ": linked portal edge covered by the neighbour's")
        end
      end
    end
    end
  end
  res.mismatched = mismatched // 2
  return npolys, area2
end

return M
