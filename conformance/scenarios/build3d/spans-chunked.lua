-- conformance/scenarios/build3d/spans-chunked.lua
-- BuildChunk gives the soup's result byte for byte (SPAN-064, SPAN-181): every tile of
-- every levels.md generator at the Humanoid preset, built from the soup and from chunked
-- meshes of three chunk sizes (smaller than a cell, about a tile, larger than the level),
-- must give the same answer, also for the tiles just outside the build's range. No checkpoint: the soup's bytes are checkpointed by the
-- spans-<level> scenarios; this scenario checks only the equality, and the chunk-size error.

local LEVELS = { { "terrain", 16 }, { "city", 1 }, { "stairs", 6 }, { "dungeon", 12 } }

return {
  title = "Chunked triangle mesh input: the same tiles as the soup, byte for byte",
  clauses = { "SPAN-060", "SPAN-063", "SPAN-064", "SPAN-181", "SPAN-190" },
  run = function(t)
    for _, l in ipairs(LEVELS) do
      local lv = { name = l[1], seed = "00000000000000a1", size = l[2] }
      local soup = t:call("level.generate", lv).bytes
      local all = t:call("spans.build", { preset = "Humanoid", soup = soup })
      local tiles = 0
      for tz = -1, all.ntz do
        for tx = -1, all.ntx do
          local want = t:call("spans.build_tile", { preset = "Humanoid", soup = soup, tile = { tx, tz } })
          for _, size in ipairs({ 0.25, 19.2, 1000 }) do
            local got = t:call("spans.build_tile", { preset = "Humanoid", soup = soup, tile = { tx, tz },
                                                     chunk_size = size })
            t:check(got.built == want.built and got.bytes == want.bytes,
                    string.format("%s tile (%d,%d) chunk %g: same as the soup", l[1], tx, tz, size))
          end
          -- tiles -1 and ntx (ntz) lie outside the build's range (SPAN-183) but may be built
          if want.built and tx >= 0 and tx < all.ntx and tz >= 0 and tz < all.ntz then tiles = tiles + 1 end
        end
      end
      t:check(tiles == all.built, l[1] .. ": the tiles built one by one are the build's")
    end
    local floor = t:call("level.generate", { name = "terrain", seed = "00000000000000a1", size = 1 }).bytes
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 }, chunk_size = 0 },
                   { kind = "out_of_range", field = "chunk_size" })
    t:expect_error("spans.build_tile", { preset = "Humanoid", soup = floor, tile = { 0, 0 }, chunk_size = "1" },
                   { kind = "argument", field = "chunk_size" })
  end,
}
