-- One convex hexagon in tile (-1, 2), layer 1, of a tiling with a non-zero origin.
-- W = 32 * 0.25 = 8; tile x = -1 spans world x in [-10 - 8, -10], z = 2 spans [5 + 16, 5 + 24].
return {
  title = "A convex hexagon with heights, in a tile away from the origin",
  clauses = { "FMT-002", "FMT-005", "FMT-006", "FMT-014", "FMT-017", "FMT-018", "FMT-041",
              "FMT-042", "FMT-044" },
  run = function(t)
    local args = {
      x = -1, z = 2, layer = 1,
      tiling = { origin = { -10, 2, 5 }, cell_size = 0.25, cell_height = 0.125, tile_cells = 32,
                 max_verts_per_poly = 6 },
      origin_y = 3.5,
      verts = { { 2, 0.5, 1 }, { 6, 0.75, 1 }, { 7, 1, 4 }, { 6, 1.25, 7 }, { 2, 1.5, 7 }, { 1, 0.25, 4 } },
      polys = { { verts = { 0, 1, 2, 3, 4, 5 }, neis = { 0, 0, 0, 0, 0, 0 }, area = 5, flags = 0x00ff } },
    }
    local a = t:call("tile.create", args)
    local saved = t:call("tile.save", { tile = a.handle })
    t:checkpoint("hexagon", "tile", saved.bytes)
    -- 104 + 6 * 12 + (4 + 24) + 8
    t:check(#saved.bytes == 2 * 212, "the hexagon is 212 bytes")
    local b = t:call("tile.load", { bytes = saved.bytes })
    t:check(b.content_id == a.content_id, "load keeps the content id")
    -- rotating the vertex list is another polygon record, hence another tile (FMT-044)
    args.polys[1].verts = { 1, 2, 3, 4, 5, 0 }
    local c = t:call("tile.create", args)
    t:check(c.content_id ~= a.content_id, "a rotated vertex list is a different tile")
    t:checkpoint("hexagon-rotated", "tile", t:call("tile.save", { tile = c.handle }).bytes)
    -- collinear vertex allowed: a seventh vertex in the middle of the edge 0 -> 1
    args.tiling.max_verts_per_poly = 7
    args.verts[7] = { 4, 0.5, 1 }
    args.polys[1] = { verts = { 0, 6, 1, 2, 3, 4, 5 }, neis = { 0, 0, 0, 0, 0, 0, 0 }, area = 5, flags = 0x00ff }
    local d = t:call("tile.create", args)
    t:checkpoint("heptagon-collinear", "tile", t:call("tile.save", { tile = d.handle }).bytes)
  end,
}
