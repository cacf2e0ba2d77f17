-- query/offmesh-build-errors: every error of off-mesh link definitions given with a build:
-- the protocol's decoding (spec/build3d-polys.md POLY-234, argument errors naming the member),
-- the count limit and the value checks of POLY-241 (out_of_range with field and value, in
-- the clause's order: start, end, radius, area, bidirectional; the first bad definition),
-- and POLY-244's start height bound (FMT-011) found when the tile is made.
local S = require("soups3d")

local function good(over)
  local l = { start = { 1, 0, 1 }, ["end"] = { 2, 0, 2 }, radius = 0.5, bidirectional = true,
              area = 0, flags = 1, user_id = 0 }
  for k, v in pairs(over or {}) do l[k] = v end
  return l
end

return {
  title = "Errors of off-mesh link definitions given with a build",
  clauses = { "POLY-234", "POLY-241", "POLY-244" },
  run = function(t)
    local soup = S.soup(t, { { 0, 0, 0 }, { 0, 0, 6 }, { 6, 0, 6 }, { 6, 0, 0 } },
                        { { 0, 1, 2 }, { 0, 2, 3 } })
    local function err(links, kind, field, value)
      t:expect_error("build3d.soup", { preset = "Small", soup = soup, offmesh = links },
                     { kind = kind, field = field, value = value })
    end
    -- POLY-234: decoding
    err(5, "argument", "offmesh")
    err({ 5 }, "argument", "offmesh[0]")
    err({ good(), good({ start = { 1, 2 } }) }, "argument", "offmesh[1].start")
    err({ good({ ["end"] = { 1, "x", 2 } }) }, "argument", "offmesh[0].end[1]")
    err({ good({ radius = "wide" }) }, "argument", "offmesh[0].radius")
    err({ good({ bidirectional = 2 }) }, "argument", "offmesh[0].bidirectional")
    err({ good({ area = 256 }) }, "argument", "offmesh[0].area")
    err({ good({ flags = 65536 }) }, "argument", "offmesh[0].flags")
    err({ good({ user_id = -1 }) }, "argument", "offmesh[0].user_id")
    local many = {}
    for i = 1, 65537 do many[i] = 0 end
    err(many, "limit", "offmesh", "65537")
    -- POLY-241: values, in order
    err({ good({ start = { 0 / 0, 0, 1 } }) }, "out_of_range", "offmesh[0].start.x")
    err({ good({ start = { 1, 1 / 0, 1 } }) }, "out_of_range", "offmesh[0].start.y")
    -- definition 2 (its slot would be slot 1: the first starts outside the grid), so that
    -- POLY-241 and not the format's FMT-028 at Create names it
    err({ good({ start = { -1, 0, 1 } }), good(), good({ ["end"] = { 1, 0, 2.0 ^ 21 * 2 } }) },
        "out_of_range", "offmesh[2].end.z")
    err({ good({ start = { -1, 0, 1 } }), good(), good({ ["end"] = { 0 / 0, 0, 1 } }) },
        "out_of_range", "offmesh[2].end.x")
    err({ good({ start = { -1, 0, 1 } }), good(), good({ ["end"] = { 1, -1 / 0, 1 } }) },
        "out_of_range", "offmesh[2].end.y")
    err({ good({ start = { 1, 0, -2.0 ^ 22 }, radius = 0 }) }, "out_of_range", "offmesh[0].start.z")
    err({ good({ radius = 0 }) }, "out_of_range", "offmesh[0].radius", "0")
    err({ good({ radius = 2.0 ^ -17 }) }, "out_of_range", "offmesh[0].radius")
    err({ good({ radius = 2.0 ^ 16 * 2 }) }, "out_of_range", "offmesh[0].radius")
    err({ good({ area = 64, bidirectional = 1 }) }, "out_of_range", "offmesh[0].area", "64")
    -- the limits themselves pass
    local ok = t:call("build3d.soup", { preset = "Small", soup = soup, offmesh = {
      good({ radius = 2.0 ^ -16, area = 63 }), good({ radius = 2.0 ^ 16, bidirectional = 0,
      flags = 65535, user_id = 4294967295 }), good({ start = { 2.0 ^ 21, 0, 1 } }) } })
    t:check(ok.offmesh == 2, "the third starts outside the grid: dropped")
    -- POLY-244: a start more than 16384 cell sizes (0.15) above the tile's origin
    err({ good(), good({ start = { 1, 2500, 1 } }) }, "out_of_range", "offmesh[1].start.y", "2.5e+03")
    t:check(true, "done")
  end,
}
