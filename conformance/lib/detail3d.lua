-- detail3d.lua -- the build3d/detail-* scenarios: whole builds WITH height sampling
-- (build3d-polys.md section 4, POLY-203 .. POLY-209, POLY-250 .. POLY-257), shared by their
-- files (require "detail3d"). Each build is a "mesh" checkpoint (mesh.save, MESH-040: the
-- per-tile parts of the mesh artifact name the tile that differs) and every tile's detail
-- mesh is checked from tile.view: one record per polygon, packed (FMT-022, FMT-023); every
-- triangle's indices in range and its polygon's vertices all used (POLY-254); flags only on
-- bits 0, 2, 4 (FMT-026); triangles counter-clockwise in their binary32 positions (the sign
-- of a cross product of binary32 differences is exact in binary64) and their areas summing
-- to the polygon's area up to the rounding of the positions (POLY-256); every detail vertex
-- inside the tile's square and within FMT-011's height bound.
local pipeline3d = require("pipeline3d")

local M = {}

local function f32(x) return (string.unpack("<f", string.pack("<f", x))) end

-- twice the signed area of (a, b, c) in the (x, z) plane
local function cross(a, b, c) return (b[1] - a[1]) * (c[3] - a[3]) - (b[3] - a[3]) * (c[1] - a[1]) end

local function check_tile(t, tag, v, s, st)
  local fw = f32(s.tile_cells * s.cell_size)
  local ylim = 16384 * s.cell_size
  t:check(#v.detail == #v.polys, tag .. ": one detail record per polygon (FMT-022)")
  local vb, tb = 0, 0
  for pi, poly in ipairs(v.polys) do
    local d = v.detail[pi]
    local r = { d.vert_base, d.vert_count, d.tri_base, d.tri_count }
    local n = #poly.verts
    t:check(r[1] == vb and r[3] == tb and r[4] >= 1, tag .. ": records packed (FMT-023)")
    t:check(n + r[2] <= 128, tag .. ": at most 128 points per polygon (POLY-208)")
    vb, tb = vb + r[2], tb + r[4]
    local P = {}
    for k = 1, n do P[k - 1] = v.verts[poly.verts[k] + 1] end
    for k = 1, r[2] do P[n + k - 1] = v.detail_verts[r[1] + k] end
    local parea = 0
    for k = 1, n - 2 do parea = parea + cross(P[0], P[k], P[k + 1]) end
    local area, used, ccw = 0, {}, true
    for k = 1, r[4] do
      local tri = v.detail_tris[r[3] + k]
      t:check(tri[1] < n + r[2] and tri[2] < n + r[2] and tri[3] < n + r[2],
              tag .. ": triangle indices in range (FMT-025)")
      t:check(tri[4] & 0xEA == 0, tag .. ": edge flags on bits 0, 2, 4 (FMT-026)")
      local c = cross(P[tri[1]], P[tri[2]], P[tri[3]])
      if not (c > 0) then ccw = false end
      area = area + c
      used[tri[1]], used[tri[2]], used[tri[3]] = true, true, true
    end
    t:check(ccw, tag .. ": detail triangles counter-clockwise in binary32 (POLY-255)")
    t:check(math.abs(area - parea) <= 1e-5 * parea,
            tag .. ": triangles cover the polygon (POLY-256)")
    for k = 0, n - 1 do t:check(used[k], tag .. ": every polygon vertex in a triangle") end
    st.polys, st.verts, st.tris = st.polys + 1, st.verts + r[2], st.tris + r[4]
  end
  t:check(vb == #v.detail_verts and tb == #v.detail_tris, tag .. ": counts (FMT-023)")
  for _, p in ipairs(v.detail_verts) do
    t:check(p[1] >= 0 and p[1] <= fw and p[3] >= 0 and p[3] <= fw,
            tag .. ": detail vertex in the square (FMT-010)")
    t:check(p[2] >= -ylim and p[2] <= ylim, tag .. ": detail vertex height (FMT-011, POLY-254)")
  end
end

-- One build: grid, tiles in build order, detail checks, the mesh checkpoint.
local function check_build(t, tag, r, s)
  t:check(r.ntx >= 1 and r.ntz >= 1 and #r.tiles >= 1, tag .. ": tiles built")
  local st = { polys = 0, verts = 0, tris = 0 }
  for _, ti in ipairs(r.tiles) do
    local v = t:call("tile.view", { tile = ti.tile })
    check_tile(t, tag .. " tile " .. ti.x .. "," .. ti.z, v, s, st)
  end
  t:check(st.polys == r.npolys, tag .. ": every polygon has its record")
  t:check(st.verts > 0, tag .. ": sampling added detail vertices")
  local bytes = t:call("mesh.save", { mesh = r.mesh }).bytes
  t:checkpoint(tag, "mesh", bytes)
  return bytes
end

local CLAUSES = { "POLY-202", "POLY-203", "POLY-204", "POLY-205", "POLY-206", "POLY-207",
                  "POLY-208", "POLY-209", "POLY-250", "POLY-251", "POLY-252", "POLY-253",
                  "POLY-254", "POLY-255", "POLY-256", "POLY-217", "POLY-226" }

-- build3d/detail-<level>: presets as they are (DetailSampleDistance 6 cells, tolerance 1
-- row), the partitions given; then the same soup with denser sampling (2 cells, 0.5 rows,
-- through the settings object) and, for the first partition, a chunked build that must give
-- the soup's bytes (POLY-226).
function M.soup_scenario(level, presets, parts)
  return {
    title = "Detail mesh with height sampling: level " .. level,
    clauses = CLAUSES,
    run = function(t)
      for _, preset in ipairs(presets) do
        local s = t:call("settings.preset", { name = preset }).settings
        for i, part in ipairs(parts) do
          local args = { preset = preset, partition = part, level = pipeline3d.LEVELS[level] }
          local r = t:call("build3d.soup", args)
          local bytes = check_build(t, level .. "-" .. part .. "-" .. preset, r, s)
          if i == 1 then
            args.chunk_size = 7.5
            local c = t:call("build3d.chunk", args)
            t:check(t:call("mesh.save", { mesh = c.mesh }).bytes == bytes,
                    level .. "-" .. part .. "-" .. preset .. ": chunked build equals the soup's")
          end
        end
        local dense = t:call("settings.preset", { name = preset }).settings
        dense.partition = parts[1]
        dense.detail_sample_distance = 2
        dense.detail_sample_max_error = 0.5
        local r = t:call("build3d.soup", { settings = dense, level = pipeline3d.LEVELS[level] })
        check_build(t, level .. "-" .. parts[1] .. "-" .. preset .. "-dense", r, s)
      end
    end,
  }
end

-- build3d/detail-<field>: solid columns of pipeline3d.FIELDS, Humanoid, sampling as preset.
function M.heightfield_scenario(fields, parts)
  return {
    title = "Detail mesh with height sampling: solid columns " .. table.concat(fields, ", "),
    clauses = CLAUSES,
    run = function(t)
      local s = t:call("settings.preset", { name = "Humanoid" }).settings
      for _, field in ipairs(fields) do
        local cols = pipeline3d.FIELDS[field]()
        for _, part in ipairs(parts) do
          local r = t:call("build3d.heightfield", { preset = "Humanoid", partition = part,
                                                    columns = cols })
          check_build(t, field .. "-" .. part, r, s)
        end
      end
    end,
  }
end

return M
