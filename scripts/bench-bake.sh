#!/bin/sh
# bench-bake.sh -- benchmark of the full 3D bake against Recast (issue 5, docs/benchmarks.md
# "Full bake (issue 5)"): builds bench/bake-recast/bench_bake.cpp against a build
# directory's libonepath.a and Debian's librecast-dev (Recast and Detour), and runs it. A
# benchmark, not a test (not in ctest). Optional: exits 0 with a note when librecast-dev or
# g++ is absent.
#   scripts/bench-bake.sh [build-dir] [--quick] [--reps N] [--partition P|all] [--stages]
#                         [--only LEVEL] [--preset P] [--ours-only N] [--sampled]
# BENCH_BAKE_KEEP=path keeps the built program at that path (for perf or callgrind).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift 2>/dev/null || true
inc=/usr/include/recastnavigation
if [ ! -f "$inc/Recast.h" ] || [ ! -f "$inc/DetourNavMeshBuilder.h" ] || ! command -v g++ >/dev/null 2>&1; then
  echo "bench-bake: librecast-dev or g++ not installed; skipped"
  exit 0
fi
if [ ! -f "$build/libonepath.a" ]; then
  echo "bench-bake: $build/libonepath.a missing (build the kit first)" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
g++ -O2 -g -std=c++11 -Wall -I"$inc" -I"$here/include" \
  "$here/bench/bake-recast/bench_bake.cpp" "$build/libonepath.a" -lDetour -lRecast -lxxhash -lm \
  -o "$out/bench_bake"
if [ -n "${BENCH_BAKE_KEEP:-}" ]; then cp "$out/bench_bake" "$BENCH_BAKE_KEEP"; fi
"$out/bench_bake" "$@"
