#!/bin/sh
# path.sh ONEPATH XMLCHECK WORKDIR -- `onepath path` (docs/cli.md, spec/query.md): on the
# dungeon (size 32, seed 1) a path across rooms is found, its corners run START .. END, the
# picture is well formed and draws the corridor and the straight path; the same query on
# the built level and on its mesh file prints the same answer; a wall-pillar top is no_path
# (disconnected) with a partial route drawn; two stacked floors draw one panel per layer and
# do not connect.
set -u
op=$1; xmlcheck=$2; work=$3
mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$op" build --level dungeon --size 32 --out "$work/d.opm" > "$work/build.txt" || {
  cat "$work/build.txt"; exit 1; }

# found: across the dungeon, drawn
"$op" path --mesh "$work/d.opm" --from 5,0.1,45 --to 25,0.1,5 --svg "$work/found.svg" \
  > "$work/found.txt" || { cat "$work/found.txt"; fail "path found: exit status"; }
cat "$work/found.txt"
grep -q '^status: found, cost [0-9.]*, nodes [0-9]*$' "$work/found.txt" || fail "no found status"
grep -q '^start: polygon (0,2,0,[0-9]*) ref [0-9a-f]\{16\}, point 5,0.1,45$' "$work/found.txt" ||
  fail "start line"
first=$(awk '/^corners/ { getline; print $3; exit }' "$work/found.txt")
last=$(awk '/^corners/ { c = 1; next } c && /^ / { l = $3 } END { print l }' "$work/found.txt")
[ "$first" = START ] && [ "$last" = END ] || fail "corners run $first .. $last, not START .. END"
"$xmlcheck" "$work/found.svg" > /dev/null || fail "found.svg is not well formed"
grep -q '#ffd400' "$work/found.svg" || fail "found.svg: no corridor"
grep -q 'path corridor' "$work/found.svg" || fail "found.svg: no corridor legend"
grep -q '<line[^>]*#0033cc' "$work/found.svg" || fail "found.svg: no straight path line"

# the same answer from the built level as from its mesh file
"$op" path --level dungeon --size 32 --from 5,0.1,45 --to 25,0.1,5 > "$work/built.txt" ||
  fail "path on the built level"
sed 1d "$work/built.txt" > "$work/built.ans"
sed '1d;/^svg:/d' "$work/found.txt" > "$work/found.ans"
cmp -s "$work/built.ans" "$work/found.ans" || {
  diff "$work/built.ans" "$work/found.ans"; fail "built level and mesh file answer differently"; }

# no path: a wall-pillar top (y = 3.1, LVL-060) is its own component
"$op" path --mesh "$work/d.opm" --from 30,0.1,30 --to 6,3.1,18 --svg "$work/none.svg" \
  > "$work/none.txt" || { cat "$work/none.txt"; fail "no path: exit status"; }
grep -q '^status: no_path, reason disconnected, nodes [0-9]*$' "$work/none.txt" ||
  fail "no no_path status"
grep -q '^partial ([0-9]* polygons\{0,1\}):$' "$work/none.txt" || fail "no partial route"
grep -q 'partial route (no path)' "$work/none.svg" || fail "none.svg: no partial legend"
"$xmlcheck" "$work/none.svg" > /dev/null || fail "none.svg is not well formed"

# layers (RT-080): two floors stacked in one tile, each its own layer: one panel per layer;
# floor 0 to floor 0 is found, floor 0 to floor 1 (3 above) is disconnected
printf 'v 1 0 1\nv 5 0 1\nv 5 0 6\nv 1 0 6\nv 1 3 1\nv 5 3 1\nv 5 3 6\nv 1 3 6\n' > "$work/two.obj"
printf 'f 1 3 2\nf 1 4 3\nf 5 7 6\nf 5 8 7\n' >> "$work/two.obj"
"$op" build --obj "$work/two.obj" --partition layers --set detail_sample_distance=0 \
  --out "$work/two.opm" > "$work/two.txt" || { cat "$work/two.txt"; fail "two floors build"; }
grep -q '  layers: 2  ' "$work/two.txt" || { cat "$work/two.txt"; fail "two floors: not 2 layers"; }
"$op" path --mesh "$work/two.opm" --from 2,0,2 --to 4,0,5 --svg "$work/two.svg" \
  > "$work/two-path.txt" || { cat "$work/two-path.txt"; fail "two floors: path"; }
grep -q '^status: found' "$work/two-path.txt" || fail "two floors: floor 0 not found"
"$xmlcheck" "$work/two.svg" > /dev/null || fail "two.svg is not well formed"
[ "$(grep -c 'layer [01]: 1 tile' "$work/two.svg")" -eq 2 ] || fail "two.svg: not two panels"
"$op" path --mesh "$work/two.opm" --from 2,0,2 --to 4,3,5 > "$work/two-none.txt" ||
  fail "two floors: no path run"
grep -q '^status: no_path, reason disconnected' "$work/two-none.txt" ||
  fail "two floors: floor 1 reached from floor 0"
echo "ok: found, same answer built and loaded, no_path with its partial route, layers, pictures"
