-- conformance/scenarios/format/mesh-out-of-memory.lua
-- The out-of-memory paths of the TiledNavMesh's operations (MESH-001: a failed operation
-- changes nothing; out of memory is out_of_memory `mesh`), reached through the test-only knob
-- fail_alloc (CONF-059): for AddTile (into a fresh slot, next to tiles it links to, and into
-- the slot a removal left stored at generation 2),
-- ReplaceTile, RemoveTile, RestoreState (SNAP-008: field `snapshot`) and Deserialize
-- (MESH-070: no mesh made, no handle used up), for every k from 1 until the request
-- succeeds, the k-th counted allocation fails; the answer is out_of_memory naming the
-- field, the mesh's bytes are unchanged (and so its slots, generations, tiles, edits and
-- links), and the first k past the last allocation gives the ordinary answer. A control mesh
-- with the same history, never armed, has the same bytes after every step.
--
-- Which allocations count, and their order, are the reference's (CONF-059): a port that
-- does not list fail_alloc skips this scenario (CONF-055). The counts below are the
-- reference's (rederive them from the sweep's error answers when its allocations change):
-- the slot array's and the tile order's growth, the tile copy (the tile, its bytes, its six
-- arrays), the polygon state (state, flags, areas, portal edges), the relink's lists, column
-- index and links; a restore's or a load's tiles, slots, states, links and order.
local fx = require("meshfix")
local TILING = fx.TILING
local strips = fx.strips

local function rep(x, n, into)
  into = into or {}
  for _ = 1, n do into[#into + 1] = x end
  return into
end

return {
  title = "Mesh: every counted allocation of AddTile, ReplaceTile, RemoveTile, RestoreState and load fails in turn",
  clauses = { "CONF-059", "CONF-014", "CONF-010", "MESH-001", "MESH-012", "MESH-014", "MESH-015",
              "MESH-024", "MESH-070", "SNAP-008" },
  run = function(t)
    local P = { tiling = TILING, walkable_climb = 0.5, max_tiles = 16 }
    local m = t:call("mesh.create", P).handle
    local m2 = t:call("mesh.create", P).handle -- the control
    local function save(h) return t:call("mesh.save", { mesh = h }).bytes end
    local function tile(desc) return t:call("tile.create", desc).handle end

    -- sweep one request on m: fields[k] for k = 1 .. #fields, then the ordinary answer; then
    -- the same request on the control m2; both meshes' bytes compared
    local function sweep(name, op, args, fields, control)
      local before = save(m)
      local ordinary
      for k = 1, #fields + 1 do
        t:call("fail_alloc", { after = k })
        if k <= #fields then
          if not t:expect_error(op, args, { kind = "out_of_memory", field = fields[k], value = "" }) then
            return nil
          end
          t:check(save(m) == before, name .. ": after failing allocation " .. k .. " the same mesh")
        else
          ordinary = t:call(op, args)
        end
      end
      if control then
        local a2 = {}
        for key, val in pairs(args) do a2[key] = val end
        a2.mesh = m2
        local o2 = t:call(op, a2)
        t:check(o2.ref == ordinary.ref, name .. ": the control's answer")
        t:check(save(m2) == save(m), name .. ": the control's bytes")
      end
      return ordinary
    end

    local A = tile(strips(0, 0, 0, 0, { 0, 4 }))
    local B = tile(strips(1, 0, 0, 0, { 0, 1, 4 }))
    local C = tile(strips(0, 1, 0, 0, { 0, 2.5, 4 }))
    local B2 = tile(strips(1, 0, 0, 0, { 0, 3, 4 }))
    sweep("add-first", "mesh.add_tile", { mesh = m, tile = A }, rep("mesh", 16), true)
    sweep("add-linked", "mesh.add_tile", { mesh = m, tile = B }, rep("mesh", 18), true)
    sweep("add-corner", "mesh.add_tile", { mesh = m, tile = C }, rep("mesh", 18), true)
    t:checkpoint("three-tiles", "mesh", save(m))
    local snap = t:call("mesh.snapshot_save", { mesh = m }).bytes
    local bytes3 = save(m)
    sweep("replace", "mesh.replace_tile", { mesh = m, tile = B2 }, rep("mesh", 18), true)
    t:checkpoint("replaced", "mesh", save(m))
    sweep("remove", "mesh.remove_tile", { mesh = m, x = 0, z = 0, layer = 0 }, rep("mesh", 6), true)
    t:checkpoint("removed", "mesh", save(m))
    -- AddTile into the slot the removal left stored (generation 2, MESH-014): a failed add
    -- leaves that slot empty at its generation, not erased and not occupied
    sweep("add-stored-slot", "mesh.add_tile", { mesh = m, tile = A }, rep("mesh", 19), true)
    t:checkpoint("added-back", "mesh", save(m))
    sweep("restore", "mesh.snapshot_load", { mesh = m, bytes = snap }, rep("snapshot", 45), true)
    t:check(save(m) == bytes3, "the restore gives back the saved mesh (SNAP-008)")

    -- Deserialize: a new mesh or none; the failed loads use up no handle (CONF-014)
    local n = 47
    local h0
    for k = 1, n + 1 do
      t:call("fail_alloc", { after = k })
      if k <= n then
        t:expect_error("mesh.load", { bytes = bytes3 }, { kind = "out_of_memory", field = "mesh", value = "" })
      else
        h0 = t:call("mesh.load", { bytes = bytes3 }).handle
      end
    end
    local next = t:call("tile.create", strips(3, 3, 0, 0, { 0, 4 })).handle
    t:check(next == h0 + 1, "the failed loads used up no handle")
    t:check(save(h0) == bytes3, "the loaded mesh: the saved bytes")
  end,
}
