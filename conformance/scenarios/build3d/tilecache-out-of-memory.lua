-- conformance/scenarios/build3d/tilecache-out-of-memory.lua
-- The out-of-memory paths of the run-time tile cache (RT-061: a failed call changes nothing),
-- reached through the test-only knob fail_alloc (CONF-059): for each request below, for
-- every k from 1 until the request succeeds, the k-th counted allocation fails; the answer is
-- out_of_memory naming the field RT-061 gives (`obstacles`, `volumes`, `cache` for the
-- cache's own data, `mesh` for its mesh's batch, MESH-001; `snapshot` for RestoreState), the
-- cache is unchanged (its mesh bytes, its snapshot -- obstacles, volumes, ids and queue --,
-- and the request sent again unarmed gives the ordinary answer), and the first k past the
-- last allocation gives the ordinary answer.
--
-- The level: a walled room of 14 x 4 floor columns over two tiles of 8 cells (a heightfield,
-- cell size and height 1, agent radius 0, layers: the repair path of RT-101). The history:
-- an obstacle removing two spans of tile (0, 0) (Update repairs the layer: the repair's own
-- arrays count), an obstacle removing the whole floor of tile (1, 0) (Update removes its
-- tile, RT-065 case 4), its removal (Update adds the tile back at an empty position: the
-- batch's add, case 3), a volume of another area (the fallback, RT-101 (a)), RestoreState
-- of a snapshot taken after the first obstacle and the Update after it, RestoreState of one
-- taken after the volume, and TileCache.Layer on the repaired layer.
--
-- Which allocations count, and their order, are the reference's (CONF-059): a port that
-- does not list fail_alloc skips this scenario (CONF-055). The lists below are the
-- reference's answers in allocation order (like a golden: rederive them from the error
-- answers of the sweep when the reference's allocations change). What the reference counts
-- (spec/conformance.md CONF-059): the cache's obstacle and volume arrays, Update's plan (its
-- steps, the areas in force, fresh last-built lists), the repair's working arrays and result,
-- the commit's change list and the mesh's batch (slot copy, tile copies with their arrays
-- and polygon state, portals, column index, links, order), RestoreState's records and its
-- mesh part (tiles, slots, states, links), Layer's areas, repair and regions. Inside the
-- repair, the trace of a new loop (REG-208) and the join (REG-216 ..) are the contour
-- stage's code and name its field, `memory` (REG-200; RT-061: the field the failing stage
-- names). The counts per sweep: the repairing Update 64 (14 + 2 + 12 + 8 + 4 of the cache
-- and the repair, 24 of the batch), Layer 39, the removing Update 57, the adding one 65, the
-- volume's (the fallback: no repair, the from-scratch build is not counted) 39, RestoreState
-- 35, the Update after it 65 (the restore forgot the last-built lists, RT-133: a fresh one is
-- allocated), RestoreState of a snapshot with the volume and an empty queue 34 (a volume
-- record array, no queue arrays), AddObstacle and AddVolume 1 each (the array's first
-- growth), then none (capacity 8).

local ROWS_FLOOR, ROWS_WALL = 10, 30

local MAP = {
  "################",
  "#11111111111111#",
  "#11111111111111#",
  "#11111111111111#",
  "#11111111111111#",
  "################",
}

local function columns(map)
  local w, d = #map[1], #map
  local spans = {}
  for z = 1, d do
    for x = 1, w do
      local ch = map[z]:sub(x, x)
      if ch == "#" then spans[#spans + 1] = { { 0, ROWS_WALL, 0 } }
      else spans[#spans + 1] = { { 0, ROWS_FLOOR, tonumber(ch) } } end
    end
  end
  return { origin = { 0, 0, 0 }, width = w, depth = d, spans = spans }
end

-- the box obstacle that removes the floor spans of columns x0..x1, z0..z1 (RT-021, RT-022)
local function cut(x0, z0, x1, z1)
  return { shape = "box", bmin = { x0 + 0.25, 5, z0 + 0.25 }, bmax = { x1 + 0.75, 15, z1 + 0.75 } }
end

-- runs("a", 2, "b", 1) = { "a", "a", "b" }: the fields of a sweep, run by run
local function runs(...)
  local a, out = { ... }, {}
  for i = 1, #a, 2 do
    for _ = 1, a[i + 1] do out[#out + 1] = a[i] end
  end
  return out
end

-- MESH-041: the number of tile records of mesh.save bytes (hex)
local function ntiles(hex)
  return string.unpack("<I4", (hex:sub(137, 144):gsub("..", function(x) return string.char(tonumber(x, 16)) end)))
end

-- a canonical text of a flat answer (its keys sorted) for comparing two answers
local function opjson(a)
  if a == nil then return "nil" end
  local keys = {}
  for k in pairs(a) do keys[#keys + 1] = k end
  table.sort(keys)
  local out = {}
  for _, k in ipairs(keys) do out[#out + 1] = k .. "=" .. tostring(a[k]) end
  return table.concat(out, ";")
end

return {
  title = "Tile cache: every counted allocation of its operations fails in turn (fail_alloc)",
  clauses = { "CONF-059", "CONF-014", "CONF-010", "RT-061", "RT-065", "RT-101", "RT-133",
              "RT-154", "MESH-001" },
  run = function(t)
    local s = require("tilecache").unit_settings(t, 8)
    s.max_simplification_error = 0.4
    s.max_edge_len = 0
    local b = t:call("tilecache.heightfield", { settings = s, columns = columns(MAP) })
    local c, m = b.cache, b.mesh
    -- a control cache with the same history, never armed: its last-built areas (not in a
    -- snapshot, RT-133) drive its updates, so equal meshes after every update show that no
    -- failed request changed the hidden state either
    local b2 = t:call("tilecache.heightfield", { settings = s, columns = columns(MAP) })
    local function state_of(cc, mm)
      return t:call("mesh.save", { mesh = mm }).bytes .. "/" ..
             t:call("tilecache.snapshot_save", { cache = cc }).bytes
    end
    local function state() return state_of(c, m) end
    t:check(ntiles(t:call("mesh.save", { mesh = m }).bytes) == 2, "two tiles")

    -- the sweep of one request: fields[k] for k = 1 .. #fields, then the ordinary answer,
    -- returned
    local function sweep(name, op, args, fields)
      local before = state()
      local ordinary = nil
      for k = 1, #fields + 1 do
        t:call("fail_alloc", { after = k })
        if k <= #fields then
          local e = t:expect_error(op, args, { kind = "out_of_memory", field = fields[k], value = "" })
          if not e then return nil end -- the sweep is out of step: stop here (recorded)
          t:check(state() == before, name .. ": after failing allocation " .. k .. " the same cache")
        else
          ordinary = t:call(op, args) -- past the last allocation: the ordinary answer
        end
      end
      local args2 = {}
      for key, val in pairs(args) do args2[key] = val end
      args2.cache = b2.cache
      local control = t:call(op, args2)
      t:check(opjson(control) == opjson(ordinary), name .. ": the control cache's answer")
      t:check(state_of(b2.cache, b2.mesh) == state(), name .. ": the control cache's state")
      return ordinary
    end

    local CUT = cut(2, 2, 3, 2)
    local a1 = sweep("obstacle", "tilecache.add_obstacle", { cache = c, obstacle = CUT },
                     { "obstacles" })
    t:check(a1 and a1.id == 1 and a1.queued == 1, "the obstacle: id 1, one tile queued")
    local snap1 = t:call("tilecache.snapshot_save", { cache = c }).bytes
    local u1 = sweep("update-repair", "tilecache.update", { cache = c },
                      runs("cache", 14, "memory", 2, "cache", 12, "memory", 8, "cache", 4, "mesh", 24))
    t:check(u1 and u1.processed == 1 and u1.queued == 0, "the repair's update")
    local mesh1 = t:call("mesh.save", { mesh = m }).bytes
    t:checkpoint("repaired", "mesh", mesh1)

    local l1 = sweep("layer", "tilecache.layer", { cache = c, tile = { 0, 0 }, layer = 0 },
                      runs("cache", 13, "memory", 2, "cache", 13, "memory", 8, "cache", 3))
    t:checkpoint("layer", "table", l1 and l1.bytes or "", "contours")

    local a2 = sweep("whole-tile", "tilecache.add_obstacle", { cache = c, obstacle = cut(8, 1, 14, 4) },
                      {})
    t:check(a2 and a2.id == 2, "the second obstacle: id 2")
    local u2 = sweep("update-remove", "tilecache.update", { cache = c },
                      runs("cache", 14, "memory", 2, "cache", 12, "memory", 8, "cache", 10, "mesh", 11))
    t:check(u2 and u2.processed >= 1, "the removing update")
    t:check(ntiles(t:call("mesh.save", { mesh = m }).bytes) == 1, "tile (1, 0) removed (RT-065 case 4)")
    t:checkpoint("removed", "mesh", t:call("mesh.save", { mesh = m }).bytes)

    local r2 = sweep("remove-obstacle", "tilecache.remove_obstacle", { cache = c, id = 2 }, {})
    t:check(r2 ~= nil, "the second obstacle removed")
    local u3 = sweep("update-add", "tilecache.update", { cache = c },
                      runs("cache", 14, "memory", 2, "cache", 12, "memory", 8, "cache", 5, "mesh", 24))
    t:check(u3 and u3.processed >= 1, "the adding update")
    t:check(ntiles(t:call("mesh.save", { mesh = m }).bytes) == 2, "tile (1, 0) added back (RT-065 case 3)")
    t:checkpoint("added", "mesh", t:call("mesh.save", { mesh = m }).bytes)

    local v = { points = { { 9.25, 1.25 }, { 10.75, 1.25 }, { 10.75, 2.75 }, { 9.25, 2.75 } },
                ymin = 5, ymax = 15, area = 2 }
    local a3 = sweep("volume", "tilecache.add_volume", { cache = c, volume = v }, { "volumes" })
    t:check(a3 and a3.id == 1, "the volume: id 1")
    local u4 = sweep("update-volume", "tilecache.update", { cache = c },
                      runs("cache", 15, "mesh", 24))
    t:check(u4 and u4.processed >= 1, "the volume's update (fallback (a))")
    t:checkpoint("volume", "mesh", t:call("mesh.save", { mesh = m }).bytes)
    local snap2 = t:call("tilecache.snapshot_save", { cache = c }).bytes -- obstacle 1, the volume

    local r = sweep("restore", "tilecache.snapshot_load", { cache = c, bytes = snap1 },
                      runs("snapshot", 35))
    t:check(r ~= nil and t:call("tilecache.snapshot_save", { cache = c }).bytes == snap1,
            "restored: the snapshot's state")
    -- RT-133: the restore forgot every last-built list, so this Update makes fresh ones
    local u5 = sweep("update-restored", "tilecache.update", { cache = c }, 
                      runs("cache", 14, "memory", 2, "cache", 12, "memory", 8, "cache", 5, "mesh", 24))
    t:check(u5 and u5.processed == 1 and t:call("mesh.save", { mesh = m }).bytes == mesh1,
            "after the restore the repair's mesh again")
    -- RestoreState of a snapshot holding a volume (its volume records allocate too)
    local r2s = sweep("restore-volume", "tilecache.snapshot_load", { cache = c, bytes = snap2 },
                      runs("snapshot", 34))
    t:check(r2s ~= nil and t:call("tilecache.snapshot_save", { cache = c }).bytes == snap2,
            "restored: the second snapshot's state")
  end,
}
