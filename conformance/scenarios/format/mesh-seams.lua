-- Stitching across seams whose two sides are cut at different vertices or slope against
-- each other (MESH-023's rule: the edges cross, or a gap at an end of the overlap is within
-- twice the climb; issue 17). Tiling: origin 0, cell 0.5, 8 cells a side (local x, z over
-- [0, 4]); climb 0.5, so reach = 1. Each case is a pair of tiles at (0, z) and (1, z), rows
-- two apart so that no two cases touch. The links are read back from the mesh's bytes
-- (MESH-041, MESH-043) and compared with the ones worked out below.
local fx = require("meshfix")
local ref = fx.ref

-- A tile cut into strips [z_k, z_k+1] across x in [0, 4] (as meshfix.strips), with the local
-- height of the cut k's vertex hl[k] at x = 0 and hr[k] at x = 4.
local function strips_h(x, z, layer, origin_y, cuts, hl, hr)
  local d = fx.strips(x, z, layer, origin_y, cuts)
  for k = 0, #cuts - 1 do
    d.verts[2 * k + 1][2] = hl[k + 1]
    d.verts[2 * k + 2][2] = hr[k + 1]
  end
  return d
end

-- hex text -> bytes
local function unhex(h) return (h:gsub("..", function(c) return string.char(tonumber(c, 16)) end)) end

-- The external links of every slot, from the mesh bytes: links[slot] = list of
-- { poly, edge, side, target_edge, target (16 hex digits), lo, hi }.
local function external_links(hex)
  local b = unhex(hex)
  local ntiles = string.unpack("<I4", b, 69)
  local at, out = 73, {}
  for _ = 1, ntiles do
    local slot = string.unpack("<I4", b, at)
    local tl = string.unpack("<I4", b, at + 20)
    at = at + 24 + tl
    local ne = string.unpack("<I4", b, at)
    at = at + 4 + 8 * ne
    local nl = string.unpack("<I4", b, at)
    at = at + 4
    local list = {}
    for _ = 1, nl do
      local poly, edge, side, tedge, _, target, lo, hi = string.unpack("<I4BBBBI8ff", b, at)
      at = at + 24
      if side ~= 0xFF then
        list[#list + 1] = { poly, edge, side, tedge, string.format("%016x", target), lo, hi }
      end
    end
    out[slot] = list
  end
  return out
end

return {
  title = "Stitching seams cut at different vertices, crossing and at twice the climb",
  clauses = { "MESH-021", "MESH-022", "MESH-023", "MESH-024", "MESH-026", "MESH-041", "MESH-043" },
  run = function(t)
    local m = t:call("mesh.create", { tiling = fx.TILING, walkable_climb = 0.5, max_tiles = 16 }).handle
    local function add(desc)
      return t:call("mesh.add_tile", { mesh = m, tile = t:call("tile.create", desc).handle }).ref
    end
    local F, F2 = { 0, 0 }, { 0, 0, 0 }
    -- row 0 (slots 0, 1): A's +x edge is straight at height 0; B cuts its -x edge at z = 2
    -- with the vertex at height 1.75. B strip 0 over [0, 2]: gaps 0 (z 0) and -1.75 (z 2);
    -- strip 1 over [2, 4]: gaps -1.75 and 0. A gap of 0 at one end links both (under "both
    -- ends within the climb" neither linked).
    add(strips_h(0, 0, 0, 0, { 0, 4 }, F, F))
    add(strips_h(1, 0, 0, 0, { 0, 2, 4 }, { 0, 1.75, 0 }, F2))
    -- row 2 (slots 2, 3): A's +x edge rises 0 -> 3, B's -x edge falls 3 -> 0: gaps -3 (z 0)
    -- and 3 (z 4), opposite signs: the edges cross, linked over [0, 4].
    add(strips_h(0, 2, 0, 0, { 0, 4 }, F, { 0, 3 }))
    add(strips_h(1, 2, 0, 0, { 0, 4 }, { 3, 0 }, F))
    -- row 4 (slots 4 .. 7): A flat at 0; B layer 0 flat at origin_y 1 (gaps -1 = -reach:
    -- linked); layer 1 at 1 + 2^-20 (beyond the reach at both ends: not linked); layer 2 at
    -- 0.75 (more than the climb, within the reach: linked).
    add(strips_h(0, 4, 0, 0, { 0, 4 }, F, F))
    add(strips_h(1, 4, 0, 1, { 0, 4 }, F, F))
    add(strips_h(1, 4, 1, 1.00000095367431640625, { 0, 4 }, F, F))
    add(strips_h(1, 4, 2, 0.75, { 0, 4 }, F, F))
    -- row 6 (slots 8, 9): A flat at 0, B's -x edge at 1.5 -> 4: gaps -1.5 and -4, same sign,
    -- both beyond the reach: not linked.
    add(strips_h(0, 6, 0, 0, { 0, 4 }, F, F))
    add(strips_h(1, 6, 0, 0, { 0, 4 }, { 1.5, 4 }, F))
    local bytes = t:call("mesh.save", { mesh = m }).bytes
    t:checkpoint("seams", "mesh", bytes)

    -- the expected external links, slot by slot, in canonical order (MESH-024): A's poly 0
    -- edge 1 (side 2, +x) and the neighbours' edge 3 (side 0, -x); target edge 3 or 1
    local E = {
      [0] = { { 0, 1, 2, 3, ref(1, 1, 0), 0, 2 }, { 0, 1, 2, 3, ref(1, 1, 1), 2, 4 } },
      [1] = { { 0, 3, 0, 1, ref(1, 0, 0), 0, 2 } },
      [2] = { { 0, 1, 2, 3, ref(1, 3, 0), 0, 4 } },
      [3] = { { 0, 3, 0, 1, ref(1, 2, 0), 0, 4 } },
      [4] = { { 0, 1, 2, 3, ref(1, 5, 0), 0, 4 }, { 0, 1, 2, 3, ref(1, 7, 0), 0, 4 } },
      [5] = { { 0, 3, 0, 1, ref(1, 4, 0), 0, 4 } },
      [6] = {},
      [7] = { { 0, 3, 0, 1, ref(1, 4, 0), 0, 4 } },
      [8] = {},
      [9] = {},
    }
    -- slot 1's strip 1 links back to A too: poly 1 edge 3
    table.insert(E[1], { 1, 3, 0, 1, ref(1, 0, 0), 2, 4 })
    local got = external_links(bytes)
    for s = 0, 9 do
      local g, e = got[s] or {}, E[s]
      t:check(#g == #e, "slot " .. s .. ": " .. #e .. " external links (got " .. #g .. ")")
      for i = 1, math.min(#g, #e) do
        for f = 1, 7 do
          t:check(g[i][f] == e[i][f], "slot " .. s .. " link " .. i .. " field " .. f .. ": " ..
                  tostring(e[i][f]) .. " (got " .. tostring(g[i][f]) .. ")")
        end
      end
    end
  end,
}
