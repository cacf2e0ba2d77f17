-- Deserialize (mesh.load) and OpenSnapshot (mesh.snapshot_open) make a new mesh from bytes
-- alone: round trips of several meshes, then corrupted inputs, each an expected error.
local fx = require("meshfix")
local TILING = fx.TILING
local strips = fx.strips
local ref = fx.ref

-- hex text helpers: replace bytes at byte offset i; read a u32 at byte offset i
local function put(hex, i, bytes) return hex:sub(1, 2 * i) .. bytes .. hex:sub(2 * (i + #bytes / 2) + 1) end
local function u32(hex, i)
  local v = 0
  for k = 3, 0, -1 do v = v * 256 + tonumber(hex:sub(2 * (i + k) + 1, 2 * (i + k) + 2), 16) end
  return v
end
local function le32(v) return string.format("%02x%02x%02x%02x", v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >> 24) & 255) end

return {
  title = "Mesh load and snapshot open: new meshes from bytes, round trips and every corrupted field",
  clauses = { "MESH-067", "MESH-068", "MESH-069", "MESH-070", "MESH-040", "MESH-043", "MESH-050",
              "SNAP-025", "SNAP-026", "SNAP-024" },
  run = function(t)
    local function add(mesh, d)
      return t:call("mesh.add_tile", { mesh = mesh, tile = t:call("tile.create", d).handle }).ref
    end
    local function roundtrip(name, m)
      local saved = t:call("mesh.save", { mesh = m }).bytes
      local h = t:call("mesh.load", { bytes = saved }).handle
      t:check(t:call("mesh.save", { mesh = h }).bytes == saved, name .. ": save(load(b)) == b")
      t:checkpoint(name, "mesh", saved)
      local snap = t:call("mesh.snapshot_save", { mesh = m }).bytes
      local o = t:call("mesh.snapshot_open", { bytes = snap }).handle
      t:check(t:call("mesh.snapshot_save", { mesh = o }).bytes == snap, name .. ": snapshot of open(s) == s")
      t:check(t:call("mesh.save", { mesh = o }).bytes == saved, name .. ": open(s) has the mesh's bytes")
      t:checkpoint(name, "snapshot", snap)
      return saved, snap, h, o
    end

    -- 1. an empty mesh of other parameters
    local e = t:call("mesh.create", { tiling = { origin = { -8, 2.5, 16 }, cell_size = 0.25,
      cell_height = 0.125, tile_cells = 16, max_verts_per_poly = 3 }, walkable_climb = 0, max_tiles = 1 }).handle
    roundtrip("empty", e)

    -- 2. a busy mesh: stitched tiles, a removed slot (generation 2, empty), a replaced tile
    --    (generation 2), edits on two tiles
    local P = { tiling = TILING, walkable_climb = 0.5, max_tiles = 8 }
    local m = t:call("mesh.create", P).handle
    add(m, strips(0, 0, 0, 0, { 0, 1, 4 }))         -- slot 0
    add(m, strips(4, 4, 0, 0, { 0, 4 }))            -- slot 1, removed below
    add(m, strips(1, 0, 0, 0.25, { 0, 2.5, 4 }))    -- slot 2
    add(m, strips(0, 1, 1, 0, { 0, 4 }))            -- slot 3, replaced below
    add(m, strips(0, 1, 0, 0, { 0, 2, 4 }))         -- slot 4, a second layer at (0, 1)
    t:call("mesh.remove_tile", { mesh = m, x = 4, z = 4, layer = 0 })
    t:call("mesh.replace_tile", { mesh = m, tile = t:call("tile.create", strips(0, 1, 1, 0.125, { 0, 3, 4 })).handle })
    t:call("mesh.set_poly_flags", { mesh = m, ref = ref(1, 0, 1), flags = 0x1234 })
    t:call("mesh.set_poly_area", { mesh = m, ref = ref(2, 3, 1), area = 17 })
    local saved, snap, h, o = roundtrip("busy", m)
    t:check(t:call("mesh.get_poly", { mesh = h, ref = ref(1, 0, 1) }).flags == 0x1234, "edit loaded")
    t:check(t:call("mesh.get_poly", { mesh = h, ref = ref(2, 3, 1) }).area == 17, "edit on the replaced tile")
    t:expect_error("mesh.get_poly", { mesh = h, ref = ref(1, 3, 0) },
                   { kind = "argument", field = "ref", value = ref(1, 3, 0) })
    -- MESH-070: the bytes hold no empty slot, so slot 1 comes back at generation 1; the
    -- snapshot (SNAP-026) keeps its generation 2
    local a1 = add(h, strips(5, 5, 0, 0, { 0, 4 }))
    local a2 = add(o, strips(5, 5, 0, 0, { 0, 4 }))
    t:check(a1 == ref(1, 1, 0), "loaded mesh: slot 1 at generation 1")
    t:check(a2 == ref(2, 1, 0), "opened snapshot: slot 1 at generation 2")
    t:checkpoint("loaded-after-add", "mesh", t:call("mesh.save", { mesh = h }).bytes)
    t:checkpoint("opened-after-add", "mesh", t:call("mesh.save", { mesh = o }).bytes)

    -- 3. a mesh whose every slot was emptied again, and one full mesh
    local g = t:call("mesh.create", { tiling = TILING, walkable_climb = 1, max_tiles = 2 }).handle
    add(g, strips(2, 2, 0, 0, { 0, 4 }))
    add(g, strips(3, 2, 0, 0.5, { 0, 1, 4 }))
    roundtrip("full", g)
    t:call("mesh.remove_tile", { mesh = g, x = 2, z = 2, layer = 0 })
    t:call("mesh.remove_tile", { mesh = g, x = 3, z = 2, layer = 0 })
    roundtrip("emptied", g)

    -- 4. corrupted mesh bytes (MESH-067 .. MESH-069); layout of `saved`: 68 ntiles, record 0
    --    at 72: 72 slot, 76 generation, 80 x, 84 z, 88 layer, 92 tile_length, 96 the tile
    local function bad(bytes, field, value)
      t:expect_error("mesh.load", { bytes = bytes }, { kind = "format", field = field, value = value })
    end
    local n = #saved // 2
    local tl = u32(saved, 92)
    local ne_at = 96 + tl
    local ne = u32(saved, ne_at)
    local nl_at = ne_at + 4 + 8 * ne
    local nl = u32(saved, nl_at)
    local l0 = nl_at + 4 -- tiles[0].links[0]
    t:check(ne == 1 and nl >= 2, "record 0 has one edit and links")
    bad("", "magic", "0")
    bad(saved:sub(1, 2 * 40), "params", "40")
    bad(saved:sub(1, 2 * 70), "ntiles", "70")
    bad(saved:sub(1, 2 * 100), "tiles[0].tile", "100")
    bad(saved:sub(1, 2 * (l0 + 30)), "tiles[0].links[1]", tostring(l0 + 30))
    bad(put(saved, 0, "58"), "magic", "58504d53")
    bad(put(saved, 4, "02"), "version", "2")
    bad(put(saved, 8, "0000000000000080"), "params.tiling.origin[0]", "-0")
    bad(put(saved, 32, "0000000000000000"), "params.tiling.cell_size", "0")
    bad(put(saved, 52, "02"), "params.tiling.max_verts_per_poly", "2")
    bad(put(saved, 56, "000000000000f0bf"), "params.walkable_climb", "-1")
    bad(put(saved, 56, "0000000000000080"), "params.walkable_climb", "-0")
    bad(put(saved, 64, "00"), "params.max_tiles", "0")
    bad(put(saved, 68, "09"), "ntiles", "9")
    bad(put(saved, 72, "08"), "tiles[0].slot", "8")
    bad(put(saved, 76, "00"), "tiles[0].generation", "0")
    bad(put(saved, 80, "ffffffff"), "tiles[0].x", "-1")
    bad(put(saved, 96, "00"), "tiles[0].tile.header.magic")
    bad(put(saved, ne_at + 4 + 7, "01"), "tiles[0].edits[0].pad", "1")
    bad(put(saved, l0 + 7, "01"), "tiles[0].links[0].pad", "1")
    bad(put(saved, l0, le32(u32(saved, l0) + 7)), "tiles[0].links[0].poly", tostring(u32(saved, l0) + 7))
    bad(put(saved, l0 + 8, "0000000000000000"), "tiles[0].links[0].target", "0000000000000000")
    -- the first external link of record 0: its lo
    local ext
    for k = 0, nl - 1 do
      if ext == nil and saved:sub(2 * (l0 + 24 * k + 5) + 1, 2 * (l0 + 24 * k + 5) + 2) ~= "ff" then ext = k end
    end
    t:check(ext ~= nil, "record 0 has an external link")
    bad(put(saved, l0 + 24 * ext + 16, "0000003e"), "tiles[0].links[" .. ext .. "].lo", "0.125")
    bad(put(saved, l0 + 24 * ext + 5, "07"), "tiles[0].links[" .. ext .. "].side", "7")
    -- one link fewer: every held link matches, the count does not
    local fewer = put(saved, nl_at, le32(nl - 1))
    fewer = fewer:sub(1, 2 * (l0 + 24 * (nl - 1))) .. fewer:sub(2 * (l0 + 24 * nl) + 1)
    bad(fewer, "tiles[0].nlinks", tostring(nl - 1))
    bad(saved .. "00", "length", tostring(n + 1))
    bad(snap, "magic", "4f50534e")
    t:expect_error("mesh.load", { bytes = "zz" }, { kind = "argument", field = "bytes", value = "" })

    -- 5. corrupted snapshots (SNAP-025, SNAP-026). SnapshotParams (SNAP-025) gives the same
    --    error for the first 68 bytes (magic, version, params) and reads nothing after them,
    --    so a snapshot broken later still gives its parameters.
    local function same_params(q, p, what)
      local ok = #q.tiling.origin == 3 and q.walkable_climb == p.walkable_climb and q.max_tiles == p.max_tiles
      for k = 1, 3 do ok = ok and q.tiling.origin[k] == p.tiling.origin[k] end
      for _, f in ipairs({ "cell_size", "cell_height", "tile_cells", "max_verts_per_poly" }) do
        ok = ok and q.tiling[f] == p.tiling[f]
      end
      t:check(ok, what)
    end
    same_params(t:call("mesh.snapshot_params", { bytes = snap }), P, "SnapshotParams of the busy mesh: its parameters")
    same_params(t:call("mesh.snapshot_params", { bytes = snap:sub(1, 2 * 68) }), P,
                "SnapshotParams of the first 68 bytes alone: the same")
    local e_snap = t:call("mesh.snapshot_save", { mesh = e }).bytes
    same_params(t:call("mesh.snapshot_params", { bytes = e_snap }), { tiling = { origin = { -8, 2.5, 16 },
      cell_size = 0.25, cell_height = 0.125, tile_cells = 16, max_verts_per_poly = 3 }, walkable_climb = 0,
      max_tiles = 1 }, "SnapshotParams of the empty mesh: its other parameters")
    t:expect_error("mesh.snapshot_params", { bytes = snap:sub(1, 2 * 67) }, { kind = "format", field = "params", value = "67" })
    local function bads(bytes, field, value)
      t:expect_error("mesh.snapshot_open", { bytes = bytes }, { kind = "format", field = field, value = value })
      if field == "magic" or field == "version" or field:sub(1, 6) == "params" then
        t:expect_error("mesh.snapshot_params", { bytes = bytes }, { kind = "format", field = field, value = value })
      else
        same_params(t:call("mesh.snapshot_params", { bytes = bytes }), P, "SnapshotParams ignores " .. field)
      end
    end
    bads("", "magic", "0")
    bads(saved, "magic", "4f504d53")
    bads(put(snap, 4, "02"), "version", "2")
    bads(snap:sub(1, 2 * 60), "params", "60")
    bads(put(snap, 8, "0000000000000080"), "params.tiling.origin[0]", "-0")
    bads(put(snap, 48, "00"), "params.tiling.tile_cells", "0")
    bads(put(snap, 64, "00"), "params.max_tiles", "0")
    bads(put(snap, 68, "00"), "nsections", "0")
    bads(snap:sub(1, 2 * 98), "sections[0].length")
    bads(snap .. "00", "length", tostring(#snap // 2 + 1))
    -- a second section, as a tile cache snapshot has (SNAP-024)
    bads(put(snap, 68, "02") .. "54434143" .. "01000000" .. "0000000000000000", "sections[1].tag",
         tostring(0x43414354))
    t:expect_error("mesh.snapshot_open", { bytes = "0" }, { kind = "argument", field = "bytes", value = "" })
    t:expect_error("mesh.snapshot_params", { bytes = "0" }, { kind = "argument", field = "bytes", value = "" })
    -- the good bytes still load
    t:check(t:call("mesh.save", { mesh = t:call("mesh.load", { bytes = saved }).handle }).bytes == saved, "still loads")
  end,
}
