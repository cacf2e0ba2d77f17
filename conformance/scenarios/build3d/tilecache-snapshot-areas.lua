-- conformance/scenarios/build3d/tilecache-snapshot-areas.lua
-- A tile-cache snapshot keeps every volume's area id exactly (SNAP-016 .. SNAP-022, RT-130 ..
-- RT-134): volumes of areas 0, 1, 62 and 63 (the whole range of SPAN-031) on the generated
-- dungeon (preset Small, 6 x 5 tiles); the snapshot saved after the update, loaded into a
-- second cache of the same build and saved again gives the same bytes (SNAP-022), and the
-- second cache's mesh is the first's. Both the snapshot and the mesh are checkpoints.

local LEVEL = { name = "dungeon", seed = "0000000000000003", size = 16 }

return {
  title = "Tile-cache snapshots keep the volumes' area ids 0, 1, 62 and 63",
  clauses = { "SNAP-016", "SNAP-019", "SNAP-022", "RT-040", "RT-130", "RT-132", "RT-133", "SPAN-031" },
  run = function(t)
    local s = t:call("settings.preset", { name = "Small" }).settings
    s.partition = "layers"
    s.detail_sample_distance = 0
    local a = t:call("tilecache.soup", { settings = s, level = LEVEL })
    local v = t:call("tile.view", { tile = a.tiles[1].tile }).tiling
    local w = v.tile_cells * v.cell_size
    for k, area in ipairs({ 0, 1, 62, 63 }) do
      local x0, z0 = v.origin[1] + (k - 1) * w + 0.7, v.origin[3] + w + 0.4
      t:call("tilecache.add_volume", { cache = a.cache, volume = {
        points = { { x0, z0 }, { x0 + 2.1, z0 }, { x0 + 2.1, z0 + 1.6 }, { x0, z0 + 1.6 } },
        ymin = -50, ymax = 150, area = area } })
    end
    t:call("tilecache.update", { cache = a.cache })
    local snap = t:call("tilecache.snapshot_save", { cache = a.cache }).bytes
    local mesh = t:call("mesh.save", { mesh = a.mesh }).bytes
    t:checkpoint("snapshot", "snapshot", snap)
    t:checkpoint("mesh", "mesh", mesh)
    local b = t:call("tilecache.soup", { settings = s, level = LEVEL })
    t:call("tilecache.snapshot_load", { cache = b.cache, bytes = snap })
    t:check(t:call("tilecache.snapshot_save", { cache = b.cache }).bytes == snap,
            "the loaded snapshot saves as the same bytes (SNAP-022)")
    t:check(t:call("mesh.save", { mesh = b.mesh }).bytes == mesh, "the restored mesh is the first cache's")
  end,
}
