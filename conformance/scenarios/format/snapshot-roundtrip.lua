-- A snapshot restores tiles, slots, generations and edits: same references, same mesh bytes.
local fx = require("meshfix")
local TILING = fx.TILING

local strips = fx.strips

local ref = fx.ref

return {
  title = "Snapshot round trip: restore gives the same mesh bytes, references and next slot",
  clauses = { "SNAP-001", "SNAP-002", "SNAP-005", "SNAP-007", "SNAP-008", "SNAP-009", "SNAP-010",
              "SNAP-011", "MESH-011", "MESH-012", "MESH-050" },
  run = function(t)
    local P = { tiling = TILING, walkable_climb = 0.5, max_tiles = 8 }
    local m = t:call("mesh.create", P).handle
    local function add(mesh, d)
      return t:call("mesh.add_tile", { mesh = mesh, tile = t:call("tile.create", d).handle }).ref
    end
    -- empty mesh: header 72 + section header 16 + nfree 4 + ntiles 4 = 96 bytes (SNAP-002, SNAP-010)
    local empty = t:call("mesh.snapshot_save", { mesh = m }).bytes
    t:check(#empty == 2 * 96, "an empty mesh's snapshot is 96 bytes")
    t:check(empty:sub(1, 16) == "4f50534e01000000", "magic OPSN, version 1")
    t:check(empty:sub(2 * 72 + 1, 2 * 72 + 8) == "534c4f54", "section tag SLOT")
    t:checkpoint("empty", "snapshot", empty)

    add(m, strips(0, 0, 0, 0, { 0, 1, 4 }))         -- slot 0
    add(m, strips(4, 4, 0, 0, { 0, 4 }))            -- slot 1, removed below
    add(m, strips(1, 0, 0, 0.25, { 0, 2.5, 4 }))    -- slot 2
    add(m, strips(0, 1, 1, 0, { 0, 4 }))            -- slot 3, replaced below
    t:call("mesh.remove_tile", { mesh = m, x = 4, z = 4, layer = 0 })
    local r3 = t:call("mesh.replace_tile", { mesh = m, tile = t:call("tile.create", strips(0, 1, 1, 0.125, { 0, 3, 4 })).handle }).ref
    t:check(r3 == ref(2, 3, 0), "slot 3 at generation 2")
    t:call("mesh.set_poly_flags", { mesh = m, ref = ref(1, 0, 1), flags = 0x1234 })
    t:call("mesh.set_poly_area", { mesh = m, ref = ref(2, 3, 1), area = 17 })

    local snap = t:call("mesh.snapshot_save", { mesh = m }).bytes
    local saved = t:call("mesh.save", { mesh = m }).bytes
    t:checkpoint("busy", "snapshot", snap)
    t:checkpoint("busy", "mesh", saved)

    -- restore into a mesh that holds something else
    local n = t:call("mesh.create", P).handle
    add(n, strips(7, 7, 0, 0, { 0, 4 }))
    t:call("mesh.snapshot_load", { mesh = n, bytes = snap })
    t:check(t:call("mesh.save", { mesh = n }).bytes == saved, "restored mesh has the same bytes")
    t:check(t:call("mesh.snapshot_save", { mesh = n }).bytes == snap, "and the same snapshot")
    local p = t:call("mesh.get_poly", { mesh = n, ref = ref(1, 0, 1) })
    t:check(p.flags == 0x1234, "edit restored")
    p = t:call("mesh.get_poly", { mesh = n, ref = ref(2, 3, 1) })
    t:check(p.area == 17, "edit restored on the replaced tile")
    t:expect_error("mesh.get_poly", { mesh = n, ref = ref(1, 3, 0) },
                   { kind = "argument", field = "ref", value = ref(1, 3, 0) })
    -- the next tile goes to slot 1 at generation 2 in both
    local a1 = add(m, strips(5, 5, 0, 0, { 0, 4 }))
    local a2 = add(n, strips(5, 5, 0, 0, { 0, 4 }))
    t:check(a1 == ref(2, 1, 0) and a2 == a1, "same next reference")
    t:checkpoint("after-add", "mesh", t:call("mesh.save", { mesh = n }).bytes)
  end,
}
