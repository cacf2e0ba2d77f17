-- The two-triangle square with a detail mesh (one extra vertex in triangle A) and two
-- off-mesh link slots, one of them ending outside the tile.
return {
  title = "A tile with a detail mesh and off-mesh links",
  clauses = { "FMT-022", "FMT-023", "FMT-024", "FMT-025", "FMT-026", "FMT-027", "FMT-028",
              "FMT-029", "FMT-042", "FMT-044" },
  run = function(t)
    local args = {
      x = 3, z = -2, layer = 0,
      tiling = { origin = { 100, 0, -50 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,
                 max_verts_per_poly = 6 },
      origin_y = -12.25,
      verts = { { 0, 0, 0 }, { 4, 0.5, 0 }, { 4, 1, 4 }, { 0, 0.5, 4 } },
      polys = {
        { verts = { 0, 1, 2 }, neis = { 0x8003, 0x8002, 2 }, area = 1, flags = 1 },
        { verts = { 0, 2, 3 }, neis = { 1, 0x8001, 0x8000 }, area = 2, flags = 3 },
      },
      -- A: 3 polygon vertices + 1 detail vertex (index 3), three triangles;
      -- B: no detail vertex, one triangle.
      detail = { { vert_base = 0, vert_count = 1, tri_base = 0, tri_count = 3 },
                 { vert_base = 1, vert_count = 0, tri_base = 3, tri_count = 1 } },
      detail_verts = { { 3, 0.625, 1 } },
      detail_tris = { { 0, 1, 3, 0x01 }, { 1, 2, 3, 0x01 }, { 2, 0, 3, 0x00 }, { 0, 1, 2, 0x14 } },
      offmesh = {
        { start = { 1, 0, 1 }, ["end"] = { -2, 1.5, 6 }, radius = 0.5, flags = 3, area = 2,
          bidirectional = true, user_id = 77 },
        { start = { 3.5, 0.75, 0.5 }, ["end"] = { 3.5, -4, -1 }, radius = 0.25, flags = 0, area = 63,
          bidirectional = false, user_id = 4294967295 },
      },
    }
    local a = t:call("tile.create", args)
    local saved = t:call("tile.save", { tile = a.handle })
    t:checkpoint("detail-offmesh", "tile", saved.bytes)
    -- 104 + 48 + 32 + 2 * 10 + 12 + 4 * 4 + 2 * 36 + 8
    t:check(#saved.bytes == 2 * 312, "the tile is 312 bytes")
    local b = t:call("tile.load", { bytes = saved.bytes })
    t:check(b.content_id == a.content_id, "load keeps the content id")
    local v = t:call("tile.view", { tile = b.handle })
    t:check(#v.detail == 2 and #v.detail_tris == 4 and #v.offmesh == 2, "view shows detail and links")
    t:check(v.offmesh[1].bidirectional == true and v.offmesh[2].user_id == 4294967295,
      "view shows the link fields")
    local c = t:call("tile.create", v)
    t:check(c.content_id == a.content_id, "view -> create is the same tile")
  end,
}
