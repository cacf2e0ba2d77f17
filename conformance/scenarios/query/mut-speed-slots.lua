-- query/mut-speed-slots: the query object's per-call tile entries are direct-mapped by slot
-- (256 entries, ref/query/poly.c and nearest_index.h), so two tiles whose slots are 256
-- apart share an entry. Written against the mutation sample of ref/query/ (issue 14, seed
-- 711): a mesh of 257 tiles (max_tiles 512), tile A (0, 0) added first (slot 0) and tile B (1, 0)
-- added after 255 others far away (slot 256), so that A and B share an entry (slots are taken
-- in order, MESH-012), and one call reads both: find path A -> B and the straight path of
-- its polygons (QRY-080: each path polygon resolved, QRY-022). Expected by hand (grid of unit
-- squares, world = local + 4 per tile, one row z in [0, 1]): the path is A's polygons 0 .. 3
-- then B's polygons 0 .. 3 (straight along the row), the straight path the two endpoints
-- only, the end corner in B's polygon 3 at (7.5, 0, 0.5).
local Q = require("query")

local function id(x, z, l, p) return { x, z, l, p } end

return {
  title = "Query tile entries: two tiles whose slots share an entry, read in one call",
  clauses = { "QRY-002", "QRY-022", "QRY-024", "QRY-068", "QRY-080", "QRY-083" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = Q.TILING, walkable_climb = 0.5, max_tiles = 512 }).handle
    local function add(tx, tz)
      local holes = {}
      for i = 0, 3 do for j = 1, 3 do holes[i .. "," .. j] = true end end -- one row: j = 0
      local h = t:call("tile.create", Q.grid(tx, tz, 0, 0, 4, holes)).handle
      t:call("mesh.add_tile", { mesh = m, tile = h })
    end
    add(0, 0) -- A
    for k = 0, 254 do add(10 + k % 16, 10 + k // 16) end -- slots 1 .. 255, none next to A or B
    add(1, 0) -- B, 256 slots after A
    local function same_id(p, want) return p.id[1] == want[1] and p.id[2] == want[2] and
                                          p.id[3] == want[3] and p.id[4] == want[4] end
    local b = t:table()
    local S, E = { 0.5, 0, 0.5 }, { 7.5, 0, 0.5 }
    local f = t:call("query.find_path", { mesh = m, start = S, ["end"] = E })
    Q.put_path(b, f)
    local want = { id(0, 0, 0, 0), id(0, 0, 0, 1), id(0, 0, 0, 2), id(0, 0, 0, 3),
                   id(1, 0, 0, 0), id(1, 0, 0, 1), id(1, 0, 0, 2), id(1, 0, 0, 3) }
    local ok = f.status == "found" and #f.path == #want
    for i = 1, #want do ok = ok and same_id(f.path[i], want[i]) end
    t:check(ok, "the path runs along the row: A's polygons 0 .. 3, then B's 0 .. 3")
    local s = t:call("query.straight_path", { mesh = m, start = S, ["end"] = E, path = Q.refs(f.path) })
    Q.put_corners(b, s.corners)
    t:check(#s.corners == 2 and same_id(s.corners[1].poly, id(0, 0, 0, 0)) and
            same_id(s.corners[2].poly, id(1, 0, 0, 3)) and s.corners[2].point[1] == 7.5 and
            s.corners[2].point[3] == 0.5, "two corners: the start in A's polygon 0, the end in B's polygon 3")
    t:checkpoint("path and corners", "table", b:hex())
  end,
}
