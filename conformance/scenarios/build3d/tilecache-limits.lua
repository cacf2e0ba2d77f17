-- build3d/tilecache-limits: the live-count limits of volumes and obstacles (RT-040, RT-026)
-- reached exactly and exceeded by one (issue 13). 65536 volumes outside the level (they
-- queue no tile) are live at once: the next AddVolume is the limit error `volumes` with the
-- value 65536 (RT-040); a removal makes room for exactly one more. The snapshot of the full
-- cache restores into a fresh cache and saves back the same bytes (SNAP-019 step 4:
-- `nvolumes` at most 65536, SNAP-022); the same bytes with `nvolumes` 65537 are refused at
-- that field (format `nvolumes`, value 65537) and change nothing (SNAP-021). The same for
-- 65536 obstacles (RT-026, `nobstacles`, SNAP-019 step 3). A queue entry that names no cached
-- tile, before or after the one tile, is refused (SNAP-019 step 5), and so is a queue cut
-- inside its entry (SNAP-003). About two seconds in-process: 2 x 65536 requests are the price
-- of the limits, which no spec'd parameter lowers.
local soups = require("soups3d")

local function unhex(h) return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end)) end
local function hexof(s) return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end)) end
local function get_u64(hex, at) return string.unpack("<I8", unhex(hex:sub(2 * at + 1, 2 * at + 16))) end
local function set_u32(hex, at, v)
  return hex:sub(1, 2 * at) .. hexof(string.pack("<I4", v)) .. hex:sub(2 * at + 9)
end

return {
  title = "Tile cache limits: 65536 live volumes and obstacles, one more refused, their snapshots at the boundary",
  clauses = { "RT-026", "RT-040", "RT-130", "SNAP-003", "SNAP-016", "SNAP-019", "SNAP-020", "SNAP-021", "SNAP-022" },
  run = function(t)
    local s = t:call("settings.preset", { name = "Humanoid" }).settings
    local args = { settings = s, soup = soups.floor(t, false) }
    local r = t:call("tilecache.soup", args)
    local c = r.cache
    local vol = { points = { { 100, 100 }, { 101, 100 }, { 101, 101 } }, ymin = 0, ymax = 1, area = 3 }
    local last
    for _ = 1, 65536 do last = t:call("tilecache.add_volume", { cache = c, volume = vol }) end
    t:check(last.id == 65536 and last.queued == 0,
            "the 65536th volume gets id 65536 and queues nothing (RT-040, RT-130)")
    local full = t:call("tilecache.snapshot_save", { cache = c }).bytes
    t:expect_error("tilecache.add_volume", { cache = c, volume = vol },
                   { kind = "limit", field = "volumes", value = "65536" })
    t:call("tilecache.remove_volume", { cache = c, id = 1 })
    local again = t:call("tilecache.add_volume", { cache = c, volume = vol })
    t:check(again.id == 65537, "after a removal one more volume fits, with the next id (RT-040, RT-130)")
    t:expect_error("tilecache.add_volume", { cache = c, volume = vol },
                   { kind = "limit", field = "volumes", value = "65536" })
    -- the snapshot with 65536 volumes restores into a fresh cache of the same build
    local r2 = t:call("tilecache.soup", args)
    t:call("tilecache.snapshot_load", { cache = r2.cache, bytes = full })
    local back = t:call("tilecache.snapshot_save", { cache = r2.cache }).bytes
    t:check(back == full, "a snapshot with 65536 volumes restores and saves back the same bytes (SNAP-019, SNAP-022)")
    -- the whole snapshot as one table checkpoint (its 65536 volume parts would fill the golden file)
    t:checkpoint("snapshot-65536-volumes", "table", full)
    -- nvolumes 65537: refused at that field, nothing changes (no obstacles: nvolumes at +20)
    local at = 72 + 16 + get_u64(full, 80) + 16
    local over = set_u32(full, at + 20, 65537)
    t:expect_error("tilecache.snapshot_load", { cache = r2.cache, bytes = over },
                   { kind = "format", field = "nvolumes", value = "65537" })
    t:check(t:call("tilecache.snapshot_save", { cache = r2.cache }).bytes == full,
            "the refused snapshot changes nothing (SNAP-021)")
    t:call("drop", { handle = r2.cache })
    t:call("drop", { handle = c })
    -- RT-026 and SNAP-019 step 3, the same for obstacles: 65536 live, one more refused with
    -- the value 65536, their snapshot restores, `nobstacles` 65537 is refused at that field
    local ro = t:call("tilecache.soup", args)
    local ob = { shape = "cylinder", center = { 200, 0, 200 }, radius = 0.5, height = 1 }
    local lo
    for _ = 1, 65536 do lo = t:call("tilecache.add_obstacle", { cache = ro.cache, obstacle = ob }) end
    t:check(lo.id == 65536 and lo.queued == 0, "the 65536th obstacle gets id 65536 and queues nothing (RT-026, RT-130)")
    t:expect_error("tilecache.add_obstacle", { cache = ro.cache, obstacle = ob },
                   { kind = "limit", field = "obstacles", value = "65536" })
    local ofull = t:call("tilecache.snapshot_save", { cache = ro.cache }).bytes
    local ro2 = t:call("tilecache.soup", args)
    t:call("tilecache.snapshot_load", { cache = ro2.cache, bytes = ofull })
    t:check(t:call("tilecache.snapshot_save", { cache = ro2.cache }).bytes == ofull,
            "a snapshot with 65536 obstacles restores and saves back the same bytes (SNAP-019, SNAP-022)")
    t:checkpoint("snapshot-65536-obstacles", "table", ofull)
    local oat = 72 + 16 + get_u64(ofull, 80) + 16
    t:expect_error("tilecache.snapshot_load", { cache = ro2.cache, bytes = set_u32(ofull, oat + 16, 65537) },
                   { kind = "format", field = "nobstacles", value = "65537" })
    t:call("drop", { handle = ro2.cache })
    t:call("drop", { handle = ro.cache })

    -- SNAP-019 step 5: a queue entry must name a cached tile. The floor has one tile, (0, 0);
    -- an entry (-5, -5), which sorts before it, and (3, 0), after it, are refused with the
    -- entry's value; (0, 0) restores and queues that tile.
    local r3 = t:call("tilecache.soup", args)
    local s3 = t:call("tilecache.snapshot_save", { cache = r3.cache }).bytes
    local at3 = 72 + 16 + get_u64(s3, 80) + 16
    local len3 = get_u64(s3, at3 - 8)
    t:check(#s3 == 2 * (at3 + len3) and len3 == 28, "the TCAC payload of an empty cache ends the snapshot (SNAP-016)")
    local function with_queue(x, z)
      local h = set_u32(s3, at3 + 24, 1) .. hexof(string.pack("<i4i4", x, z))
      return h:sub(1, 2 * (at3 - 8)) .. hexof(string.pack("<I8", len3 + 8)) .. h:sub(2 * at3 + 1)
    end
    for _, q in ipairs({ { -5, -5 }, { 3, 0 }, { 0, -1 } }) do
      t:expect_error("tilecache.snapshot_load", { cache = r3.cache, bytes = with_queue(q[1], q[2]) },
                     { kind = "format", field = "queue[0].x", value = q[1] .. "," .. q[2] })
    end
    -- SNAP-003 inside the queue: nqueue 1 with 0, 2 or 6 bytes of the entry; the load fails at
    -- the field that does not fit, with the offset where the payload ends
    local function cut_queue(nbytes)
      local h = set_u32(s3, at3 + 24, 1) .. hexof(string.pack("<i4i4", 0, 0)):sub(1, 2 * nbytes)
      return h:sub(1, 2 * (at3 - 8)) .. hexof(string.pack("<I8", len3 + nbytes)) .. h:sub(2 * at3 + 1)
    end
    for _, q in ipairs({ { 0, "queue[0].x" }, { 2, "queue[0].x" }, { 6, "queue[0].z" } }) do
      t:expect_error("tilecache.snapshot_load", { cache = r3.cache, bytes = cut_queue(q[1]) },
                     { kind = "format", field = q[2], value = tostring(at3 + len3 + q[1]) })
    end
    t:check(t:call("tilecache.snapshot_save", { cache = r3.cache }).bytes == s3, "the refused snapshots change nothing (SNAP-021)")
    t:call("tilecache.snapshot_load", { cache = r3.cache, bytes = with_queue(0, 0) })
    local q = t:call("tilecache.queue", { cache = r3.cache }).queue
    t:check(#q == 1 and q[1][1] == 0 and q[1][2] == 0, "a queue entry naming the cached tile restores (SNAP-019, SNAP-020)")
    t:call("drop", { handle = r3.cache })
  end,
}
