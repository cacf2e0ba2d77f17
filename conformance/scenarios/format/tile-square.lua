-- A square tile split into two triangles along its diagonal, portals on all four sides.
-- Tiling: origin 0, cell 0.5, 8 cells a side, so W = fW = 4 (FMT-005, FMT-008).
local function square()
  return {
    x = 0, z = 0, layer = 0,
    tiling = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
               max_verts_per_poly = 6 },
    origin_y = 0,
    verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },
    polys = {
      -- edge 0 -> 1 on z = 0 (side 3), 1 -> 2 on x = fW (side 2), 2 -> 0 shared with B
      { verts = { 0, 1, 2 }, neis = { 0x8003, 0x8002, 2 }, area = 0, flags = 1 },
      -- edge 0 -> 2 shared with A, 2 -> 3 on z = fW (side 1), 3 -> 0 on x = 0 (side 0)
      { verts = { 0, 2, 3 }, neis = { 1, 0x8001, 0x8000 }, area = 0, flags = 1 },
    },
  }
end

return {
  title = "Two triangles of a square with portals on every side: create, save, load, view",
  clauses = { "FMT-019", "FMT-020", "FMT-021", "FMT-040", "FMT-041", "FMT-042", "FMT-043",
              "FMT-044", "FMT-045", "FMT-012", "FMT-070", "FMT-072", "FMT-073" },
  run = function(t)
    local a = t:call("tile.create", square())
    local saved = t:call("tile.save", { tile = a.handle })
    t:checkpoint("square", "tile", saved.bytes)
    -- header 104 + 4 vertices * 12 + 2 triangles * (4 + 12) + content id 8 (FMT-041, FMT-042)
    t:check(#saved.bytes == 2 * 192, "the square is 192 bytes")
    t:check(saved.bytes:sub(1, 16) == "4f50544c01000000", "magic OPTL, version 1")
    -- the content id is the last 8 bytes, little-endian (FMT-043)
    local tail = saved.bytes:sub(-16)
    local le = {}
    for i = 15, 1, -2 do le[#le + 1] = tail:sub(i, i + 1) end
    t:check(table.concat(le) == a.content_id, "content id is stored last, little-endian")

    -- load(save(t)) saves to the same bytes and has the same content id (FMT-044)
    local b = t:call("tile.load", { bytes = saved.bytes })
    t:check(b.content_id == a.content_id, "load keeps the content id")
    local again = t:call("tile.save", { tile = b.handle })
    t:check(again.bytes == saved.bytes, "save of a loaded tile gives the same bytes")

    -- view has create's shape; feeding it back gives the same tile (FMT-073)
    local v = t:call("tile.view", { tile = a.handle })
    t:check(#v.polys == 2 and v.polys[1].neis[1] == 0x8003, "view shows the neighbour codes")
    local c = t:call("tile.create", v)
    t:check(c.content_id == a.content_id, "view -> create is the same tile")

    -- -0.0 given to create is stored as +0.0 (FMT-012)
    local m = square()
    m.verts[1] = { -0.0, -0.0, -0.0 }
    m.origin_y = -0.0
    local d = t:call("tile.create", m)
    t:check(d.content_id == a.content_id, "-0 and +0 make the same tile")

    -- flags and area are part of the content: another flags value, another tile
    local f = square()
    f.polys[2].flags = 2
    local e = t:call("tile.create", f)
    t:check(e.content_id ~= a.content_id, "flags change the content id")
    t:checkpoint("square-flags2", "tile", t:call("tile.save", { tile = e.handle }).bytes)
  end,
}
