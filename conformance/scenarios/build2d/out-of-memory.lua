-- conformance/scenarios/build2d/out-of-memory.lua
-- The out-of-memory paths of the triangulation (G2D-200 .. G2D-207, T2D-035) of a 2D
-- build, reached through the test-only knob fail_alloc (CONF-059): for every k from 1
-- until the build succeeds, the k-th counted allocation of build2d.outlines (or .tilemap)
-- fails; the answer is out_of_memory naming "region" (the triangulation's field) or
-- "memory" (the tile map's edge lists, G2D-032), no handle is used up and nothing changes (CONF-014: the same request unarmed gives the same mesh under the
-- same handle numbers), and the first k past the last allocation gives the ordinary answer.
--
-- The first input is two thin triangles whose apexes (5, 0.5) and (5, -0.5) straddle the
-- segment (0, 0)-(10, 0): the Delaunay triangulation has the edge between the apexes, so
-- the segment is inserted by G2D-204's retriangulation (its three lists allocate too).
-- Which allocations count and their order are the reference's (CONF-059): it counts 22
-- for the two triangles (the triangle store, the two edge maps, the insertion order and hull,
-- the flip stack, the three lists of the one inserted segment, the eight arrays of the
-- result); a port that does not list fail_alloc skips this scenario (CONF-055).

-- The combs of cdt-long-segment.lua add the growth of those lists past 64 entries (twice,
-- three reallocations each): 30 counted allocations.
local function combs()
  local up = { { 0, 0 }, { 100, 0 } }
  for x = 99, 1, -1 do up[#up + 1] = { x, x % 2 == 1 and 0.25 or 0.5 } end
  local lo = {}
  for x = 1, 99 do lo[#lo + 1] = { x, x % 2 == 1 and -0.25 or -0.5 } end
  lo[#lo + 1] = { 100, -1 }
  lo[#lo + 1] = { 0, -1 }
  return { up, lo }
end

local function rep(x, n, into)
  into = into or {}
  for _ = 1, n do into[#into + 1] = x end
  return into
end

-- A 12 x 6 tile map: a full first row, then columns of two cells alternating by row, so
-- the edge lists of G2D-032 grow past 64 and 128 points and past 64 segments: with the
-- corner lines that is 5 counted allocations ("memory", G2D-030 .. G2D-032) before the
-- triangulation's 19 ("region").
local function map()
  local c = {}
  for y = 0, 5 do
    for x = 0, 11 do c[#c + 1] = ((x // 2 + y) % 2 == 0 or y == 0) and 1 or 0 end
  end
  return c
end

-- Every k in 1 .. n + 1 (n = #fields): the armed build fails with out_of_memory naming
-- fields[k] (k <= n) and the
-- same request unarmed then gives the same mesh under the handle numbers it would have had
-- (CONF-014); for k = n + 1 the armed build itself succeeds. With every false only that last
-- build is made, whose handle shows that none of the n failures used one up.
local function sweep(t, name, op, args, fields, every)
  local n = #fields
  local ref = t:call(op, args)
  local bytes = t:call("mesh.save", { mesh = ref.handle }).bytes
  t:checkpoint(name, "mesh", bytes)
  local nh = 1 + #ref.tiles -- handles of one build: the mesh and its tiles
  local next_handle = ref.handle + nh
  for k = 1, n + 1 do
    t:call("fail_alloc", { after = k })
    if k <= n then
      t:expect_error(op, args, { kind = "out_of_memory", field = fields[k], value = "" })
    end
    if every or k > n then -- k > n: armed but past the last allocation
      local m = t:call(op, args)
      t:check(m.handle == next_handle, name .. ": after arming " .. k .. " no handle used up")
      t:check(t:call("mesh.save", { mesh = m.handle }).bytes == bytes, name .. ": the same mesh after " .. k)
      next_handle = next_handle + nh
      t:call("drop", { handle = m.handle })
    end
  end
end

return {
  title = "2D build: every counted allocation of the triangulation fails in turn (fail_alloc)",
  clauses = { "CONF-059", "CONF-014", "CONF-010", "G2D-204", "T2D-035" },
  run = function(t)
    sweep(t, "two-triangles", "build2d.outlines", {
      settings = { preset = "Humanoid", agent_radius = 0, cell_size = 0.25, tile_cells = 128 },
      outlines = { { { 0, 0 }, { 10, 0 }, { 5, 0.5 } }, { { 2, -3 }, { 8, -3 }, { 5, -0.5 } } },
    }, rep("region", 22), true)
    sweep(t, "combs", "build2d.outlines", {
      settings = { preset = "Humanoid", agent_radius = 0, cell_size = 1, tile_cells = 512, origin = { -10, -10 } },
      outlines = combs(),
    }, rep("region", 30))
    sweep(t, "tilemap", "build2d.tilemap", {
      settings = { preset = "Humanoid", agent_radius = 0, cell_size = 0.5, tile_cells = 64 },
      width = 12, height = 6, cells = map(), map_origin = { 0, 0 }, map_cell = 1,
    }, rep("region", 19, rep("memory", 5)), true)
  end,
}
