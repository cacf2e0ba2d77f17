#!/bin/sh
# bench-seams.sh -- unlinked walkable portal length, ours against Recast + Detour (issue 17,
# docs/benchmarks.md "Seams that do not link (issue 17)"): builds
# bench/seams-recast/bench_seams.cpp against a build directory's libonepath.a and Debian's
# librecast-dev, and runs it. A measurement, not a test (not in ctest). Optional: exits 0
# with a note when librecast-dev or g++ is absent.
#   scripts/bench-seams.sh [build-dir] [--only LEVEL] [--preset P] [--size N] [--detail]
#     [--min-region-area N]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift 2>/dev/null || true
inc=/usr/include/recastnavigation
if [ ! -f "$inc/Recast.h" ] || [ ! -f "$inc/DetourNavMeshBuilder.h" ] || ! command -v g++ >/dev/null 2>&1; then
  echo "bench-seams: librecast-dev or g++ not installed; skipped"
  exit 0
fi
if [ ! -f "$build/libonepath.a" ]; then
  echo "bench-seams: $build/libonepath.a missing (build the kit first)" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
g++ -O2 -g -std=c++11 -Wall -I"$inc" -I"$here/include" \
  "$here/bench/seams-recast/bench_seams.cpp" "$build/libonepath.a" -lDetour -lRecast -lxxhash -lm \
  -o "$out/bench_seams"
"$out/bench_seams" "$@"
