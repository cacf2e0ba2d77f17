-- conformance/scenarios/build3d/levels-stairs.lua
-- Stairs and ramps at each preset's climb and slope limits and just beyond (levels.md
-- section 5): triangle bytes checkpointed per preset; counts 32 + 20 n and 64 + 40 n.

return {
  title = "Level generator: stairs, ramps and ceilings at and beyond the preset limits",
  clauses = { "LVL-010", "LVL-021", "LVL-022", "LVL-050", "LVL-070", "SPAN-040", "SPAN-090" },
  run = function(t)
    for _, name in ipairs({ "Humanoid", "Small", "Large" }) do
      local s = t:call("settings.preset", { name = name }).settings
      for _, n in ipairs({ 1, 5 }) do
        local r = t:call("level.generate", { name = "stairs", seed = "0000000000000000", size = n,
                                             settings = s })
        t:check(r.ntris == 32 + 20 * n, "stairs triangles 32 + 20 n")
        t:check(r.nverts == 64 + 40 * n, "stairs vertices 64 + 40 n")
        t:checkpoint("stairs-" .. name .. "-" .. n, "table", r.bytes, "soup")
        -- the seed is not used
        local r2 = t:call("level.generate", { name = "stairs", seed = "00000000000000ff", size = n,
                                              settings = s })
        t:check(r2.bytes == r.bytes, "stairs ignores the seed")
      end
    end
    -- without settings: Humanoid
    local a = t:call("level.generate", { name = "stairs", seed = "0000000000000000", size = 5 })
    local h = t:call("settings.preset", { name = "Humanoid" }).settings
    local b = t:call("level.generate", { name = "stairs", seed = "0000000000000000", size = 5,
                                         settings = h })
    t:check(a.bytes == b.bytes, "absent settings mean Humanoid")
  end,
}
