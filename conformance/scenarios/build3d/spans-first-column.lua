-- conformance/scenarios/build3d/spans-first-column.lua
-- Cells touched by one triangle at the edge of a tile's grid (SPAN-102, SPAN-181, SPAN-064)
-- and a volume whose top is exactly a floor's height (SPAN-162), and a built tile whose grid
-- starts 2^30 - 259 cells from the origin (SPAN-100, SPAN-102).
--
-- With the Humanoid preset (cell 0.3, 64 cells a tile, border 5) tile tx has the grid
-- columns 64 tx - 5 .. 64 tx + 68; for tile (1, 0) the first is column 59, x in
-- [17.7, 18.0] (the soup's origin is x = 0). A small walkable triangle inside that column
-- (x in [17.75, 17.95]) is all tile (1, 0) holds: built from the chunked mesh (chunk size
-- 1, the triangle alone in its chunk, whose box lies left of the grid's second line) it
-- must give the soup build's bytes. The same on z for tile (0, 1).
-- Volumes (SPAN-162): the floor's open spans have their floor at y = 0.1 (the soup's lowest
-- y, 0, plus one cell height 0.1: the top of the solid span); a volume reaching exactly up
-- to 0.1 marks them (fy <= ymax), one up to 0.0999 not; likewise from exactly 0.1 upwards.

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

return {
  title = "Spans: a triangle in a grid's first column or row, volume bounds at a floor, a far tile",
  clauses = { "SPAN-064", "SPAN-100", "SPAN-102", "SPAN-162", "SPAN-181", "SPAN-190" },
  run = function(t)
    local s = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 },
                        { 17.75, 0, 1 }, { 17.75, 0, 2 }, { 17.95, 0, 1.5 },
                        { 1, 0, 17.75 }, { 2, 0, 17.75 }, { 1.5, 0, 17.95 } },
                   { { 0, 1, 2 }, { 0, 2, 3 }, { 4, 5, 6 }, { 7, 9, 8 } })
    for _, tile in ipairs({ { 1, 0 }, { 0, 1 } }) do
      local name = "tile " .. tile[1] .. "," .. tile[2]
      local plain = t:call("spans.build_tile", { preset = "Humanoid", soup = s, tile = tile })
      t:check(plain.built == true, name .. ": built from the edge triangle (its one span a ledge)")
      t:checkpoint(name, "table", plain.bytes, "chf")
      local ch = t:call("spans.build_tile", { preset = "Humanoid", soup = s, tile = tile, chunk_size = 1 })
      t:check(ch.built == true and ch.bytes == plain.bytes, name .. ": the chunked build gives the same bytes")
    end
    local floor = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 } },
                       { { 0, 1, 2 }, { 0, 2, 3 } })
    local box = { { -1, -1 }, { 4, -1 }, { 4, 4 }, { -1, 4 } }
    local function walkable(ymin, ymax)
      return t:call("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 },
        volumes = { { points = box, ymin = ymin, ymax = ymax, area = 0 } } })
    end
    local top = walkable(-1, 0.1)
    t:check(top.walkable == 0, "a volume topping at the floors' height 0.1 marks every span")
    t:checkpoint("volume-top-at-floor", "table", top.bytes, "chf")
    t:check(walkable(-1, 0.0999).walkable == 16, "a volume topping just below the floors marks none")
    t:check(walkable(0.1, 5).walkable == 0, "a volume starting at the floors' height marks every span")
    t:check(walkable(0.1001, 5).walkable == 16, "a volume starting just above the floors marks none")

    -- A built tile far from the origin (SPAN-100, SPAN-102): the soup spans 2^22 in x and z
    -- at cell 2^-8, 2^30 cells; its far triangle lies in tile (16777212, 16777212), whose
    -- grid starts at gx0 = gz0 = 16777212 * 64 - 3 = 2^30 - 259 (Border 3 for radius 0):
    -- inside [-2^30, 2^30], so the heightfield's grid is accepted and the tile built.
    local M, a = 2097152, 2097151
    local corners = soup(t, { { -M, 0, -M }, { -M, 0, -M + 0.1 }, { -M + 0.1, 0, -M + 0.1 },
                              { a, 0, a }, { a, 0, a + 0.1 }, { a + 0.1, 0, a + 0.1 } },
                         { { 0, 1, 2 }, { 3, 4, 5 } })
    local fine = t:call("settings.preset", { name = "Humanoid" }).settings
    fine.cell_size = 1 / 256; fine.agent_radius = 0; fine.tile_cells = 64
    local near = t:call("spans.build_tile", { settings = fine, soup = corners, tile = { 0, 0 } })
    local farc = t:call("spans.build_tile", { settings = fine, soup = corners, tile = { 16777212, 16777212 } })
    t:check(near.built == true and farc.built == true, "both corners' tiles are built")
    t:checkpoint("far-corner", "table", farc.bytes, "chf")
  end,
}
