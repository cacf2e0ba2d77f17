-- conformance/scenarios/build2d/settings-bounds.lua
-- The last rows of T2D-012's validation, each bound reached exactly (accepted) and exceeded
-- by the least step (the next binary64: 2^21 + 2^-31, -2^21 - 2^-31): TileOrigin.x, then
-- TileOrigin.z, then FloorY, each finite and in [-2^21, 2^21], then Area; and the snap grid
-- rule (T2D-020) before them. Values in shortest round-trip form.
local SQ = { { { 0, 0 }, { 10, 0 }, { 10, 10 }, { 0, 10 } } }
local B = 2097152            -- 2^21
local UP = B + 2 ^ -31       -- the next binary64 above 2^21
local DN = -B - 2 ^ -31      -- the next below -2^21

return {
  title = "build2d settings: TileOrigin and FloorY at +-2^21, the order of the last checks",
  clauses = { "T2D-012", "T2D-013", "T2D-020", "T2D-021" },
  run = function(t)
    local function s(fields)
      local r = { preset = "Large" }
      for k, v in pairs(fields) do r[k] = v end
      return r
    end
    local function err(fields, kind, field, value)
      t:expect_error("build2d.outlines", { settings = s(fields), outlines = SQ },
                     { kind = kind, field = field, value = value })
    end
    local function ok(fields, name)
      local m = t:call("build2d.outlines", { settings = s(fields), outlines = SQ })
      t:check(#m.tiles == 1, name .. ": accepted, one tile")
      return m
    end
    -- TileOrigin.x (T2D-020's rule passes for Large: no SnapBits given)
    err({ origin = { UP, 0 } }, "out_of_range", "TileOrigin.x", "2097152.0000000005")
    err({ origin = { DN, 0 } }, "out_of_range", "TileOrigin.x", "-2097152.0000000005")
    err({ origin = { -1 / 0, 0 } }, "out_of_range", "TileOrigin.x", "-Infinity")
    err({ origin = { UP, UP } }, "out_of_range", "TileOrigin.x", "2097152.0000000005")
    -- TileOrigin.z after x
    err({ origin = { B, UP } }, "out_of_range", "TileOrigin.z", "2097152.0000000005")
    err({ origin = { -B, DN } }, "out_of_range", "TileOrigin.z", "-2097152.0000000005")
    -- FloorY after TileOrigin.z, Area after FloorY
    err({ origin = { 0, UP }, floor_y = UP }, "out_of_range", "TileOrigin.z", "2097152.0000000005")
    err({ floor_y = UP, area = 64 }, "out_of_range", "FloorY", "2097152.0000000005")
    err({ floor_y = DN }, "out_of_range", "FloorY", "-2097152.0000000005")
    -- the snap grid rule comes before the origin: SnapBits 9 is finer than 0.5 / 256
    -- (FinestSnapBits(0.5) = 9: 2^-9 >= 0.5 / 256 = 2^-9; 10 is refused)
    err({ snap_bits = 10, origin = { UP, 0 } }, "argument", "SnapBits", "10")
    -- the bounds themselves are accepted; the mesh's origin is TileOrigin (T2D-013)
    local a = ok({ origin = { B, -B }, floor_y = B }, "TileOrigin (2^21, -2^21), FloorY 2^21")
    t:checkpoint("origin-max", "mesh", t:call("mesh.save", { mesh = a.handle }).bytes)
    local b = ok({ origin = { -B, B }, floor_y = -B, snap_bits = 9 }, "TileOrigin (-2^21, 2^21), FloorY -2^21")
    t:checkpoint("origin-min", "mesh", t:call("mesh.save", { mesh = b.handle }).bytes)
  end,
}
