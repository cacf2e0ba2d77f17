-- soups3d.lua -- shared by the build3d scenarios that build hand-made soups and by the
-- per-tile stage scenarios over the levels.md generators (require "soups3d").
--
-- soup(t, verts, tris): the LVL-010 bytes (hex text) of a soup, vertices {x, y, z}
--   (binary64), triangles {a, b, c}.
-- floor(t, pillar): a floor 6 x 6 at y = 0, and with pillar a hollow box (four walls and a
--   top) over x, z in [2.4, 3.6], 5 high; its soup bytes.
-- each_level_tile(t, method, fn): for every levels.md level of LEVELS, preset (Humanoid,
--   Small, Large) and partition, calls `method` on every tile and fn(tag, r) on the
--   answers; checks that the built tiles are those of spans.build. fn returns whether r
--   is a built tile.
local M = {}

function M.soup(t, verts, tris)
  local b = t:table()
  b:bytes("4f505453")
  b:u32(1)
  b:u32(#verts)
  b:u32(#tris)
  for _, v in ipairs(verts) do b:f64(v[1]); b:f64(v[2]); b:f64(v[3]) end
  for _, tr in ipairs(tris) do b:u32(tr[1]); b:u32(tr[2]); b:u32(tr[3]) end
  return b:hex()
end

function M.floor(t, pillar)
  local v = { { 0, 0, 0 }, { 0, 0, 6 }, { 6, 0, 6 }, { 6, 0, 0 } }
  local f = { { 0, 1, 2 }, { 0, 2, 3 } }
  if pillar then
    local a, b, h = 2.4, 3.6, 5
    local base = #v
    for _, p in ipairs({ { a, 0, a }, { a, 0, b }, { b, 0, b }, { b, 0, a },
                         { a, h, a }, { a, h, b }, { b, h, b }, { b, h, a } }) do
      v[#v + 1] = p
    end
    local q = { { 0, 1, 5, 4 }, { 1, 2, 6, 5 }, { 2, 3, 7, 6 }, { 3, 0, 4, 7 }, { 4, 5, 6, 7 } }
    for _, r in ipairs(q) do
      f[#f + 1] = { base + r[1], base + r[2], base + r[3] }
      f[#f + 1] = { base + r[1], base + r[3], base + r[4] }
    end
  end
  return M.soup(t, v, f)
end

M.LEVELS = {
  { name = "terrain", seed = "00000000000000a1", size = 16 },
  { name = "city", seed = "0000000000000007", size = 2 },
  { name = "stairs", seed = "00000000000000a1", size = 8 },
  { name = "dungeon", seed = "0000000000000003", size = 12 },
}

function M.each_level_tile(t, method, fn)
  for _, lv in ipairs(M.LEVELS) do
    for _, preset in ipairs({ "Humanoid", "Small", "Large" }) do
      local level = { name = lv.name, seed = lv.seed, size = lv.size }
      local all = t:call("spans.build", { preset = preset, level = level })
      for _, part in ipairs({ "watershed", "monotone", "layers" }) do
        local built = 0
        for tz = 0, all.ntz - 1 do
          for tx = 0, all.ntx - 1 do
            local r = t:call(method, {
              preset = preset, partition = part, tile = { tx, tz }, level = level })
            local tag = lv.name .. "-" .. preset .. "-" .. part .. "-" .. tx .. "-" .. tz
            if fn(tag, r) then built = built + 1 end
          end
        end
        t:check(built == all.built, lv.name .. "/" .. preset .. "/" .. part .. ": every built tile")
      end
    end
  end
end

return M
