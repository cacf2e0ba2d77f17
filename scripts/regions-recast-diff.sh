#!/bin/sh
# regions-recast-diff.sh -- side-by-side check and benchmark of the region partitions and
# the contour stage against Recast (Debian's librecast-dev: rcBuildRegions,
# rcBuildRegionsMonotone, rcBuildLayerRegions, rcBuildContours): builds
# scripts/regions_recast_diff.cpp against a build directory's libonepath.a and runs it; it
# prints a Markdown table (docs/benchmarks.md). Optional: exits 0 with a note when
# librecast or a C++ compiler is absent.
#   scripts/regions-recast-diff.sh [build-dir] [--quick] [--reps N]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift 2>/dev/null || true
inc=/usr/include/recastnavigation
if [ ! -f "$inc/Recast.h" ] || ! command -v g++ >/dev/null 2>&1; then
  echo "regions-recast-diff: librecast-dev or g++ not installed; skipped"
  exit 0
fi
if [ ! -f "$build/libonepath.a" ]; then
  echo "regions-recast-diff: $build/libonepath.a missing (build the kit first)" >&2
  exit 2
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
g++ -O2 -std=c++11 -Wall -I"$inc" -I"$here/include" -I"$here/ref" \
  "$here/scripts/regions_recast_diff.cpp" "$build/libonepath.a" -lRecast -lxxhash -lm \
  -o "$out/regions_recast_diff"
"$out/regions_recast_diff" "$@"
