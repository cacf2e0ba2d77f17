-- build3d/detail-heightfield: height sampling (build3d-polys.md section 4) on solid columns:
-- two floors joined by a ramp, and gentle waves; preset Humanoid, watershed; see
-- conformance/lib/detail3d.lua.
return require("detail3d").heightfield_scenario({ "floors", "waves" }, { "watershed" })
