#!/usr/bin/env bash
# bench-build2d.sh -- benchmark of the 2D builder (issue 8): builds bench/bench_build2d.c
# against the reference sources at -O2 (no sanitizers) in $BENCH_OUT (default
# build-bench2d/) and prints a table of build time, tiles, polygons and triangles for
# growing tile maps (50^2 .. 400^2 cells) and outline levels (side 100 .. 800, many
# odd-angle obstacles), each with TileSize 32, 64 and 128. Not a test; takes a few
# minutes on one core ("quick": well under a minute).
#
#   scripts/bench-build2d.sh [quick|full]
#
# The same program is the CMake target bench-build2d (bench/CMakeLists.txt) once the top
# CMakeLists.txt has add_subdirectory(bench).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${BENCH_OUT:-$top/build-bench2d}
cc=${CC:-cc}
mkdir -p "$out/obj"
cd "$top"
xxcflags=$(pkg-config --cflags libxxhash 2>/dev/null || true)
xxlibs=$(pkg-config --libs libxxhash 2>/dev/null || echo -lxxhash)
cflags="-std=c11 -O2 -ffp-contract=off -fno-fast-math -Iinclude $xxcflags"
case $(uname -m) in x86_64|amd64) cflags="$cflags -msse2 -mfpmath=sse" ;; esac
# The library's sources (ref/ in section folders) see ref/ for their internal headers; the
# benchmark itself sees include/ only.
newest_h=$(find include ref -name '*.h' -newer "$out/obj" 2>/dev/null | head -n 1)
objs=()
while IFS= read -r s; do
  o=$out/obj/$(echo "${s#ref/}" | tr / _ | sed 's/\.c$/.o/')
  if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ -n "$newest_h" ]; then
    $cc $cflags -Iref -c "$s" -o "$o"
  fi
  objs+=("$o")
done < <(find ref -name '*.c' | sort)
touch "$out/obj"
$cc $cflags bench/bench_build2d.c "${objs[@]}" -o "$out/bench-build2d" $xxlibs -lm
echo "bench-build2d: $(date -u +%FT%TZ), $(uname -m), $($cc --version | head -n 1), -O2"
"$out/bench-build2d" "${1:-full}"
