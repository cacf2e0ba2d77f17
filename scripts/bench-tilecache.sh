#!/bin/sh
# bench-tilecache.sh -- benchmark of the run-time tile cache against DetourTileCache (issue 6,
# "Speed"; docs/benchmarks.md "Tile cache rebuilds (issue 6)"): configures the kit in its own
# build directory ($BENCH_TC_BUILD, default build-bench-tilecache/, Release, no sanitizer
# variants), builds only the target bench-tilecache (libonepath and
# bench/tilecache-recast/bench_tilecache.cpp) and runs it. A benchmark, not a test (not in
# ctest). Optional parts: without librecast-dev it runs ours only; while the tile cache is
# not in ref/ it runs DetourTileCache only; without a C++ compiler it exits 0 with a note.
#   scripts/bench-tilecache.sh [--size B] [--warmup N] [--reps N] [--radius R] [--seed S]
#                              [--no-repair] [--per-obstacle] [--ours-only N] [--detour-only N]
# BENCH_TC_KEEP=path keeps the built program at that path (for perf or callgrind).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BENCH_TC_BUILD:-$here/build-bench-tilecache}
if ! command -v c++ >/dev/null 2>&1 && ! command -v g++ >/dev/null 2>&1; then
  echo "bench-tilecache: no C++ compiler; skipped"
  exit 0
fi
mkdir -p "$build"
# configure OURS: AUTO (ours when ref/**/tilecache*.c exists) or OFF
configure() {
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DOP_SANITIZE=OFF \
    -DBENCH_TC_OURS="$1" >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log" >&2
    exit 2
  }
}
configure AUTO
if ! cmake --build "$build" -j2 --target bench-tilecache >"$build/build.log" 2>&1; then
  if grep -q "undefined reference to .op_" "$build/build.log"; then
    echo "bench-tilecache: the tile cache does not link yet (see $build/build.log); Detour only"
    configure OFF
    cmake --build "$build" -j2 --target bench-tilecache >"$build/build.log" 2>&1 || {
      tail -40 "$build/build.log" >&2
      exit 2
    }
  else
    tail -40 "$build/build.log" >&2
    exit 2
  fi
fi
grep "^-- bench-tilecache:" "$build/configure.log" || true
prog=$build/bench/tilecache-recast/bench-tilecache
if [ -n "${BENCH_TC_KEEP:-}" ]; then cp "$prog" "$BENCH_TC_KEEP"; fi
"$prog" "$@"
