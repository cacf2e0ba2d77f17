-- conformance/scenarios/math/prng-stream.lua
-- Streams of the spec'd PRNG for a few seeds: next_u64, below (small, large, 1, max n)
-- and unit, each checkpointed as a table; known first values checked.

local SEEDS = { "0000000000000000", "0000000000000001", "0123456789abcdef", "ffffffffffffffff" }
local NS = { "000000000000000a", "8000000000000001", "0000000000000001", "ffffffffffffffff",
             "0000000000000007" }

return {
  title = "PRNG streams: SplitMix64 seeding, xoshiro256** outputs, Below, Unit",
  clauses = { "MATH-040", "MATH-041", "MATH-042", "MATH-043", "MATH-044", "MATH-045",
              "MATH-053", "MATH-054" },
  run = function(t)
    for _, seed in ipairs(SEEDS) do
      local g = t:call("prng.new", { seed = seed }).handle
      local b = t:table()
      local v = t:call("prng.next_u64", { prng = g, count = 64 }).values
      if seed == "0000000000000000" then
        -- MATH-042/043: state from SplitMix64(0), first xoshiro256** output.
        t:check(v[1] == "99ec5f36cb75f2b4", "seed 0: first output 99ec5f36cb75f2b4")
      end
      for _, x in ipairs(v) do b:u64hex(x) end
      for _, n in ipairs(NS) do
        local w = t:call("prng.below", { prng = g, n = n, count = 32 }).values
        local nn = tonumber(n, 16)
        for _, x in ipairs(w) do
          local xi = tonumber(x, 16)
          t:check(math.ult(xi, nn), "below(n) < n")
          b:u64hex(x)
        end
      end
      local u = t:call("prng.unit", { prng = g, count = 64 }).values
      for _, x in ipairs(u) do
        t:check(x >= 0 and x < 1, "unit in [0, 1)")
        b:f64(x)
      end
      -- count 0 consumes nothing: the next output is unaffected.
      t:call("prng.next_u64", { prng = g, count = 0 })
      local tail = t:call("prng.next_u64", { prng = g, count = 4 }).values
      for _, x in ipairs(tail) do b:u64hex(x) end
      t:checkpoint("seed-" .. seed, "table", b:hex())
    end
    -- Two PRNGs from one seed give one stream (MATH-040).
    local g1 = t:call("prng.new", { seed = "00000000deadbeef" }).handle
    local g2 = t:call("prng.new", { seed = "00000000deadbeef" }).handle
    local a = t:call("prng.next_u64", { prng = g1, count = 8 }).values
    local c = t:call("prng.next_u64", { prng = g2, count = 8 }).values
    for i = 1, 8 do t:check(a[i] == c[i], "same seed, same stream") end
  end,
}
