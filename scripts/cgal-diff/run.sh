#!/usr/bin/env bash
# scripts/cgal-diff/run.sh -- optional differential check of the 2D builder against CGAL
# (issue 8): our snap-rounded arrangement against CGAL's Snap_rounding_2 (SR and ISR), our
# constrained Delaunay triangulation against CGAL's Constrained_Delaunay_triangulation_2.
# Not part of the test suite. Builds only when CGAL's headers exist (Debian: apt-get
# install libcgal-dev; header-only, needs libgmp/libmpfr); otherwise prints a note and
# exits 0.
#
#   scripts/cgal-diff/run.sh [TRIALS] [SEED]          (default 3000 trials)
#   CGAL_DIFF_OUT=dir  build directory (default build-cgal-diff)
# Exit status: 0 when every triangulation difference is a co-circular tie, 1 otherwise,
# 2 on a build error. Arrangement disagreements are reported, not failed (the pixel rules
# differ on ties by design, see cgal_diff.cpp).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
inc=${CGAL_INCLUDE:-/usr/include}
if [ ! -f "$inc/CGAL/Snap_rounding_2.h" ] || [ ! -f "$inc/CGAL/Constrained_Delaunay_triangulation_2.h" ]; then
  echo "cgal-diff: CGAL headers not found under $inc (apt-get install libcgal-dev): skipped"
  exit 0
fi
out=${CGAL_DIFF_OUT:-$top/build-cgal-diff}
mkdir -p "$out/obj"
cd "$top"
cc=${CC:-cc}; cxx=${CXX:-g++}
xxcflags=$(pkg-config --cflags libxxhash 2>/dev/null || true)
xxlibs=$(pkg-config --libs libxxhash 2>/dev/null || echo -lxxhash)
cflags="-std=c11 -O2 -ffp-contract=off -fno-fast-math -Iinclude -Iref $xxcflags"
objs=()
for s in ref/*.c; do
  o=$out/obj/$(basename "$s" .c).o
  if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ ref/build2d/geometry/g2d.h -nt "$o" ] || [ ref/core/internal.h -nt "$o" ]; then
    $cc $cflags -c "$s" -o "$o" || { echo "cgal-diff: compiling $s failed" >&2; exit 2; }
  fi
  objs+=("$o")
done
$cxx -std=c++17 -O2 -Iinclude -Iref -I"$inc" scripts/cgal-diff/cgal_diff.cpp "${objs[@]}" \
  -o "$out/cgal-diff" -lgmp -lmpfr $xxlibs -lm || { echo "cgal-diff: build failed" >&2; exit 2; }
"$out/cgal-diff" "${1:-3000}" "${2:-1}"
