-- conformance/scenarios/format/mut-generation-wrap.lua
-- The generation's wrap (issue 13): a slot's generation runs 1 .. 2^22 - 1 (MESH-010: 22 bits
-- of a reference) and after the last value the next is 1 again (MESH-011); an empty slot of
-- generation 1 is no state at all (SNAP-001: implied, never written). Reaching the last
-- generation by 2^22 removals is too slow for a scenario, so the scenario restores a snapshot
-- whose one tile record carries generation 2^22 - 1 (SNAP-010: the record's `generation`
-- field, bytes 100..103 of a snapshot with no empty-slot records; SNAP-007), then:
-- RemoveTile (MESH-014) wraps the slot to generation 1: the mesh is then exactly a fresh
-- mesh (same Serialize bytes, MESH-040; same SaveState bytes, SNAP-011); AddTile takes that
-- slot again at generation 1 (MESH-012, MESH-013: the reference names generation 1).
-- A second history stops one short of the wrap: generation 2^22 - 2 removed gives an empty
-- slot of generation 2^22 - 1, which SaveState must write (SNAP-011), and the next AddTile
-- gets that generation. Checkpoints: the restored mesh, the mesh after the wrap, the mesh
-- one short of the wrap after its removal.
local fx = require("meshfix")
local TILING = fx.TILING
local strips = fx.strips
local ref = fx.ref

local GEN_MAX = (1 << 22) - 1

local function u32hex(v)
  return string.format("%02x%02x%02x%02x", v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff,
                       (v >> 24) & 0xff)
end

return {
  title = "Mesh: a slot's generation wraps from 2^22 - 1 to 1, which is the state of a fresh slot",
  clauses = { "MESH-010", "MESH-011", "MESH-012", "MESH-013", "MESH-014", "MESH-040",
              "SNAP-001", "SNAP-007", "SNAP-010", "SNAP-011" },
  run = function(t)
    local P = { tiling = TILING, walkable_climb = 0.5, max_tiles = 8 }
    local function save(h) return t:call("mesh.save", { mesh = h }).bytes end
    local function snap(h) return t:call("mesh.snapshot_save", { mesh = h }).bytes end
    local fresh = t:call("mesh.create", P).handle
    local tile = t:call("tile.create", strips(0, 0, 0, 0, { 0, 2, 4 })).handle

    -- a snapshot of one tile at slot 0, its generation patched (bytes 100..103)
    local m0 = t:call("mesh.create", P).handle
    t:call("mesh.add_tile", { mesh = m0, tile = tile })
    local s = snap(m0)
    t:check(s:sub(177, 184) == u32hex(0) and s:sub(193, 200) == u32hex(0)
            and s:sub(201, 208) == u32hex(1), "nfree 0, slot 0, generation 1 where expected")
    local function with_gen(g) return s:sub(1, 200) .. u32hex(g) .. s:sub(209) end

    for _, case in ipairs({ { name = "wrap", gen = GEN_MAX, after = 1 },
                            { name = "last", gen = GEN_MAX - 1, after = GEN_MAX } }) do
      local m = t:call("mesh.create", P).handle
      t:call("mesh.snapshot_load", { mesh = m, bytes = with_gen(case.gen) })
      t:check(snap(m) == with_gen(case.gen), case.name .. ": the snapshot saves back the same")
      local r = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 1 })
      t:check(r.ref == ref(case.gen, 0, 1), case.name .. ": the reference carries the generation")
      if case.name == "wrap" then t:checkpoint("restored", "mesh", save(m)) end
      t:call("mesh.remove_tile", { mesh = m, x = 0, z = 0, layer = 0 })
      if case.after == 1 then
        t:check(save(m) == save(fresh), "wrap: the mesh is a fresh mesh (Serialize)")
        t:check(snap(m) == snap(fresh), "wrap: the mesh is a fresh mesh (SaveState)")
        t:checkpoint("wrapped", "mesh", save(m))
      else
        t:check(snap(m) ~= snap(fresh), "last: the empty slot of the last generation is state")
        t:checkpoint("last-removed", "mesh", save(m))
      end
      local a = t:call("mesh.add_tile", { mesh = m, tile = tile })
      t:check(a.ref == ref(case.after, 0, 0), case.name .. ": AddTile gets generation " .. case.after)
    end
  end,
}
