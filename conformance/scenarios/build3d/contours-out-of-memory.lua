-- conformance/scenarios/build3d/contours-out-of-memory.lua
-- The out-of-memory paths of the contour stage (REG-200: out_of_memory `memory`), reached
-- through the test-only knob fail_alloc (CONF-059): for every k from 1 until
-- contours.build_tile succeeds, its k-th counted allocation fails; the answer is
-- out_of_memory `memory`, the request sent again unarmed gives the same bytes (CONF-014), and
-- the first k past the last allocation gives the ordinary answer.
--
-- Which allocations count, and their order, are the reference's (CONF-059): a port that
-- does not list fail_alloc skips this scenario (CONF-055). The reference counts the contour
-- stage's own (the stages before it, run by the same request, count nothing): the edge map,
-- the raw vertex and edge key arrays of the walk (REG-208) and their growth, the loop list,
-- the simplified forms and their two scratch arrays (REG-209 ..), the join's loop copies,
-- hole list, candidates, each joined outline (REG-216 .. REG-219) and the two arrays of the
-- result (REG-220). Counts (rederive them from the sweep's errors when they change): the
-- square floor 13, the floor with a hollow pillar under the monotone partition (a hole
-- joined) 17.

local floor = require("soups3d").floor -- a 6 x 6 floor, optionally with a hollow pillar

local function sweep(t, name, args, n)
  local ref = t:call("contours.build_tile", args)
  t:checkpoint(name, "table", ref.bytes, "contours")
  for k = 1, n + 1 do
    t:call("fail_alloc", { after = k })
    if k <= n then
      t:expect_error("contours.build_tile", args, { kind = "out_of_memory", field = "memory", value = "" })
      t:check(t:call("contours.build_tile", args).bytes == ref.bytes, name .. ": after failing allocation " .. k .. " the same contours")
    else
      t:check(t:call("contours.build_tile", args).bytes == ref.bytes, name .. ": past the last allocation the ordinary answer")
    end
  end
  return ref
end

return {
  title = "Contours of one tile: every counted allocation fails in turn (fail_alloc)",
  clauses = { "CONF-059", "CONF-014", "CONF-010", "REG-200", "REG-208", "REG-216", "REG-219", "REG-223" },
  run = function(t)
    local plain, pillar = floor(t, false), floor(t, true)
    local a = sweep(t, "floor", { preset = "Humanoid", partition = "watershed", soup = plain, tile = { 0, 0 } }, 13)
    t:check(a.nloops == 1 and a.ncontours == 1, "the floor: one loop")
    local b = sweep(t, "pillar", { preset = "Humanoid", partition = "monotone", soup = pillar, tile = { 0, 0 } }, 17)
    t:check(b.nloops >= 2 and b.unjoined == 0, "the pillar: holes joined")
  end,
}
