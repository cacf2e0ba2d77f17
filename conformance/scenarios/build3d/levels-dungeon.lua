-- conformance/scenarios/build3d/levels-dungeon.lua
-- The dungeon of levels.md section 6 (rooms, corridors, ceilings, wall pillars):
-- triangle bytes checkpointed; counts 4 F + 10 W triangles and 8 F + 20 W vertices.

local CASES = { { "0000000000000000", 10 }, { "0000000000000007", 24 }, { "00000000deadbeef", 40 },
                { "8000000000000000", 64 } }

return {
  title = "Level generator: dungeon interior of rooms and corridors under a ceiling",
  clauses = { "LVL-010", "LVL-020", "LVL-021", "LVL-022", "LVL-060", "LVL-070" },
  run = function(t)
    for _, c in ipairs(CASES) do
      local seed, g = c[1], c[2]
      local r = t:call("level.generate", { name = "dungeon", seed = seed, size = g })
      -- 4 F + 10 W = ntris and 8 F + 20 W = nverts: vertices are twice the triangles
      t:check(r.nverts == 2 * r.ntris, "dungeon: two vertices per triangle")
      t:check(r.ntris % 2 == 0 and r.ntris > 0, "dungeon: even, non-empty")
      t:checkpoint("dungeon-" .. seed .. "-" .. g, "table", r.bytes, "soup")
    end
  end,
}
