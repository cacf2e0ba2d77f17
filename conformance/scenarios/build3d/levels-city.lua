-- conformance/scenarios/build3d/levels-city.lua
-- The city of levels.md section 4 (streets, buildings of varied height, decks over the
-- streets): triangle bytes checkpointed; counts follow 2 + 10 buildings + 12 decks.

local CASES = { { "0000000000000000", 1 }, { "0000000000000003", 3 }, { "00000000000000aa", 6 },
                { "0123456789abcdef", 10 } }

return {
  title = "Level generator: city blocks with bridges (several walkable layers)",
  clauses = { "LVL-010", "LVL-020", "LVL-021", "LVL-022", "LVL-040", "LVL-070" },
  run = function(t)
    local decks_seen = false
    for _, c in ipairs(CASES) do
      local seed, b = c[1], c[2]
      local r = t:call("level.generate", { name = "city", seed = seed, size = b })
      -- ntris = 2 + 10 B + 12 D and nverts = 4 + 20 B + 24 D, so nverts = 2 ntris exactly
      t:check(r.nverts == 2 * r.ntris, "city: two vertices per triangle")
      local rest = r.ntris - 2
      local fits = false
      for dd = 0, rest // 12 do
        local bb = (rest - 12 * dd) / 10
        if bb == math.floor(bb) and bb <= b * b then fits = true end
      end
      t:check(fits, "city: 10 B + 12 D with at most one building per block")
      -- 12 D breaks the multiple of 10 when D is not a multiple of 5
      if rest % 10 ~= 0 then decks_seen = true end
      t:checkpoint("city-" .. seed .. "-" .. b, "table", r.bytes, "soup")
    end
    t:check(decks_seen, "some city has a deck over a street")
  end,
}
