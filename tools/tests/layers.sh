#!/bin/sh
# layers.sh ONEPATH XMLCHECK WORKDIR -- layered meshes (RT-080 .. RT-086: several tiles per
# position, layer numbers 0..255) in the summary, `info` and `svg --mesh`.
# A generated OBJ of N floors in one tile, two stacks side by side (floor i: stack i mod 2,
# height 1.5 i; within a stack floors are 3 world units apart, more than the agent height, and
# a column holds at most 63 spans, so one stack could not reach N) is built with the layers
# partition and no sampling: each floor is its own layer,
# so the summary must count N layers, N at one position, and `info --tiles` must list the
# layer numbers 0..N-1 (counted here independently of the summary). N = 70 is past the 64
# layers the summary used to count. The mesh picture draws at most 64 panels (SVG_MAX_PANELS)
# and says in a note which layers it left out; --layers picks the others.
set -u
op=$1; xmlcheck=$2; work=$3
mkdir -p "$work" || exit 1
n=70
awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) { k = i % 2; y = (i - k) * 1.5 + k * 1.5; x = 1 + k * 6
  printf "v %g %g 1\nv %g %g 1\nv %g %g 6\nv %g %g 6\n", x, y, x + 4, y, x + 4, y, x, y
  b = 4 * i; printf "f %d %d %d\nf %d %d %d\n", b + 1, b + 3, b + 2, b + 1, b + 4, b + 3 } }' \
  > "$work/stack.obj"
"$op" build --obj "$work/stack.obj" --partition layers --set detail_sample_distance=0 \
  --out "$work/stack.opm" > "$work/build.txt" || { cat "$work/build.txt"; exit 1; }
cat "$work/build.txt"
grep -q "^tiles: $n  layers: $n  " "$work/build.txt" || { echo "FAIL: summary does not count $n layers"; exit 1; }
grep -q "^tile positions: 1  layer numbers 0..$((n - 1))  most layers at one position: $n (tile 0,0)" \
  "$work/build.txt" || { echo "FAIL: positions line"; exit 1; }
"$op" info "$work/stack.opm" --tiles > "$work/info.txt" || exit 1
got=$(awk '$1 == "tile" { split($2, a, ","); seen[a[3] + 0] = 1 }
  END { k = 0; for (l in seen) k++; print k }' "$work/info.txt")
[ "$got" = "$n" ] || { echo "FAIL: info --tiles lists $got distinct layers, not $n"; exit 1; }
grep -q "^tiles: $n  layers: $n  " "$work/info.txt" || { echo "FAIL: info summary"; exit 1; }
# the tiles hash of info equals build's
th=$(awk '$1 == "tiles" && $2 == "hash:" { print $3 }' "$work/build.txt")
grep -q "^tiles hash: $th" "$work/info.txt" || { echo "FAIL: info tiles hash differs"; exit 1; }

"$op" svg --mesh "$work/stack.opm" --out "$work/stack.svg" || exit 1
"$xmlcheck" "$work/stack.svg" > /dev/null || exit 1
panels=$(grep -c '>layer [0-9]*: 1 tile, 1 polygon<' "$work/stack.svg")
[ "$panels" = 64 ] || { echo "FAIL: $panels panels, expected 64 (the limit)"; exit 1; }
grep -q ">6 layers not shown (64..69): at most 64 panels; 6 tiles left out; see them with --layers 64-69<" \
  "$work/stack.svg" || { echo "FAIL: no note naming the layers left out"; exit 1; }
"$op" svg --mesh "$work/stack.opm" --layers 64-69 --out "$work/rest.svg" || exit 1
"$xmlcheck" "$work/rest.svg" > /dev/null || exit 1
panels=$(grep -c '>layer 6[4-9]: 1 tile, 1 polygon<' "$work/rest.svg")
[ "$panels" = 6 ] || { echo "FAIL: --layers 64-69 drew $panels panels, expected 6"; exit 1; }
grep -q '>layer [0-9]*: ' "$work/rest.svg" && [ "$(grep -c '>layer [0-9]*: ' "$work/rest.svg")" = 6 ] || {
  echo "FAIL: --layers drew layers outside 64..69"; exit 1; }
grep -q ">only layers 64..69 (--layers): 64 other layers with 64 tiles not shown<" "$work/rest.svg" || {
  echo "FAIL: no note for --layers"; exit 1; }
echo "ok: $n layers counted by build and info, 64 panels drawn and 6 named in the note"
