-- build3d/tilecache: the hash-matrix scenario of the run-time tile cache (build3d-runtime.md
-- section 11) on the generated terrain: a cached build, obstacles of the three shapes and two
-- volumes, sliced and whole updates, snapshots and restores, issue 6's error cases, the same
-- history with the repair off, handle lifetimes; see conformance/lib/tilecache.lua.
return require("tilecache").scenario("terrain", "city")
