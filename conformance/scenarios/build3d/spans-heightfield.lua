-- conformance/scenarios/build3d/spans-heightfield.lua
-- Heightfield input (BuildHeightfield, SPAN-070 .. SPAN-073) through the span stages
-- (SPAN-113, SPAN-185) by spans.build_columns (SPAN-192): solid columns given directly,
-- every count derived by hand from build3d-spans.md with the Humanoid preset (TileSize 64,
-- Border 5, WalkableClimb 9, WalkableHeight 20, WalkableRadius 2), then each error of the
-- op and of SPAN-072 with its field.

-- The columns argument: w x d columns at origin o, span list per column from fn(x, z)
-- (a list of {ymin, ymax, area}, ascending).
local function columns(o, w, d, fn)
  local cs, sp = { 0 }, {}
  for z = 0, d - 1 do
    for x = 0, w - 1 do
      for _, s in ipairs(fn(x, z)) do sp[#sp + 1] = s end
      cs[#cs + 1] = #sp
    end
  end
  return { origin = o, width = w, depth = d, col_start = cs, spans = sp }
end

local function floor(x, z) return { { 0, 5, 63 } } end

return {
  title = "Span stages on heightfield input: floors, a deck above a floor, two tiles, errors",
  clauses = { "SPAN-070", "SPAN-071", "SPAN-072", "SPAN-073", "SPAN-113", "SPAN-122",
              "SPAN-131", "SPAN-151", "SPAN-155", "SPAN-170", "SPAN-185", "SPAN-192" },
  run = function(t)
    local O = { 0, 0, 0 }
    -- A 10 x 10 floor, solid rows [0, 5] (SPAN-113: tile (0, 0)'s grid starts at global
    -- column -5, so the input is grid columns 5..14). The input's outer ring has an empty
    -- neighbour column: below it the space from -WalkableClimb, a drop of 14 > 9 rows:
    -- a ledge (SPAN-122 step 2), 36 spans. 8 x 8 = 64 open spans; erosion radius 2 keeps
    -- those at chamfer distance >= 4 from the ring: 4 x 4 = 16 walkable.
    local r = t:call("spans.build_columns", { preset = "Humanoid", tile = { 0, 0 },
                                               columns = columns(O, 10, 10, floor) })
    t:check(r.built == true and r.nspans == 64 and r.walkable == 16, "floor: 64 open, 16 walkable")
    t:checkpoint("floor", "table", r.bytes, "chf")

    -- A deck, rows [30, 32], over the 6 x 6 columns 2..7 of the same floor. Under it the
    -- floor's clearance is 30 - 5 = 25 > 20 rows, so the floor keeps its 64 open spans and
    -- 16 walkable (links need 25 >= 20). The deck's ring has a neighbour floor 27 rows
    -- down: a ledge; its 4 x 4 centre gives 16 open spans, all within distance 4 of its
    -- boundary: eroded. 80 open spans, 16 walkable; columns 3..6 hold two open spans.
    local deck = columns(O, 10, 10, function(x, z)
      if x >= 2 and x <= 7 and z >= 2 and z <= 7 then return { { 0, 5, 63 }, { 30, 32, 63 } } end
      return { { 0, 5, 63 } }
    end)
    local dk = t:call("spans.build_columns", { preset = "Humanoid", tile = { 0, 0 }, columns = deck })
    t:check(dk.nspans == 80 and dk.walkable == 16, "deck: 80 open, 16 walkable")
    t:checkpoint("deck", "table", dk.bytes, "chf")

    -- A 70 x 10 floor spans two tiles. Tile (0, 0) holds input columns 0..68 (grid
    -- columns 5..73): column 68 lies on the grid's edge (a ledge, SPAN-122 step 1) and
    -- column 0 next to an empty one: open 67 x 8 = 536, walkable 63 x 4 = 252. Tile (1, 0)
    -- (grid from global 59) holds columns 59..69: 59 on the edge, 69 next to nothing:
    -- open 9 x 8 = 72, walkable 5 x 4 = 20. Tile (-1, 0) holds columns 0..4: open
    -- 3 x 8 = 24, none walkable. Tile (0, 1) (grid from global row 59) holds no input
    -- column: not built.
    local long = columns(O, 70, 10, floor)
    local want = { { 0, 0, 536, 252 }, { 1, 0, 72, 20 }, { -1, 0, 24, 0 } }
    for _, w in ipairs(want) do
      local a = t:call("spans.build_columns", { preset = "Humanoid", tile = { w[1], w[2] }, columns = long })
      t:check(a.built and a.nspans == w[3] and a.walkable == w[4],
              string.format("long floor tile (%d,%d): %d open, %d walkable", w[1], w[2], w[3], w[4]))
      t:checkpoint(string.format("long-tile-%d-%d", w[1], w[2]), "table", a.bytes, "chf")
    end
    local nb = t:call("spans.build_columns", { preset = "Humanoid", tile = { 0, 1 }, columns = long })
    t:check(nb.built == false and nb.nspans == 0 and nb.bytes == "", "tile (0, 1): not built")

    -- Columns whose spans all have area 0: nothing walkable, not built (SPAN-185).
    local dead = columns(O, 10, 10, function() return { { 0, 5, 0 } } end)
    local d0 = t:call("spans.build_columns", { preset = "Humanoid", tile = { 0, 0 }, columns = dead })
    t:check(d0.built == false, "area 0 everywhere: not built")

    -- The same floor given as a full settings object equal to the preset: the same bytes.
    local hs = t:call("settings.preset", { name = "Humanoid" }).settings
    local s1 = t:call("spans.build_columns", { settings = hs, tile = { 0, 0 },
                                                columns = columns(O, 10, 10, floor) })
    t:check(s1.bytes == r.bytes, "settings object equal to Humanoid: same bytes")

    -- Errors: the op's arguments, then SPAN-072 in its order, fields prefixed columns.
    local one = columns(O, 1, 1, floor)
    local function bad(mut, kind, field)
      local c = columns(O, 1, 1, floor)
      mut(c)
      t:expect_error("spans.build_columns", { preset = "Humanoid", tile = { 0, 0 }, columns = c },
                     { kind = kind, field = field })
    end
    t:expect_error("spans.build_columns", { preset = "Humanoid", tile = { 0, 0 } },
                   { kind = "argument", field = "columns" })
    t:expect_error("spans.build_columns", { preset = "Humanoid", columns = one },
                   { kind = "argument", field = "tile" })
    t:expect_error("spans.build_columns", { tile = { 0, 0 }, columns = one },
                   { kind = "argument", field = "preset" })
    bad(function(c) c.origin = { 0, 0 } end, "argument", "columns.origin")
    bad(function(c) c.width = 1.5 end, "argument", "columns.width")
    bad(function(c) c.col_start = { 0 } end, "argument", "columns.col_start")
    bad(function(c) c.spans[1] = { 0, 5 } end, "argument", "columns.spans[0]")
    bad(function(c) c.spans[1] = { 0, 5, 256 } end, "out_of_range", "columns.spans[0].area")
    bad(function(c) c.origin = { 0, 0, 4194304 } end, "out_of_range", "columns.origin[2]")
    bad(function(c) c.width = 0; c.col_start = { 0 } end, "out_of_range", "columns.width")
    bad(function(c) c.origin = { 2097151.9, 0, 0 } end, "out_of_range", "columns.width")
    bad(function(c) c.col_start = { 1, 1 } end, "argument", "columns.col_start[0]")
    bad(function(c) c.col_start = { 0, 2 } end, "argument", "columns.col_start[1]")
    bad(function(c) c.spans[1] = { -1, 5, 63 } end, "out_of_range", "columns.spans[0].ymin")
    bad(function(c) c.spans[1] = { 5, 5, 63 } end, "out_of_range", "columns.spans[0].ymax")
    bad(function(c) c.spans[1] = { 0, 5, 64 } end, "out_of_range", "columns.spans[0].area")
    -- the span's top, origin.y + ymax * CellHeight, beyond 2^21 (0.1 above it here)
    bad(function(c) c.origin = { 0, 2097151, 0 }; c.spans[1] = { 0, 11, 63 } end, "out_of_range",
        "columns.spans[0].ymax")
    bad(function(c) c.spans = { { 0, 5, 63 }, { 5, 8, 63 } }; c.col_start = { 0, 2 } end,
        "argument", "columns.spans[1].ymin")
    -- tile out of range: gx0 = tx * 64 - 5 below -2^30 (SPAN-102)
    t:expect_error("spans.build_columns", { preset = "Humanoid", tile = { -16777216, 0 }, columns = one },
                   { kind = "out_of_range", field = "tx" })
  end,
}
