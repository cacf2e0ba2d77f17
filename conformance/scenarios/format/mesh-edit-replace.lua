-- Run-time edits, ReplaceTile, RemoveTile, generations and stale references.
local fx = require("meshfix")
local TILING = fx.TILING

local function strips(x, z, layer, origin_y, cuts, flags)
  return fx.strips(x, z, layer, origin_y, cuts, flags or 1)
end

local ref = fx.ref

return {
  title = "Edits kept while a tile stays, dropped on replace; generations grow; stale references fail",
  clauses = { "MESH-011", "MESH-012", "MESH-014", "MESH-015", "MESH-016", "MESH-024", "MESH-030",
              "MESH-031", "MESH-042", "MESH-050" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    local function tile(d) return t:call("tile.create", d).handle end
    local a = t:call("mesh.add_tile", { mesh = m, tile = tile(strips(0, 0, 0, 0, { 0, 1, 4 })) }).ref
    local b = t:call("mesh.add_tile", { mesh = m, tile = tile(strips(1, 0, 0, 0, { 0, 4 })) }).ref
    t:check(a == ref(1, 0, 0) and b == ref(1, 1, 0), "slots 0 and 1")
    t:call("mesh.set_poly_flags", { mesh = m, ref = ref(1, 0, 1), flags = 0xBEEF })
    t:call("mesh.set_poly_area", { mesh = m, ref = ref(1, 0, 0), area = 63 })
    local p = t:call("mesh.get_poly", { mesh = m, ref = ref(1, 0, 1) })
    t:check(p.flags == 0xBEEF and p.area == 0, "flags edited")
    t:checkpoint("edited", "mesh", t:call("mesh.save", { mesh = m }).bytes)

    -- B goes away and comes back: A keeps its references and edits; B's slot 1 is at
    -- generation 2 now
    t:call("mesh.remove_tile", { mesh = m, x = 1, z = 0, layer = 0 })
    t:checkpoint("b-removed", "mesh", t:call("mesh.save", { mesh = m }).bytes)
    t:expect_error("mesh.get_poly", { mesh = m, ref = b },
                   { kind = "argument", field = "ref", value = b })
    local b2 = t:call("mesh.add_tile", { mesh = m, tile = tile(strips(1, 0, 0, 0, { 0, 4 })) }).ref
    t:check(b2 == ref(2, 1, 0), "B back in slot 1 at generation 2")
    p = t:call("mesh.get_poly", { mesh = m, ref = ref(1, 0, 1) })
    t:check(p.flags == 0xBEEF, "A kept its edit")
    t:checkpoint("b-back", "mesh", t:call("mesh.save", { mesh = m }).bytes)

    -- replace A: slot 0 at generation 2; edits dropped; the old references are stale
    local a2 = t:call("mesh.replace_tile", { mesh = m, tile = tile(strips(0, 0, 0, 0.25, { 0, 2, 4 }, 5)) }).ref
    t:check(a2 == ref(2, 0, 0), "A replaced in slot 0, generation 2")
    t:expect_error("mesh.set_poly_flags", { mesh = m, ref = ref(1, 0, 1), flags = 1 },
                   { kind = "argument", field = "ref", value = ref(1, 0, 1) })
    p = t:call("mesh.get_poly", { mesh = m, ref = ref(2, 0, 1) })
    t:check(p.flags == 5 and p.area == 0, "the new tile's own flags")
    t:checkpoint("a-replaced", "mesh", t:call("mesh.save", { mesh = m }).bytes)

    -- an edit set back to the tile's own value is no edit: same bytes as before the edit
    local before = t:call("mesh.save", { mesh = m }).bytes
    t:call("mesh.set_poly_flags", { mesh = m, ref = a2, flags = 9 })
    t:call("mesh.set_poly_flags", { mesh = m, ref = a2, flags = 5 })
    t:check(t:call("mesh.save", { mesh = m }).bytes == before, "edit undone is no edit")
  end,
}
