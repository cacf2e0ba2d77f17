-- CONF-061, CONF-062: the tile, mesh and snapshot checkpoint kinds and the parts of mesh
-- and snapshot artifacts (moved from conformance/checkpoints, which keeps the table kind
-- and the name rules; the three checkpoints keep their hashes). The lengths and part lists
-- below are derived from the byte layouts: a one-quad tile is 104 + 4 * 12 + (4 + 4 * 4) + 8
-- = 180 bytes (FMT-041, FMT-042); a mesh tile record is 24 + 180 + 4 (no edits) + 4 (no
-- links) = 212 bytes after the 72-byte mesh header (MESH-040, MESH-041, MESH-044); a
-- snapshot tile record has no links, 24 + 180 + 4 = 208 bytes, and the snapshot is its
-- 72-byte header, one 16-byte section header and the SLOT payload: nfree (4), ntiles (4),
-- the records (SNAP-002, SNAP-005, SNAP-010).
local TILING = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
                 max_verts_per_poly = 6 }

local function square(x, z)
  return { x = x, z = z, layer = 0, tiling = TILING, origin_y = 0,
           verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },
                       area = 0, flags = 1 } } }
end

local function part_sum(cp)
  local n = 0
  for _, p in ipairs(cp.parts) do n = n + p.length end
  return n
end

local function find_part(cp, name)
  for _, p in ipairs(cp.parts) do if p.name == name then return p end end
  return nil
end

return {
  title = "The tile, mesh and snapshot checkpoint kinds and the parts of mesh and snapshot artifacts",
  clauses = { "CONF-061", "CONF-062" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = TILING, walkable_climb = 0.5, max_tiles = 4 }).handle
    local a = t:call("tile.create", square(0, 0)).handle
    local b = t:call("tile.create", square(3, 0)).handle -- not adjacent: no links
    t:call("mesh.add_tile", { mesh = m, tile = a })
    t:call("mesh.add_tile", { mesh = m, tile = b })

    -- CONF-062: a tile artifact has no parts
    local tile = t:checkpoint("tile 0,0,0", "tile", t:call("tile.save", { tile = a }).bytes)
    t:check(tile and tile.length == 180 and #tile.parts == 0, "a tile artifact: 180 bytes, no parts")

    -- CONF-062: a mesh artifact: header, then one part per tile record, in slot order
    local mesh = t:checkpoint("mesh", "mesh", t:call("mesh.save", { mesh = m }).bytes)
    t:check(mesh and mesh.length == 72 + 212 * 2, "mesh of two tiles: 496 bytes")
    t:check(mesh and #mesh.parts == 3, "mesh: three parts")
    if mesh and #mesh.parts == 3 then
      t:check(mesh.parts[1].name == "header" and mesh.parts[1].length == 72, "mesh part 1: header, 72 bytes")
      t:check(mesh.parts[2].name == "tile 0,0,0" and mesh.parts[2].length == 212, "mesh part 2: tile 0,0,0, 212 bytes")
      t:check(mesh.parts[3].name == "tile 3,0,0" and mesh.parts[3].length == 212, "mesh part 3: tile 3,0,0, 212 bytes")
      t:check(mesh.parts[2].hash ~= mesh.parts[3].hash, "parts are hashed separately (the records differ)")
    end
    t:check(mesh and part_sum(mesh) == mesh.length, "mesh parts cover the artifact")

    -- a snapshot: header first, a part per tile record, parts covering every byte
    local snap = t:checkpoint("snapshot", "snapshot", t:call("mesh.snapshot_save", { mesh = m }).bytes)
    t:check(snap and snap.length == 72 + 16 + 4 + 4 + 208 * 2, "snapshot of two tiles: 512 bytes")
    t:check(snap and snap.parts[1] and snap.parts[1].name == "header" and snap.parts[1].length == 72,
            "snapshot part 1: header, 72 bytes")
    t:check(snap and find_part(snap, "tile 0,0,0") and find_part(snap, "tile 0,0,0").length == 208,
            "snapshot part tile 0,0,0: 208 bytes")
    t:check(snap and find_part(snap, "tile 3,0,0") and find_part(snap, "tile 3,0,0").length == 208,
            "snapshot part tile 3,0,0: 208 bytes")
    t:check(snap and part_sum(snap) == snap.length, "snapshot parts cover the artifact")
  end,
}
