-- conformance/scenarios/build3d/spans-build-many.lua
-- SPAN-171's built-tile count is a u32: a soup build with exactly 2^15 = 32768 built tiles
-- (the first count that needs bit 15, i.e. more than a u16 holding signed values or a
-- count written in fewer bytes shows). Derived by hand: tile_cells 1, agent_radius 0
-- (Border 3, a 7 x 7 grid per tile, SPAN-022), cs 0.3; a floor over x in [0, 128 * 0.3],
-- z in [0, 256 * 0.3]: ntx = 128 (X(n) = fl(n * 0.3) reaches maxx = 128 * 0.3 first at
-- n = 128, SPAN-183), ntz = 256, and every tile's box meets the walkable floor: 32768 built.
-- Cost: about 0.7 s in-process and 2.3 s through the protocol on the kit's machine (10 MB of
-- tile bytes); the next bytes of the count (2^16, 2^24 tiles) are not checked: 2^16 tiles
-- double that, 2^24 are far beyond the matrix's budget.

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

return {
  title = "A soup build with 2^15 built tiles: the count's bytes",
  clauses = { "SPAN-171", "SPAN-183", "SPAN-022", "SPAN-182" },
  run = function(t)
    local H = t:call("settings.preset", { name = "Humanoid" }).settings
    H.tile_cells = 1
    H.agent_radius = 0
    local X, Z = 128 * 0.3, 256 * 0.3
    local s = soup(t, { { 0, 0, 0 }, { 0, 0, Z }, { X, 0, Z }, { X, 0, 0 } },
                   { { 0, 1, 2 }, { 0, 2, 3 } })
    local b = t:call("spans.build", { settings = H, soup = s })
    t:check(b.ntx == 128 and b.ntz == 256 and b.built == 32768, "128 x 256 tiles, all built")
    t:check(b.bytes:sub(1, 40) == "4f50535042303031" .. "80000000" .. "00010000" .. "00800000",
            "magic, ntx 128, ntz 256, built 32768 (u32 little-endian)")
    t:checkpoint("built-2^15", "table", b.bytes, "spans")
  end,
}
