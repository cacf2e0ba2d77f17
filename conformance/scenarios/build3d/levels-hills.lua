-- conformance/scenarios/build3d/levels-hills.lua
-- The steep rolling terrain of levels.md LVL-035 at a few seeds and sizes: the canonical
-- triangle bytes (LVL-010) are checkpointed; the counts (N+1)^2 and 2 N^2 are checked, and
-- the same seed gives other heights than `terrain` (other wave ranges, same draws).

local CASES = { { "0000000000000000", 1 }, { "0000000000000001", 8 }, { "00000000c0ffee00", 24 },
                { "ffffffffffffffff", 40 } }

return {
  title = "Level generator: steep rolling terrain (hills: terrain's waves, larger and shorter)",
  clauses = { "LVL-010", "LVL-020", "LVL-022", "LVL-030", "LVL-031", "LVL-032", "LVL-035",
              "LVL-070" },
  run = function(t)
    for _, c in ipairs(CASES) do
      local seed, n = c[1], c[2]
      local r = t:call("level.generate", { name = "hills", seed = seed, size = n })
      t:check(r.nverts == (n + 1) * (n + 1), "hills vertices (N+1)^2")
      t:check(r.ntris == 2 * n * n, "hills triangles 2 N^2")
      t:check(#r.bytes == 2 * (16 + 24 * r.nverts + 12 * r.ntris), "LVL-010 length")
      t:check(r.bytes:sub(1, 8) == "4f505453", "LVL-010 magic OPTS")
      local tr = t:call("level.generate", { name = "terrain", seed = seed, size = n })
      t:check(#tr.bytes == #r.bytes and tr.bytes ~= r.bytes, "LVL-035: other heights than terrain")
      t:checkpoint("hills-" .. seed .. "-" .. n, "table", r.bytes)
    end
    t:expect_error("level.generate", { name = "hills", seed = "0000000000000001", size = 257 },
                   { kind = "out_of_range", field = "size" })
  end,
}
