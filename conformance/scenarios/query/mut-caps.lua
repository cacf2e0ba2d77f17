-- query/mut-caps: find path under every node cap and path cap on a 4 x 4-tile grid mesh
-- (conformance/lib/query.lua, grid: 256 unit squares, a wall with two gaps), with uniform
-- and with cheap areas (costs below 1 make the heuristic overestimate, so closed nodes are
-- reopened, QRY-068 step 5). Written against the mutation sample of ref/query/ (issue 14):
-- the answers of small node pools (QRY-060: the node table is then small and crowded), the
-- exact cap (QRY-068: node_limit when the pool is full), the partial route to the node of
-- least h (QRY-069), path_limit with the first max_path polygons, and reopened nodes.
local Q = require("query")

return {
  title = "Query caps: every max_nodes and max_path on a grid, reopened nodes with cheap areas",
  clauses = { "QRY-032", "QRY-060", "QRY-062", "QRY-065", "QRY-066", "QRY-067", "QRY-068",
              "QRY-069", "QRY-090" },
  run = function(t)
    -- the wall: column 7 (world x in [7, 8]) for rows 0 .. 13, a gap at rows 14, 15; and
    -- row 9 (z in [9, 10]) for columns 9 .. 15, a gap at column 8 (next to the wall)
    local function hole(tx, tz, i, j)
      local x, z = tx * 4 + i, tz * 4 + j
      return (x == 7 and z <= 13) or (z == 9 and x >= 9)
    end
    local function area(tx, tz)
      return function(i, j)
        local x, z = tx * 4 + i, tz * 4 + j
        return ((x + 2 * z) % 5 == 0) and 1 or 0
      end
    end
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
    for tx = 0, 3 do
      for tz = 0, 3 do
        local holes = {}
        for i = 0, 3 do
          for j = 0, 3 do if hole(tx, tz, i, j) then holes[i .. "," .. j] = true end end
        end
        local h = t:call("tile.create", Q.grid(tx, tz, 0, 0, 4, holes, { area = area(tx, tz) })).handle
        t:call("mesh.add_tile", { mesh = m, tile = h })
      end
    end
    local cheap = { costs = {} }
    for a = 1, 64 do cheap.costs[a] = 1 end
    cheap.costs[1] = 0.25 -- area 0
    cheap.costs[2] = 3    -- area 1
    local pairs_ = {
      { { 0.5, 0, 0.5 }, { 15.5, 0, 15.5 } },
      { { 2.25, 0, 12.75 }, { 12.5, 0, 2.5 } },
      { { 15.5, 0, 0.5 }, { 10.5, 0, 14.5 } },
      { { 6.5, 0, 1.5 }, { 8.5, 0, 1.5 } },
    }
    local full = {}
    for pi, p in ipairs(pairs_) do
      for fi, filter in ipairs({ false, cheap }) do
        local b = t:table()
        local args = { mesh = m, start = p[1], ["end"] = p[2], filter = filter or nil }
        local r = t:call("query.find_path", args)
        Q.put_path(b, r)
        full[#full + 1] = r
        t:check(r.status == "found", "pair " .. pi .. " filter " .. fi .. ": found with the default caps")
        local need = r.nodes
        -- every node cap up to the nodes needed, and one more
        for cap = 1, need + 1 do
          args.max_nodes = cap
          local c = t:call("query.find_path", args)
          Q.put_path(b, c)
          if cap >= need then
            t:check(Q.same_path(c, r), "pair " .. pi .. " filter " .. fi .. ": cap " .. cap .. " as uncapped")
          else
            t:check(c.status == "no_path" and c.reason == "node_limit" and c.nodes == cap,
                    "pair " .. pi .. " filter " .. fi .. ": cap " .. cap .. " is node_limit")
          end
        end
        args.max_nodes = nil
        -- every path cap up to the path's length, and one more
        for cap = 1, #r.path + 1 do
          args.max_path = cap
          local c = t:call("query.find_path", args)
          Q.put_path(b, c)
          if cap >= #r.path then
            t:check(Q.same_path(c, r), "pair " .. pi .. " filter " .. fi .. ": max_path " .. cap)
          else
            t:check(c.status == "no_path" and c.reason == "path_limit" and #c.partial == cap,
                    "pair " .. pi .. " filter " .. fi .. ": max_path " .. cap .. " is path_limit")
          end
        end
        t:checkpoint(string.format("pair %d filter %d", pi, fi), "table", b:hex())
      end
    end
    -- the cheap areas change the route of some pair (the costs count, QRY-032, QRY-065)
    local differ = false
    for k = 1, #full, 2 do
      if not Q.same_path(full[k], full[k + 1]) then differ = true end
    end
    t:check(differ, "the cheap areas change a route")
  end,
}
