-- conformance/scenarios/build3d/spans-out-of-memory.lua
-- The out-of-memory paths of one tile build (SPAN-180), reached through the test-only knob
-- fail_alloc (CONF-059): for every k from 1 until the build succeeds, the k-th counted
-- allocation of spans.build_tile fails; the answer is out_of_memory naming the stage's
-- field, the session is unchanged (CONF-014: the same request unarmed gives the same
-- bytes) and the first k past the last allocation gives the ordinary answer.
--
-- Which allocations count and their order are the reference's (CONF-059), so a port that
-- does not list fail_alloc skips this scenario (CONF-055). The reference counts 11 for
-- this floor, in stage order: the triangle selection ("soup"), the heightfield and its
-- column heads ("grid"), the span pool's growth, the two arrays of the rasterizer's
-- backup and the five arrays of the compaction ("hf"), the erosion's distances ("chf").
-- A change of the reference's allocations changes this list (like a golden, it is the
-- reference's answer; rederive it from the error answers of the sweep).

local soup = require("soups3d").soup -- LVL-010 bytes of a soup

local FIELDS = { "soup", "grid", "grid", "hf", "hf", "hf", "hf", "hf", "hf", "hf", "chf" }

return {
  title = "Span tile build: every counted allocation fails in turn (fail_alloc)",
  clauses = { "CONF-059", "CONF-014", "CONF-010", "SPAN-180" },
  run = function(t)
    local floor = soup(t, { { 0, 0, 0 }, { 0, 0, 3 }, { 3, 0, 3 }, { 3, 0, 0 } },
                       { { 0, 1, 2 }, { 0, 2, 3 } })
    local args = { preset = "Humanoid", soup = floor, tile = { 0, 0 } }
    local ref = t:call("spans.build_tile", args)
    t:check(ref.built == true and ref.nspans == 64 and ref.walkable == 16, "the floor's tile")
    t:checkpoint("floor", "table", ref.bytes, "chf")
    for k = 1, #FIELDS + 1 do
      t:call("fail_alloc", { after = k })
      if k <= #FIELDS then
        t:expect_error("spans.build_tile", args, { kind = "out_of_memory", field = FIELDS[k], value = "" })
        local again = t:call("spans.build_tile", args) -- unarmed: CONF-014, nothing changed
        t:check(again.bytes == ref.bytes, "after failing allocation " .. k .. " the same tile")
      else
        local ok = t:call("spans.build_tile", args) -- fewer than k allocations: ordinary
        t:check(ok.bytes == ref.bytes, "past the last allocation: the ordinary answer")
      end
    end
    -- the knob's own arguments (CONF-059) and its one-request reach: after 0 arms nothing
    t:call("fail_alloc", { after = 0 })
    t:check(t:call("spans.build_tile", args).bytes == ref.bytes, "after 0: nothing fails")
    t:call("fail_alloc", { after = 1 })
    t:call("hello", {}) -- the armed request: hello counts no allocation
    t:check(t:call("spans.build_tile", args).bytes == ref.bytes, "the arming lasts one request")
    t:expect_error("fail_alloc", {}, { kind = "argument", field = "after", value = "" })
    t:expect_error("fail_alloc", { after = 1.5 }, { kind = "argument", field = "after", value = "" })
    t:expect_error("fail_alloc", { after = -1 }, { kind = "out_of_range", field = "after", value = "-1" })
    t:expect_error("fail_alloc", { after = 4294967296 },
                   { kind = "out_of_range", field = "after", value = "4294967296" })
    t:call("fail_alloc", { after = 4294967295 }) -- the greatest k: never reached here
    t:check(t:call("spans.build_tile", args).bytes == ref.bytes, "after 2^32 - 1: nothing fails")
  end,
}
