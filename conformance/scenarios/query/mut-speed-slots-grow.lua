-- query/mut-speed-slots-grow: as query/mut-speed-slots, two tiles whose slots are 256 apart
-- share a per-call tile entry of the query object (ref/query/nearest_index.h), but the second
-- tile read has more polygons than the first: A (0, 0) is one row of 4 unit squares, B (1, 0)
-- the full 4 x 4 grid of 16, added 256 slots after A (MESH-012). One find path reads A, then
-- B through the same entry, and the straight path of its polygons. Expected: the answers are
-- those of the same query on a mesh of A and B alone (no shared entry), since no answer
-- depends on slots (QRY-002): found, from A's polygon 0 to B's polygon 15 (cell (3, 3)).
local Q = require("query")

return {
  title = "Query tile entries: a shared entry refilled by a tile with more polygons",
  clauses = { "QRY-002", "QRY-022", "QRY-068", "QRY-080", "MESH-012" },
  run = function(t)
    local ROW = {}
    for i = 0, 3 do for j = 1, 3 do ROW[i .. "," .. j] = true end end
    local function mesh(fill)
      local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 512 }).handle
      local function add(tx, tz, holes)
        local h = t:call("tile.create", Q.grid(tx, tz, 0, 0, 4, holes)).handle
        t:call("mesh.add_tile", { mesh = m, tile = h })
      end
      add(0, 0, ROW) -- A
      if fill then for k = 0, 254 do add(10 + k % 16, 10 + k // 16, ROW) end end
      add(1, 0, {}) -- B: 256 slots after A when fill
      return m
    end
    local S, E = { 0.5, 0, 0.5 }, { 7.5, 0, 3.5 }
    local b = t:table()
    local answers = {}
    for _, fill in ipairs({ true, false }) do
      local m = mesh(fill)
      local f = t:call("query.find_path", { mesh = m, start = S, ["end"] = E })
      local s = t:call("query.straight_path", { mesh = m, start = S, ["end"] = E, path = Q.refs(f.path) })
      answers[#answers + 1] = { f = f, s = s }
    end
    local f, s = answers[1].f, answers[1].s
    Q.put_path(b, f)
    Q.put_corners(b, s.corners)
    local last = f.path[#f.path]
    t:check(f.status == "found" and f.path[1].id[1] == 0 and f.path[1].id[4] == 0 and
            last.id[1] == 1 and last.id[4] == 15, "found: from A's polygon 0 to B's polygon 15")
    t:check(Q.same_path(f, answers[2].f), "the path equals the one on the mesh of A and B alone")
    t:check(Q.same_corners(s.corners, answers[2].s.corners), "so do the corners")
    t:checkpoint("path and corners", "table", b:hex())
  end,
}
