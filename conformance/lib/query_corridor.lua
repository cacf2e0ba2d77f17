-- query_corridor.lua -- shared by the query/corridor-* scenarios (spec/query-corridor.md, QCR;
-- require "query_corridor"), on top of conformance/lib/query.lua.
--
-- put_state(b, s): the table encoding of a corridor state (position, target, the list by
--   canonical ids, never references: QRY-024).
-- put_corners(b, r): a find_corners answer (corners and truncated).
-- check_state(t, V, s, tag): the list's consecutive polygons share an edge or a link (QCR-211,
--   QCR-221, QCR-222, QCR-242 keep the list a walk) and the position lies in c[0] (QCR-203).
-- walk(t, mesh, V, cor, b, steps, tag, opts): an agent follows its corridor: each step finds
--   the next corners, moves its position one step toward the first, optimises visibility
--   toward the last corner every step and topology every fourth; every state hashed into b.
-- level_scenario(name, nagents, steps): agents on a level of query.lua's LEVELS.
local Q = require("query")
local M = {}

function M.put_state(b, s)
  Q.put_point(b, s.position)
  Q.put_point(b, s.target)
  b:u32(#s.path)
  for _, p in ipairs(s.path) do Q.put_poly(b, p) end
end

function M.put_corners(b, r)
  Q.put_corners(b, r.corners)
  b:bool(r.truncated)
end

local function near_inside(vs, x, z)
  for j = 1, #vs do
    local a, c = vs[j], vs[j % #vs + 1]
    local ex, ez = c[1] - a[1], c[3] - a[3]
    local len = math.sqrt(ex * ex + ez * ez)
    if ex * (z - a[3]) - ez * (x - a[1]) < -1e-6 * len then return false end
  end
  return true
end

function M.check_state(t, V, s, tag)
  Q.check_adjacent(t, V, s.path, tag)
  local vs = Q.poly_verts(V, s.path[1])
  t:check(near_inside(vs, s.position[1], s.position[3]),
          tag .. ": the position lies in the first polygon of the list (QCR-203, QSF-115)")
end

-- one step of length `step` in the plane from p toward q (y of q), or q itself
local function toward(p, q, step)
  local dx, dz = q[1] - p[1], q[3] - p[3]
  local d = math.sqrt(dx * dx + dz * dz)
  if d <= step then return { q[1], q[2], q[3] } end
  local k = step / d
  return { p[1] + dx * k, q[2], p[3] + dz * k }
end
M.toward = toward

function M.walk(t, mesh, V, cor, b, steps, tag, opts)
  opts = opts or {}
  local s
  for i = 1, steps do
    local fc = t:call("corridor.find_corners", { corridor = cor, mesh = mesh, max_corners = opts.max_corners or 3 })
    M.put_corners(b, fc)
    if #fc.corners == 0 then break end
    local first, last = fc.corners[1], fc.corners[#fc.corners]
    local mv = t:call("corridor.move_position", { corridor = cor, mesh = mesh,
      pos = toward(fc.position, first.point, opts.step or 1.5), max_visited = opts.max_visited })
    b:bool(mv.truncated); b:bool(mv.search_truncated)
    M.put_state(b, mv)
    local ov = t:call("corridor.optimize_visibility", { corridor = cor, mesh = mesh,
      next = last.point, range = opts.range or 6 })
    b:bool(ov.spliced); b:bool(ov.truncated)
    s = ov
    if i % 4 == 0 then
      local ot = t:call("corridor.optimize_topology", { corridor = cor, mesh = mesh,
        max_nodes = opts.topology_nodes })
      b:bool(ot.spliced); b:bool(ot.truncated)
      s = ot
    end
    M.put_state(b, s)
    M.check_state(t, V, s, tag .. " step " .. i)
  end
  return s
end

function M.level_scenario(name, nagents, steps)
  local L = Q.LEVELS[name]
  return {
    title = "Path corridors on the " .. name .. " level: set from find path, walked by corners, " ..
            "moves and optimisations, the target moved, validity after an edit of flags",
    clauses = { "QCR-201", "QCR-202", "QCR-203", "QCR-211", "QCR-220", "QCR-221", "QCR-222",
                "QCR-230", "QCR-231", "QCR-240", "QCR-241", "QCR-242", "QCR-250", "QCR-251",
                "QCR-252", "QCR-253", "QCR-260", "QCR-290", "QCR-291" },
    run = function(t)
      local level = { name = L.name, seed = L.seed, size = L.size }
      local r = t:call("build3d.soup", { preset = "Humanoid", partition = L.partition, level = level })
      local handles, list = {}, {}
      for _, ti in ipairs(r.tiles) do handles[#handles + 1] = ti.tile end
      local V = Q.views(t, handles)
      for _, ti in ipairs(r.tiles) do list[#list + 1] = V[ti.x .. "," .. ti.z .. "," .. ti.layer] end
      local before = t:call("mesh.save", { mesh = r.mesh }).bytes
      local g = t:call("prng.new", { seed = "000000000000c0dd" }).handle
      local function below(n)
        return tonumber(t:call("prng.below", { prng = g, n = string.format("%016x", n),
                                               count = 1 }).values[1], 16)
      end
      local function draw()
        local v = list[below(#list) + 1]
        local k = below(#v.polys)
        local c = Q.centre(v, k)
        local n = t:call("query.nearest_poly", { mesh = r.mesh, center = { c[1], c[2] + 0.3, c[3] },
                                                 half_extents = { 1, 2, 1 } })
        return n.found and n.point or nil
      end
      local walked = 0
      for a = 1, nagents do
        local b = t:table()
        local fp -- up to 10 drawn pairs until one has a path of at least 3 polygons
        for _ = 1, 10 do
          local s, e = draw(), draw()
          if s and e then
            fp = t:call("query.find_path", { mesh = r.mesh, start = s, ["end"] = e })
            b:u8(fp.status == "found" and 1 or 0)
            if fp.status == "found" and #fp.path >= 3 then break end
            fp = nil
          end
        end
        do
          if fp then
            local cor = t:call("corridor.create", { max_path = 256 }).handle
            local st = t:call("corridor.set", { corridor = cor, mesh = r.mesh, start = fp.start.point,
                                                ["end"] = fp["end"].point, path = Q.refs(fp.path) })
            M.put_state(b, st)
            local tag = name .. " agent " .. a
            M.check_state(t, V, st, tag .. " set")
            local fin = M.walk(t, r.mesh, V, cor, b, steps, tag)
            if fin then walked = walked + 1 end
            -- the target moves a little (QCR-222)
            local mt = t:call("corridor.move_target", { corridor = cor, mesh = r.mesh,
              pos = toward(fp["end"].point, fp.start.point, 1.0) })
            b:bool(mt.truncated); M.put_state(b, mt)
            Q.check_adjacent(t, V, mt.path, tag .. " target moved")
            local iv = t:call("corridor.is_valid", { corridor = cor, mesh = r.mesh })
            t:check(iv.valid and iv.checked == #mt.path, tag .. ": a corridor on an unchanged mesh is valid (QCR-251)")
            b:bool(iv.valid); b:u32(iv.checked)
            t:call("drop", { handle = cor })
          end
        end
        t:checkpoint(string.format("%s agent %d", name, a), "table", b:hex())
      end
      t:check(walked >= nagents // 2, name .. ": most agents walked")
      -- QRY-001 / QCR-202: the corridor ops changed nothing of the mesh
      t:check(t:call("mesh.save", { mesh = r.mesh }).bytes == before, name .. ": mesh unchanged (QCR-202)")
    end,
  }
end

return M
