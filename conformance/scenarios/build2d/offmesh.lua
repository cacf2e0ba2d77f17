-- build2d/offmesh: off-mesh link definitions given with a 2D build (spec/build2d-tiles.md
-- T2D-090 .. T2D-094, with POLY-234's decoding, POLY-241's checks and POLY-244's slots).
-- Cell 1, tiles of 4 cells (W = 4), no shrink, the unit grid: island A is [0, 4] x [0, 4]
-- (tile (0, 0)), island B [6, 10] x [0, 4] (tiles (1, 0) for x in [6, 8] and (2, 0) for
-- [8, 10]); the gap x in (4, 6) is not walkable. Definitions, expected by hand:
--   0: (3.5, 0, 2) -> (6.5, 0, 2), bidirectional: tile (0, 0), slot 0 there;
--   1: (8, 0, 1) -> (9, 0, 3): on the line x = 8 shared by columns 1 and 2, so tile (2, 0);
--   2: (5, 0, 2) -> (7, 0, 2): in the gap but inside tile (1, 0)'s extent [4, 8): tile (1, 0)
--      (the extent decides, not the polygons);
--   3: (100, 0, 100): in no tile of the build: dropped;
--   4: (2, 5, 2) -> (2, 0, 3): tile (0, 0), slot 1 (definition order), start y 5 kept;
-- so 4 slots stored; the tiles' polygons are those of the build without definitions (that a
-- find path crosses definition 0 is query/offmesh-2d's, CONF-058). Then the checks and
-- their order: settings before definitions, definitions (POLY-241) before the region, the
-- start height bound at the tile (out_of_range offmesh[i].start.y, on the binary32 value), a
-- start on a line whose greater-index tile is not built (dropped), the forms before the
-- values, POLY-244's fW limit reached (a case from the port review), and the same in
-- build2d.tilemap.
local S = { preset = "Large", cell_size = 1, tile_cells = 4, snap_bits = 0, agent_radius = 0 }
local A = { { 0, 0 }, { 4, 0 }, { 4, 4 }, { 0, 4 } }
local B = { { 6, 0 }, { 10, 0 }, { 10, 4 }, { 6, 4 } }

local function link(s, e, over)
  local l = { start = s, ["end"] = e, radius = 0.5, bidirectional = false, area = 0, flags = 1,
              user_id = 0 }
  for k, v in pairs(over or {}) do l[k] = v end
  return l
end

local DEFS = {
  link({ 3.5, 0, 2 }, { 6.5, 0, 2 }, { bidirectional = true, user_id = 10 }),
  link({ 8, 0, 1 }, { 9, 0, 3 }, { user_id = 11 }),
  link({ 5, 0, 2 }, { 7, 0, 2 }, { user_id = 12, area = 3, flags = 6 }),
  link({ 100, 0, 100 }, { 101, 0, 100 }, { user_id = 13 }),
  link({ 2, 5, 2 }, { 2, 0, 3 }, { user_id = 14, radius = 0.25 }),
}

return {
  title = "2D build with off-mesh link definitions: the tile of each start, slots, checks",
  clauses = { "T2D-090", "T2D-091", "T2D-092", "T2D-093", "T2D-094", "POLY-234", "POLY-241",
              "POLY-244" },
  run = function(t)
    local plain = t:call("build2d.outlines", { settings = S, outlines = { A, B } })
    t:check(plain.offmesh == nil, "no offmesh member without the argument (T2D-094)")
    local r = t:call("build2d.outlines", { settings = S, outlines = { A, B }, offmesh = DEFS })
    t:check(r.offmesh == 4, "4 slots stored: definition 3 dropped")
    t:check(#r.tiles == 3 and #plain.tiles == 3, "three tiles either way")
    local want = { ["0,0"] = { 10, 14 }, ["1,0"] = { 12 }, ["2,0"] = { 11 } }
    for i, tl in ipairs(r.tiles) do
      local v = t:call("tile.view", { tile = tl.handle })
      local ids = {}
      for k, o in ipairs(v.offmesh) do ids[k] = o.user_id end
      local key = tl.x .. "," .. tl.z
      t:check(table.concat(ids, ",") == table.concat(want[key], ","),
              "tile " .. key .. ": slots " .. table.concat(want[key], ",") .. " in definition order")
      local pv = t:call("tile.view", { tile = plain.tiles[i].handle })
      t:check(#pv.offmesh == 0 and #pv.polys == #v.polys and #pv.verts == #v.verts,
              "tile " .. key .. ": the polygons of the build without definitions")
      if key == "0,0" then
        local s0, s1 = v.offmesh[1], v.offmesh[2]
        t:check(s0.start[1] == 3.5 and s0.start[3] == 2 and s0["end"][1] == 6.5 and
                s0.bidirectional == true and s1.start[2] == 5 and s1.radius == 0.25,
                "tile (0, 0): tile-local points (x0 = z0 = 0, FloorY 0), radius 0.25")
      end
      if key == "2,0" then
        local s = v.offmesh[1]
        t:check(s.start[1] == 0 and s.start[3] == 1 and s["end"][1] == 1,
                "tile (2, 0): the start on x = 8 is local x 0")
      end
      t:checkpoint("tile " .. key, "tile", t:call("tile.save", { tile = tl.handle }).bytes)
    end

    -- the tile map path: the same islands as cells
    local cells = {}
    for row = 0, 3 do
      for col = 0, 9 do cells[#cells + 1] = (col < 4 or col >= 6) and 1 or 0 end
    end
    local tm = t:call("build2d.tilemap", { settings = S, width = 10, height = 4, cells = cells,
                                           map_origin = { 0, 0 }, map_cell = 1, offmesh = DEFS })
    t:check(tm.offmesh == 4, "tile map: 4 slots")
    for i, tl in ipairs(tm.tiles) do
      t:check(tl.content_id == r.tiles[i].content_id, "tile map: the outlines' tiles, slots included")
    end

    -- checks and their order (T2D-091, T2D-093)
    local function err(args, kind, field, value)
      local a = { settings = S, outlines = { A, B } }
      for k, v in pairs(args) do a[k] = v end
      t:expect_error("build2d.outlines", a, { kind = kind, field = field, value = value })
    end
    err({ offmesh = { link({ 1, 0, 1 }, { 2, 0, 2 }, { radius = 0 }) } }, "out_of_range", "offmesh[0].radius", "0")
    err({ offmesh = { DEFS[1], link({ 1, 0, 1 }, { 2, 0, 2 }, { area = 64 }) } }, "out_of_range", "offmesh[1].area", "64")
    err({ offmesh = { link({ 2097153, 0, 1 }, { 2, 0, 2 }) } }, "out_of_range", "offmesh[0].start.x", "2097153")
    err({ offmesh = { link({ 1, 0, 1 }, { 2, 0, 2 }, { radius = 65537 }) } }, "out_of_range", "offmesh[0].radius", "65537")
    err({ offmesh = 3 }, "argument", "offmesh")
    err({ offmesh = { link({ 1, 0, 1 }, { 2, 0, 2 }, { area = 256 }) } }, "argument", "offmesh[0].area")
    -- the settings first, then the definitions, then the region (a point beyond 2^21)
    local bad = { preset = "Large", cell_size = 1, tile_cells = 0, snap_bits = 0, agent_radius = 0 }
    err({ settings = bad, offmesh = { link({ 1, 0, 1 }, { 2, 0, 2 }, { radius = 0 }) } }, "out_of_range", "TileSize")
    err({ outlines = { { { 0, 0 }, { 3e6, 0 }, { 0, 4 } } }, offmesh = { link({ 1, 0, 1 }, { 2, 0, 2 }, { radius = 0 }) } },
        "out_of_range", "offmesh[0].radius", "0")
    -- the start height bound, 16384 cell sizes from FloorY 0: 16384 passes, 16385 does not
    local hi = t:call("build2d.outlines", { settings = S, outlines = { A }, offmesh = { link({ 1, 16384, 1 }, { 2, 0, 2 }) } })
    t:check(hi.offmesh == 1, "start y 16384: stored")
    err({ offmesh = { DEFS[4], link({ 1, 16385, 1 }, { 2, 0, 2 }) } }, "out_of_range", "offmesh[1].start.y", "16385")
    err({ outlines = { A }, offmesh = { link({ 1, -16385, 1 }, { 2, 0, 2 }) } }, "out_of_range", "offmesh[0].start.y", "-16385")
    -- the bound is tested on the slot's binary32 y: 16384 + 2^-10 rounds to 16384 (a tie, to
    -- even) and is stored
    local hb = t:call("build2d.outlines", { settings = S, outlines = { A },
                                            offmesh = { link({ 1, 16384 + 2 ^ -10, 1 }, { 2, 0, 2 }) } })
    t:check(hb.offmesh == 1, "start y 16384 + 2^-10: binary32 16384, stored")
    -- a start on the line z = 4 lies in row 1, which is not built: dropped, although row 0 is
    local zl = t:call("build2d.outlines", { settings = S, outlines = { A }, offmesh = { link({ 2, 0, 4 }, { 2, 0, 3 }) } })
    t:check(zl.offmesh == 0, "a start on z = 4 (row 1 not built): dropped")
    -- forms before values: a bad offmesh member is named before the settings' value error
    err({ settings = bad, offmesh = { link({ 1, 0, 1 }, { 2, 0, 2 }, { area = 256 }) } }, "argument", "offmesh[0].area")
    -- POLY-244's fW limit reached (from the port review, docs/reviews/2026-12-03-...): cell
    -- 1.6e-05, one cell per tile, origin x -1048576.000016035, so x0 of tile 1 lies below -2^20
    -- and x1 above it; a start one binary64 step below x1 (x1 - 2^-33) rounds, as a local
    -- x, above fW and is set to fW; without the limit NavTile.Create refuses the slot (FMT-010)
    local cs, o = 1.6e-05, -1048576.000016035
    local SC = { preset = "Large", cell_size = cs, tile_cells = 1, snap_bits = nil, agent_radius = 0,
                 origin = { o, 0.0 }, floor_y = 0.0 }
    local u = 2.0 ^ -16
    local x0, x1 = o + cs, o + 2 * cs
    local cap = t:call("build2d.outlines", { settings = SC,
      outlines = { { { -2.0 ^ 20, 0 }, { -2.0 ^ 20 + u, 0 }, { -2.0 ^ 20 + u, u }, { -2.0 ^ 20, u } } },
      offmesh = { link({ x1 - 2 ^ -33, 0, cs / 2 }, { x0, 0, 0 }), link({ x0, 0, cs - 2 ^ -68 }, { 0, 0, 0 }),
                  link({ x1, 0, 0 }, { 0, 0, 0 }) } })
    t:check(cap.offmesh == 2 and #cap.tiles == 1 and cap.tiles[1].x == 1, "fW limit: 2 slots in tile (1, 0), x1 itself dropped")
    t:checkpoint("fW limit", "tile", t:call("tile.save", { tile = cap.tiles[1].handle }).bytes)
  end,
}
