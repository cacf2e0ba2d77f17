-- conformance/scenarios/build3d/offmesh-out-of-memory.lua
-- The out-of-memory paths of the off-mesh steps of a build (POLY-246: out_of_memory
-- `offmesh`), reached through the test-only knob fail_alloc (CONF-059): for every k from 1
-- until build3d.soup succeeds, its k-th counted allocation fails; the answer is
-- out_of_memory `offmesh`, the session holds what it held (the request sent again unarmed
-- gives the same mesh, CONF-014), and the first k past the last allocation gives the
-- ordinary answer.
--
-- Which allocations count, and their order, are the reference's (CONF-059): a port that
-- does not list fail_alloc skips this scenario (CONF-055). The reference counts, for a build
-- given `offmesh`, the plan's key array and its two lists (POLY-242), then per tile that
-- receives slots, in POLY-223's order, the column's index and layer lists (POLY-243) and the
-- slot list of each layer with slots (POLY-244); on the layer-first path also, for every
-- column that adds tiles, the list of its tiles. Counts (rederive them from the sweep's
-- errors when they change): 3 + 4 x 3 = 15 on the general path (four tiles with slots, each
-- one layer with a slot list), 3 + 9 + 4 x 3 = 24 on the layer-first path (nine columns).

local S = require("soups3d")
local N_GENERAL, N_LAYERS = 15, 24 -- the counts of the header

local W = 32 * 0.15 -- the Small preset's tile side
local function link(x, z, id)
  return { start = { x, 0, z }, ["end"] = { x + 1, 0, z + 1 }, radius = 0.25,
           bidirectional = 1, area = 1, flags = 3, user_id = id }
end

local function sweep(t, name, args, n)
  local ref = t:call("build3d.soup", args)
  local bytes = t:call("mesh.save", { mesh = ref.mesh }).bytes
  t:checkpoint(name, "mesh", bytes)
  for k = 1, n + 1 do
    t:call("fail_alloc", { after = k })
    if k <= n then
      t:expect_error("build3d.soup", args, { kind = "out_of_memory", field = "offmesh", value = "" })
      local again = t:call("build3d.soup", args)
      t:check(t:call("mesh.save", { mesh = again.mesh }).bytes == bytes,
              name .. ": after failing allocation " .. k .. " the same mesh")
    else
      local past = t:call("build3d.soup", args)
      t:check(t:call("mesh.save", { mesh = past.mesh }).bytes == bytes and past.offmesh == ref.offmesh,
              name .. ": past the last allocation the ordinary answer")
    end
  end
  return ref
end

return {
  title = "Off-mesh steps of a build: every counted allocation fails in turn (fail_alloc)",
  clauses = { "CONF-059", "CONF-014", "CONF-010", "POLY-246", "POLY-242", "POLY-243", "POLY-244", "POLY-225" },
  run = function(t)
    local soup = S.soup(t, { { 0, 0, 0 }, { 0, 0, 12 }, { 12, 0, 12 }, { 12, 0, 0 } },
                        { { 0, 1, 2 }, { 0, 2, 3 } })
    -- four tiles receive slots, (1, 0) two of them; one definition is dropped (no column)
    local links = { link(1 * W, 2.0, 1), link(0.5, 0.5, 2), link(1 * W, 1 * W, 3),
                    link(2 * W + 1, 2 * W + 1, 4), link(-1, 2.0, 5), link(1 * W + 1, 2.0, 6) }
    local a = sweep(t, "watershed", { preset = "Small", soup = soup, offmesh = links }, N_GENERAL)
    t:check(a.offmesh == 5, "five slots")
    local b = sweep(t, "layers", { preset = "Small", partition = "layers", detail_sample_distance = 0,
                                   soup = soup, offmesh = links }, N_LAYERS)
    t:check(b.offmesh == 5, "five slots, layer first")
  end,
}
