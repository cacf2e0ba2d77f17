-- conformance/scenarios/build3d/spans-build-first.lua
-- SPAN-171's bytes of a soup build whose first tile is not built: the record list starts
-- with tile (1, 0), right after the built count. Derived by hand (Humanoid, TileSize 64,
-- cs 0.3, Border 5): a vertical wall (not walkable, SPAN-104) at x = 0 sets the frame's
-- origin; a floor over x in [25, 28], z in [0, 3]. ntx = 2 (X(64) = 19.2 < 28 <= X(128) =
-- 38.4, SPAN-183), ntz = 1. Tile (0, 0)'s box x in [-1.5, 20.7] holds only the wall: not
-- built (SPAN-182); tile (1, 0)'s box [17.7, 39.9] holds the floor: built.

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

return {
  title = "A soup build whose first built tile is (1, 0): the header and first record",
  clauses = { "SPAN-171", "SPAN-182", "SPAN-183", "SPAN-104" },
  run = function(t)
    local s = soup(t, { { 0, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 },
                        { 25, 0, 0 }, { 25, 0, 3 }, { 28, 0, 3 } },
                   { { 0, 1, 2 }, { 3, 4, 5 } })
    local b = t:call("spans.build", { preset = "Humanoid", soup = s })
    t:check(b.ntx == 2 and b.ntz == 1 and b.built == 1, "2 x 1 tiles, one built")
    local h = b.bytes
    -- hex text: byte k is h:sub(2k + 1, 2k + 2)
    t:check(h:sub(1, 16) == "4f50535042303031", "magic OPSPB001")
    t:check(h:sub(17, 32) == "0200000001000000", "ntx 2, ntz 1")
    t:check(h:sub(33, 40) == "01000000", "one built tile")
    t:check(h:sub(41, 56) == "0100000000000000", "the first record is tile (1, 0)")
    t:checkpoint("first-built-tile-1-0", "table", h, "spans")
  end,
}
