-- build3d/tilecache-state-errors: TileCache.RestoreState's checks of the TCAC payload
-- (navmesh-snapshot.md SNAP-016, SNAP-017, SNAP-019 steps 1 to 5, SNAP-003; issue 13). A
-- small cache of 2 x 2 tiles (solid columns) holds one obstacle of each shape, two volumes
-- (3 and 4 points) and a queue of two tiles; its snapshot is then
--   * cut inside the TCAC payload at every byte (the section's length set to the cut, the
--     bytes ending there): the error names the field the cut falls in, with the offset at
--     which the bytes end (SNAP-003), by a model of SNAP-016/SNAP-017's layout written here;
--   * edited one field at a time: -0.0 in every f64 (value `-0`), ids out of order or out of
--     range, an unknown shape, npoints 2 and 13, areas 64 and 300, counts over their limits,
--     queue entries of no cached tile or repeated, next ids 0, a volume that fails SPAN-031;
--   * given a section version other than 1 or a section length past the end or other than
--     its payload's, in either section (SNAP-019 (a), (b));
--   * restored unedited (it loads, and saves the same bytes, SNAP-022);
--   * and a volume given -0.0 coordinates is stored with +0.0 (RT-040): its cache's
--     snapshot loads again.
-- Every failed load leaves the snapshot of the cache as it was (SNAP-021).
local function unhex(h) return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end)) end
local function tohex(b) return (b:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end

local columns = require("tilecache").walled_columns

local OBST = {
  { shape = "cylinder", center = { 3.5, 5, 3.5 }, radius = 1.25, height = 10 },
  { shape = "box", bmin = { 7.25, 5, 2.25 }, bmax = { 8.75, 15, 3.75 } },
  { shape = "oriented_box", center = { 4.5, 10, 8.5 }, half = { 1.5, 5, 0.75 }, yaw = 0.5 },
}
local VOLS = {
  { points = { { 1.25, 1.25 }, { 3.75, 1.25 }, { 3.75, 3.75 } }, ymin = 5, ymax = 15, area = 7 },
  { points = { { 6.25, 6.25 }, { 9.75, 6.25 }, { 9.75, 9.75 }, { 6.25, 9.75 } }, ymin = 4, ymax = 16, area = 0 },
}

-- SNAP-016, SNAP-017: the payload's fields in order, { name, size, kind }
local function layout()
  local f = {}
  local function add(name, size, kind) f[#f + 1] = { name = name, size = size, kind = kind } end
  add("fingerprint", 8, "u64")
  add("next_obstacle_id", 4, "u32")
  add("next_volume_id", 4, "u32")
  add("nobstacles", 4, "u32")
  local SH = {
    cylinder = { "center.x", "center.y", "center.z", "radius", "height" },
    box = { "bmin.x", "bmin.y", "bmin.z", "bmax.x", "bmax.y", "bmax.z" },
    oriented_box = { "center.x", "center.y", "center.z", "half.x", "half.y", "half.z", "yaw" },
  }
  for i, o in ipairs(OBST) do
    local p = "obstacles[" .. (i - 1) .. "]."
    add(p .. "id", 4, "u32")
    add(p .. "shape", 4, "u32")
    for _, n in ipairs(SH[o.shape]) do add(p .. n, 8, "f64") end
  end
  add("nvolumes", 4, "u32")
  for i, v in ipairs(VOLS) do
    local p = "volumes[" .. (i - 1) .. "]."
    add(p .. "id", 4, "u32")
    add(p .. "npoints", 4, "u32")
    for j = 0, #v.points - 1 do
      add(p .. "points[" .. j .. "].x", 8, "f64")
      add(p .. "points[" .. j .. "].z", 8, "f64")
    end
    add(p .. "ymin", 8, "f64")
    add(p .. "ymax", 8, "f64")
    add(p .. "area", 4, "u32")
  end
  add("nqueue", 4, "u32")
  for i = 0, 1 do
    add("queue[" .. i .. "].x", 4, "i32")
    add("queue[" .. i .. "].z", 4, "i32")
  end
  local off = 0
  for _, e in ipairs(f) do
    e.off = off
    off = off + e.size
  end
  return f, off
end

return {
  title = "Tile cache RestoreState: every TCAC field cut, edited and named (SNAP-016 .. SNAP-019)",
  clauses = { "SNAP-003", "SNAP-016", "SNAP-017", "SNAP-019", "SNAP-021", "SNAP-022", "RT-133" },
  run = function(t)
    local s = require("tilecache").unit_settings(t, 6)
    local r = t:call("tilecache.heightfield", { settings = s, columns = columns(11, 11) })
    local c = r.cache
    for _, o in ipairs(OBST) do t:call("tilecache.add_obstacle", { cache = c, obstacle = o }) end
    for _, v in ipairs(VOLS) do t:call("tilecache.add_volume", { cache = c, volume = v }) end
    local q = t:call("tilecache.queue", { cache = c }).queue
    t:call("tilecache.update", { cache = c, max_tiles = #q - 2 })
    q = t:call("tilecache.queue", { cache = c }).queue
    t:check(#q == 2, "the queue holds two tiles: " .. #q)
    local S = unhex(t:call("tilecache.snapshot_save", { cache = c }).bytes)
    local tag = S:find("TCAC", 73, true)
    t:check(tag ~= nil, "the snapshot has a TCAC section")
    local P = tag - 1 + 16 -- the payload's offset from the first byte (0-based)
    local F, plen = layout()
    t:check(string.unpack("<I8", S, tag + 8) == plen, "the TCAC payload has the layout's length: " .. plen)
    t:checkpoint("snapshot", "snapshot", tohex(S))
    local function load(bytes, field, value, what)
      t:expect_error("tilecache.snapshot_load", { cache = c, bytes = tohex(bytes) },
                     { kind = "format", field = field, value = value })
    end
    -- cuts: section length L, the bytes ending at the payload's byte L (SNAP-003)
    for _, e in ipairs(F) do
      for L = e.off, e.off + e.size - 1 do
        local b = S:sub(1, tag + 7) .. string.pack("<I8", L) .. S:sub(tag + 16, P + L)
        load(b, e.name, tostring(P + L))
      end
    end
    local function field(name)
      for _, e in ipairs(F) do if e.name == name then return e end end
      error("no field " .. name)
    end
    local function set(name, packed)
      local e = field(name)
      return S:sub(1, P + e.off) .. packed .. S:sub(P + e.off + e.size + 1)
    end
    local function get(name, fmt) return string.unpack(fmt, S, P + field(name).off + 1) end
    -- -0.0 in every f64 of a record (SNAP-019 3, 4)
    for _, e in ipairs(F) do
      if e.kind == "f64" then load(set(e.name, string.pack("<I8", 0x8000000000000000)), e.name, "-0") end
    end
    -- counts, ids, shapes, points, areas
    local nob, nvid = get("next_obstacle_id", "<I4"), get("next_volume_id", "<I4")
    load(set("next_obstacle_id", string.pack("<I4", 0)), "next_obstacle_id", "0")
    load(set("next_volume_id", string.pack("<I4", 0)), "next_volume_id", "0")
    load(set("nobstacles", string.pack("<I4", 65537)), "nobstacles", "65537")
    load(set("nvolumes", string.pack("<I4", 65537)), "nvolumes", "65537")
    load(set("obstacles[0].id", string.pack("<I4", 0)), "obstacles[0].id", "0")
    load(set("obstacles[2].id", string.pack("<I4", nob)), "obstacles[2].id", tostring(nob))
    local id0 = get("obstacles[0].id", "<I4")
    load(set("obstacles[1].id", string.pack("<I4", id0)), "obstacles[1].id", tostring(id0))
    load(set("obstacles[1].shape", string.pack("<I4", 3)), "obstacles[1].shape", "3")
    load(set("volumes[0].id", string.pack("<I4", 0)), "volumes[0].id", "0")
    load(set("volumes[1].id", string.pack("<I4", nvid)), "volumes[1].id", tostring(nvid))
    local v0 = get("volumes[0].id", "<I4")
    load(set("volumes[1].id", string.pack("<I4", v0)), "volumes[1].id", tostring(v0))
    load(set("volumes[0].npoints", string.pack("<I4", 2)), "volumes[0].npoints", "2")
    load(set("volumes[1].npoints", string.pack("<I4", 13)), "volumes[1].npoints", "13")
    load(set("volumes[0].area", string.pack("<I4", 64)), "volumes[0].area", "64")
    load(set("volumes[1].area", string.pack("<I4", 300)), "volumes[1].area", "300")
    -- SPAN-033 / SPAN-031 on a record read whole: a radius of 0, ymin above ymax
    local e_r = t:expect_error("tilecache.snapshot_load",
      { cache = c, bytes = tohex(set("obstacles[0].radius", string.pack("<d", 0))) },
      { kind = "format", field = "obstacles[0].radius" })
    local e_y = t:expect_error("tilecache.snapshot_load",
      { cache = c, bytes = tohex(set("volumes[1].ymin", string.pack("<d", 20))) },
      { kind = "format", field = "volumes[1].ymax", value = "16" })
    t:check(e_r ~= nil and e_y ~= nil, "SPAN-033 and SPAN-031 failures are format errors")
    -- queue: a tile not cached, a repeated entry, too many entries
    load(set("queue[1].x", string.pack("<i4", 7)), "queue[1].x", "7," .. q[2][2])
    local e1 = field("queue[1].x")
    local rep = S:sub(1, P + e1.off) .. string.pack("<i4i4", q[1][1], q[1][2]) .. S:sub(P + e1.off + 9)
    load(rep, "queue[1].x", q[1][1] .. "," .. q[1][2])
    load(set("nqueue", string.pack("<I4", 5)), "nqueue", "5")
    -- the sections' own words (SNAP-019 (a), (b)): a version other than 1, a length past the
    -- end of the data, a length other than the payload's, for the SLOT section (at byte 72)
    -- and for the TCAC section
    for k, at in ipairs({ 73, tag }) do
      local sec = "sections[" .. (k - 1) .. "]."
      local len = string.unpack("<I8", S, at + 8)
      local function with(off, packed) return S:sub(1, at + off - 2) .. packed .. S:sub(at + off - 1 + #packed) end
      load(with(5, string.pack("<I4", 2)), sec .. "version", "2")
      load(with(5, string.pack("<I4", 0)), sec .. "version", "0")
      load(with(9, string.pack("<I8", 1 << 40)), sec .. "length", tostring(1 << 40))
      load(with(9, string.pack("<I8", len + 4)) .. "\0\0\0\0", sec .. "length", tostring(len + 4))
    end
    -- every failure left the cache as it was; the unedited bytes load and save the same
    t:check(unhex(t:call("tilecache.snapshot_save", { cache = c }).bytes) == S, "failed loads change nothing (SNAP-021)")
    t:call("tilecache.snapshot_load", { cache = c, bytes = tohex(S) })
    t:check(unhex(t:call("tilecache.snapshot_save", { cache = c }).bytes) == S, "a restore saves the same bytes (SNAP-022)")
    t:call("drop", { handle = c })
    -- RT-040: a volume given -0.0 coordinates is stored with +0.0, so its snapshot holds no
    -- -0.0 and loads again (SNAP-019 rejects -0.0 in every f64)
    local c2 = t:call("tilecache.heightfield", { settings = s, columns = columns(11, 11) }).cache
    t:call("tilecache.add_volume", { cache = c2, volume = {
      points = { { -0.0, -0.0 }, { 4.5, -0.0 }, { 4.5, 4.5 }, { -0.0, 4.5 } }, ymin = -0.0, ymax = 12, area = 5 } })
    local S2 = t:call("tilecache.snapshot_save", { cache = c2 }).bytes
    t:call("tilecache.snapshot_load", { cache = c2, bytes = S2 })
    t:check(t:call("tilecache.snapshot_save", { cache = c2 }).bytes == S2, "-0.0 stored as +0.0: the snapshot loads and saves the same")
    t:call("drop", { handle = c2 })
  end,
}
