-- conformance/scenarios/build3d/tilecache-generation-wrap.lua
-- The generation's wrap (MESH-011, MESH-014) on the tile cache's commit path (RT-061: the
-- cache's mesh changes only through its all-or-nothing batch), as format/mut-generation-wrap
-- checks it on RemoveTile. A cache of 2 x 2 tiles (solid columns, 11 x 11 cells, 6 cells a
-- tile) is restored from its own snapshot with the generation of tile (0, 0)'s record
-- (slot 0; SNAP-010, bytes 100..103 of a snapshot with no empty-slot records) set to
-- 2^22 - 1 or 2^22 - 2. A box obstacle then covers every cell of tile (0, 0), so Update
-- removes that tile (its layer makes no polygon):
--   * from 2^22 - 1 the slot wraps to generation 1, which is no state at all (SNAP-001):
--     the cache's snapshot has no empty-slot record, and once the obstacle is removed again
--     Update adds the tile back into the lowest free slot, 0 (MESH-012), at generation 1:
--     the mesh is the first build's, byte for byte;
--   * from 2^22 - 2 the empty slot has generation 2^22 - 1, which the snapshot records
--     (SNAP-011), and the tile comes back at that generation.
-- A port whose batch path does not wrap, or records an empty slot of generation 1, fails
-- here. (The issue-13 survivor mesh_batch.c:90, the wrap test `gen == 1` written
-- `gen == 0`, passes: a wrapped slot left stored, empty, at generation 1 is the state an
-- unstored slot implies, so it is argued equivalent in tests/mutation/equivalent.tsv, as
-- its twin in mesh.c is.) Checkpoints: the snapshot after each removal, the mesh after
-- each re-add.
local function unhex(h) return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end)) end
local function tohex(b) return (b:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
local GEN_MAX = (1 << 22) - 1

local columns = require("tilecache").walled_columns

local function ref(gen, slot, poly) return string.format("%016x", (gen << 42) | (slot << 20) | poly) end

return {
  title = "Tile cache: a slot's generation wraps to 1 when Update removes its tile (MESH-011)",
  clauses = { "MESH-011", "MESH-012", "MESH-014", "RT-061", "SNAP-001", "SNAP-010", "SNAP-011", "RT-133" },
  run = function(t)
    local s = require("tilecache").unit_settings(t, 6)
    local COLS = columns(11, 11)
    local first = t:call("tilecache.heightfield", { settings = s, columns = COLS })
    local first_mesh = t:call("mesh.save", { mesh = first.cache + 1 }).bytes
    local S = unhex(t:call("tilecache.snapshot_save", { cache = first.cache }).bytes)
    t:check(S:sub(73, 76) == "SLOT", "the first section is SLOT")
    local nfree, ntiles, slot0, gen0 = string.unpack("<I4I4I4I4", S, 89)
    t:check(nfree == 0 and ntiles == 4 and slot0 == 0 and gen0 == 1,
            "no empty-slot record, 4 tiles, the first at slot 0, generation 1")
    local p00 = t:call("mesh.poly_ref", { mesh = first.cache + 1, x = 0, z = 0, layer = 0, poly = 0 })
    t:check(p00.ref == ref(1, 0, 0), "tile (0, 0) is slot 0")
    local COVER = { shape = "box", bmin = { -1, 0, -1 }, bmax = { 6, 30, 6 } }

    for _, case in ipairs({ { name = "wrap", gen = GEN_MAX, after = 1 },
                            { name = "last", gen = GEN_MAX - 1, after = GEN_MAX } }) do
      local c = t:call("tilecache.heightfield", { settings = s, columns = COLS }).cache
      local m = c + 1
      local patched = S:sub(1, 100) .. string.pack("<I4", case.gen) .. S:sub(105)
      t:call("tilecache.snapshot_load", { cache = c, bytes = tohex(patched) })
      local r = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 0 })
      t:check(r.ref == ref(case.gen, 0, 0), case.name .. ": the reference carries the generation")
      local o = t:call("tilecache.add_obstacle", { cache = c, obstacle = COVER }).id
      t:call("tilecache.update", { cache = c })
      t:expect_error("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 0 },
                     { kind = "argument", field = "tile", value = "0,0,0" })
      local A = unhex(t:call("tilecache.snapshot_save", { cache = c }).bytes)
      local nf, a1, a2 = string.unpack("<I4I4I4", A, 89)
      if case.after == 1 then
        t:check(nf == 0, "wrap: the slot of generation 1 is not recorded (SNAP-001): " .. nf)
      else
        t:check(nf == 1 and a1 == 0 and a2 == GEN_MAX, "last: the empty slot 0 of generation 2^22 - 1 is recorded")
      end
      t:checkpoint(case.name .. "-removed", "snapshot", tohex(A))
      t:call("tilecache.remove_obstacle", { cache = c, id = o })
      t:call("tilecache.update", { cache = c })
      local b = t:call("mesh.poly_ref", { mesh = m, x = 0, z = 0, layer = 0, poly = 0 })
      t:check(b.ref == ref(case.after, 0, 0), case.name .. ": the tile is back in slot 0 at generation " .. case.after)
      local mb = t:call("mesh.save", { mesh = m }).bytes
      if case.after == 1 then t:check(mb == first_mesh, "wrap: the mesh is the first build's") end
      t:checkpoint(case.name .. "-back", "mesh", mb)
      t:call("drop", { handle = c })
    end
  end,
}
