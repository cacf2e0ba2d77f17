-- conformance/scenarios/build3d/levels-terrain.lua
-- The rolling terrain of levels.md section 3 at a few seeds and sizes: the canonical
-- triangle bytes (LVL-010) are checkpointed; the counts (N+1)^2 and 2 N^2 are checked.

local CASES = { { "0000000000000000", 1 }, { "0000000000000001", 8 }, { "00000000c0ffee00", 24 },
                { "ffffffffffffffff", 40 } }

return {
  title = "Level generator: rolling terrain (four SinCos waves from the PRNG)",
  clauses = { "LVL-010", "LVL-020", "LVL-022", "LVL-030", "LVL-031", "LVL-032", "LVL-070" },
  run = function(t)
    for _, c in ipairs(CASES) do
      local seed, n = c[1], c[2]
      local r = t:call("level.generate", { name = "terrain", seed = seed, size = n })
      t:check(r.nverts == (n + 1) * (n + 1), "terrain vertices (N+1)^2")
      t:check(r.ntris == 2 * n * n, "terrain triangles 2 N^2")
      t:check(#r.bytes == 2 * (16 + 24 * r.nverts + 12 * r.ntris), "LVL-010 length")
      t:check(r.bytes:sub(1, 8) == "4f505453", "LVL-010 magic OPTS")
      t:checkpoint("terrain-" .. seed .. "-" .. n, "table", r.bytes, "soup")
    end
    -- the same request twice gives the same bytes
    local a = t:call("level.generate", { name = "terrain", seed = "0000000000000005", size = 6 })
    local b = t:call("level.generate", { name = "terrain", seed = "0000000000000005", size = 6 })
    t:check(a.bytes == b.bytes, "deterministic")
  end,
}
