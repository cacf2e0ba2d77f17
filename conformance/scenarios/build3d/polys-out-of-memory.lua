-- conformance/scenarios/build3d/polys-out-of-memory.lua
-- The out-of-memory paths of the polygon stage (POLY-011: out_of_memory `polys`), reached
-- through the test-only knob fail_alloc (CONF-059): for every k from 1 until
-- polys.build_tile succeeds, its k-th counted allocation fails; the answer is
-- out_of_memory `polys`, the request sent again unarmed gives the same bytes (CONF-014), and
-- the first k past the last allocation gives the ordinary answer.
--
-- Which allocations count, and their order, are the reference's (CONF-059): a port that
-- does not list fail_alloc skips this scenario (CONF-055). The reference counts the polygon
-- stage's own (the stages before it, run by the same request, count nothing): the weld's
-- hash buckets and the working list, triangle and merge arrays (POLY-030 ..), the vertex
-- table's and the polygon list's growth, the renumbering, the six arrays of the mesh
-- (POLY-070 ..) and the two of the neighbour links (POLY-062). Counts (rederive them from
-- the sweep's errors when they change): the square floor 20, the floor with a hollow
-- pillar 20 (its more polygons fit the same first capacities).

local floor = require("soups3d").floor -- a 6 x 6 floor, optionally with a hollow pillar

local function sweep(t, name, args, n)
  local ref = t:call("polys.build_tile", args)
  t:checkpoint(name, "table", ref.bytes, "polys")
  for k = 1, n + 1 do
    t:call("fail_alloc", { after = k })
    if k <= n then
      t:expect_error("polys.build_tile", args, { kind = "out_of_memory", field = "polys", value = "" })
      t:check(t:call("polys.build_tile", args).bytes == ref.bytes, name .. ": after failing allocation " .. k .. " the same polygons")
    else
      t:check(t:call("polys.build_tile", args).bytes == ref.bytes, name .. ": past the last allocation the ordinary answer")
    end
  end
  return ref
end

return {
  title = "Polygons of one tile: every counted allocation fails in turn (fail_alloc)",
  clauses = { "CONF-059", "CONF-014", "CONF-010", "POLY-011", "POLY-020", "POLY-030", "POLY-062", "POLY-091" },
  run = function(t)
    local plain, pillar = floor(t, false), floor(t, true)
    local a = sweep(t, "floor", { preset = "Humanoid", partition = "watershed", soup = plain, tile = { 0, 0 } }, 20)
    t:check(a.built == true and a.npolys >= 1, "the floor: polygons")
    local b = sweep(t, "pillar", { preset = "Humanoid", partition = "monotone", soup = pillar, tile = { 0, 0 } }, 20)
    t:check(b.built == true and b.npolys > a.npolys, "the pillar: more polygons")
  end,
}
