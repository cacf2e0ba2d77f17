-- conformance/scenarios/build3d/chunks-query.lua
-- The chunked triangle mesh (SPAN-060 .. SPAN-064) through chunks.query: on a generated
-- city, each query contains every triangle whose xz box meets the query box (checked by
-- brute force here), in ascending order; the lists are checkpointed. Errors of the soup
-- bytes (LVL-011) and of the chunk size.

local function decode(hex)
  local bin = hex:gsub("..", function(h) return string.char(tonumber(h, 16)) end)
  local nv, nt = string.unpack("<I4I4", bin, 9)
  local v, pos = {}, 17
  for i = 0, nv - 1 do
    local x, y, z
    x, y, z, pos = string.unpack("<ddd", bin, pos)
    v[i] = { x, y, z }
  end
  local tris = {}
  for t = 0, nt - 1 do
    local a, b, c
    a, b, c, pos = string.unpack("<I4I4I4", bin, pos)
    tris[t] = { a, b, c }
  end
  return v, tris, nt
end

return {
  title = "Chunked triangle mesh: queries contain every touching triangle, ascending",
  clauses = { "SPAN-054", "SPAN-060", "SPAN-061", "SPAN-062", "SPAN-063", "SPAN-064", "SPAN-094",
              "LVL-011" },
  run = function(t)
    local g = t:call("level.generate", { name = "city", seed = "0000000000000009", size = 4 })
    local v, tris, nt = decode(g.bytes)
    local b = t:table()
    local boxes = { { { 0, 0 }, { 104, 104 } }, { { 30, 30 }, { 40, 40 } }, { { 31, 0 }, { 32, 104 } },
                    { { -5, -5 }, { -1, -1 } }, { { 55.5, 10 }, { 60, 90.25 } } }
    for _, size in ipairs({ 24, 7.5, 2097152 }) do
      for _, box in ipairs(boxes) do
        local r = t:call("chunks.query", { soup = g.bytes, chunk_size = size, bmin = box[1], bmax = box[2] })
        if size == 2097152 then t:check(r.nchunks == 1, "one chunk when the size covers the level") end
        local set = {}
        for i, x in ipairs(r.tris) do
          set[x] = true
          if i > 1 then t:check(r.tris[i - 1] < x, "ascending") end
        end
        for tri = 0, nt - 1 do
          local mnx, mxx, mnz, mxz = math.huge, -math.huge, math.huge, -math.huge
          for k = 1, 3 do
            local p = v[tris[tri][k]]
            mnx = math.min(mnx, p[1]); mxx = math.max(mxx, p[1])
            mnz = math.min(mnz, p[3]); mxz = math.max(mxz, p[3])
          end
          if mnx <= box[2][1] and mxx >= box[1][1] and mnz <= box[2][2] and mxz >= box[1][2] then
            t:check(set[tri], "every triangle whose box meets the query box is returned")
          end
        end
        b:i64(r.nchunks)
        b:i64(#r.tris)
        for _, x in ipairs(r.tris) do b:i64(x) end
      end
    end
    t:checkpoint("city-queries", "table", b:hex())
    -- errors
    local function with(k, val) local a = { soup = g.bytes, chunk_size = 8, bmin = { 0, 0 }, bmax = { 1, 1 } }; a[k] = val; return a end
    t:expect_error("chunks.query", with("soup", "abc"), { kind = "argument", field = "soup" })
    t:expect_error("chunks.query", with("soup", "4f5054530100"), { kind = "format", field = "soup.length", value = "6" })
    t:expect_error("chunks.query", with("soup", "4f50544d010000000000000000000000"), { kind = "format", field = "soup.magic" })
    t:expect_error("chunks.query", with("soup", "4f505453020000000000000000000000"), { kind = "format", field = "soup.version", value = "2" })
    t:expect_error("chunks.query", with("soup", "4f50545301000000000000000100000000"), { kind = "format", field = "soup.length", value = "17" })
    -- one vertex x = NaN (f64 7ff8000000000000), no triangle
    t:expect_error("chunks.query", with("soup", "4f505453010000000100000000000000" .. "000000000000f87f" ..
                   string.rep("00", 16)), { kind = "out_of_range", field = "soup.verts[0].x", value = "NaN" })
    t:expect_error("chunks.query", with("chunk_size", 0), { kind = "out_of_range", field = "chunk_size", value = "0" })
    t:expect_error("chunks.query", with("chunk_size", "big"), { kind = "argument", field = "chunk_size" })
    t:expect_error("chunks.query", with("bmin", { 0 }), { kind = "argument", field = "bmin" })
    t:expect_error("chunks.query", with("bmax", { 0, "x" }), { kind = "argument", field = "bmax" })
    local e = t:call("chunks.query", { soup = "4f505453010000000000000000000000", chunk_size = 1, bmin = { 0, 0 }, bmax = { 1, 1 } })
    t:check(e.nchunks == 0 and #e.tris == 0, "an empty soup has no chunk")
  end,
}
