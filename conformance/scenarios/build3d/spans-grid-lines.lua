-- conformance/scenarios/build3d/spans-grid-lines.lua
-- SPAN-105 to SPAN-107 at one ulp from a grid line: a triangle's least x is the binary64
-- just below the line X(1) between the first two columns of a tile's grid, so its piece in
-- column 0 is a sliver one ulp wide, and that piece is a real piece (SPAN-105: a cell holds
-- the part of the triangle in its closed box, a piece with a vertex off the cell's upper
-- line is kept). The rows and columns a triangle can touch (SPAN-107) must include that
-- column, though the quotient (x - origin) / cs rounds to the column's upper line.
--
-- Values (Humanoid: cs = 0.3, TileSize 64, Border 5; the soup's origin is (0, 0, 0) from a
-- floor at the origin): tile (20, 0) has gx0 = 20 * 64 - 5 = 1275, X(0) = fl(1275 * 0.3) =
-- 382.5, X(1) = fl(1276 * 0.3) = 382.8 (the binary64 382.80000000000001136868...), and
-- a = 382.79999999999995 (the binary64 below it); fl(fl(a / 0.3) - 1275) = 1 exactly.

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

local function nextdown(x) -- the binary64 below a positive x
  local i = string.unpack("<i8", string.pack("<d", x))
  return (string.unpack("<d", string.pack("<i8", i - 1)))
end

return {
  title = "A triangle one ulp over a grid line: its sliver piece is rasterized",
  clauses = { "SPAN-102", "SPAN-105", "SPAN-106", "SPAN-107", "SPAN-108" },
  run = function(t)
    local X1 = 1276 * 0.3
    local a = nextdown(X1)
    t:check(X1 == 382.8 and a == 382.79999999999995 and a / 0.3 - 1275 == 1,
            "the line and its lower neighbour as derived")
    local s = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 },
                        { a, 0, 0 }, { a, 0, 3 }, { a + 3, 0, 3 } },
                   { { 0, 1, 2 }, { 3, 4, 5 } })
    local r = t:call("spans.build_tile", { preset = "Humanoid", soup = s, tile = { 20, 0 } })
    t:check(r.built == true, "tile (20, 0) builds")
    t:checkpoint("sliver-column-0", "table", r.bytes, "chf")
    -- the same triangle with its least x on X(1) itself: the piece of column 0 then lies on
    -- the column's upper line and belongs to column 1 (SPAN-105 step 3): fewer spans
    local s2 = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 },
                         { 382.8, 0, 0 }, { 382.8, 0, 3 }, { 385.8, 0, 3 } },
                    { { 0, 1, 2 }, { 3, 4, 5 } })
    local r2 = t:call("spans.build_tile", { preset = "Humanoid", soup = s2, tile = { 20, 0 } })
    t:check(r2.built == true and r2.nspans < r.nspans, "on the line: no column-0 piece, fewer spans")
    t:checkpoint("on-line-1", "table", r2.bytes, "chf")
  end,
}
