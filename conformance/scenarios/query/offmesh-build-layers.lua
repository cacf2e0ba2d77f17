-- query/offmesh-build-layers: definitions on the layer-first path (spec/build3d-polys.md
-- POLY-243, build3d-runtime.md RT-086): two floors stacked 3 apart (Small preset, partition
-- layers, no detail sampling; the lower floor a ramp from y 0 to 0.5, so its vertices' local
-- y differ), so a column has two layer tiles. A start near the lower floor
-- goes to its layer, one near the upper floor to the other, one above both to the upper
-- (least distance), one between them at the lower's side; a drop from the upper floor to the
-- lower connects them: a path from the upper floor to the lower one is found only with it.
-- The mesh is compared with the Lua placement (lib/offmesh3d.lua, POLY-243 by world y ranges).
local S = require("soups3d")
local O = require("offmesh3d")
local Q = require("query")

local function stacked(t)
  local v = { { 0, 0, 0 }, { 0, 0, 4 }, { 4, 0.5, 4 }, { 4, 0.5, 0 },
              { 0, 3, 0 }, { 0, 3, 4 }, { 4, 3, 4 }, { 4, 3, 0 } }
  return S.soup(t, v, { { 0, 1, 2 }, { 0, 2, 3 }, { 4, 5, 6 }, { 4, 6, 7 } })
end

local function link(s, e, id, bi)
  return { start = s, ["end"] = e, radius = 0.5, bidirectional = bi, area = 0, flags = 1,
           user_id = id }
end

return {
  title = "Off-mesh definitions on layered tiles: the layer of least vertical distance",
  clauses = { "POLY-243", "POLY-244", "RT-086" },
  run = function(t)
    local links = {
      link({ 2, 3.1, 2 }, { 2.5, 0.1, 2.5 }, 1, false), -- on the upper floor, drops down
      link({ 1, 0.2, 1 }, { 1, 0.2, 3 }, 2, true),      -- the lower floor
      link({ 3, 9.0, 3 }, { 3, 3.0, 1 }, 3, false),     -- above both: the upper
      link({ 1, 1.0, 3 }, { 1, 0.0, 2 }, 4, false),     -- nearer the lower
      link({ 3, 1.6, 1 }, { 3, 3.0, 3 }, 5, false),     -- nearer the lower's top than the upper
    }
    local args = { preset = "Small", partition = "layers", detail_sample_distance = 0,
                   soup = stacked(t) }
    local r0 = t:call("build3d.soup", args)
    args.offmesh = links
    local r1 = t:call("build3d.soup", args)
    local layers = 0
    for _, ti in ipairs(r1.tiles) do if ti.layer > 0 then layers = layers + 1 end end
    t:check(layers >= 1, "a column with two layers")
    t:check(r1.offmesh == 5, "five slots")
    local m2, count, placed = O.remade(t, r0, links)
    t:check(count == 5, "Lua places five")
    local b1 = t:call("mesh.save", { mesh = r1.mesh }).bytes
    t:check(b1 == t:call("mesh.save", { mesh = m2 }).bytes, "the Lua placement's mesh")
    local up, low = {}, {}
    for k, ti in ipairs(r1.tiles) do
      for _, e in ipairs(placed[k] or {}) do
        if ti.layer == 0 then low[#low + 1] = e.i else up[#up + 1] = e.i end
      end
    end
    t:check(#up + #low == 5 and #up >= 2 and #low >= 2, "slots on both layers")
    t:checkpoint("mesh", "mesh", b1)
    local b = t:table()
    local from, to = { 2, 3, 2 }, { 3, 0, 3 }
    local f0 = t:call("query.find_path", { mesh = r0.mesh, start = from, ["end"] = to })
    local f1 = t:call("query.find_path", { mesh = r1.mesh, start = from, ["end"] = to })
    t:check(f0.status ~= "found" and f1.status == "found", "down only through a link")
    Q.put_path(b, f0); Q.put_path(b, f1)
    t:checkpoint("paths", "table", b:hex())
  end,
}
