#!/bin/sh
# build2d_golden.sh ONEPATH XMLCHECK SOURCE_DIR WORKDIR
# `onepath build2d` on the diamond of conformance/scenarios/build2d/diamond-45.lua with that
# scenario's first settings (preset Large, agent_radius 0, max_verts_per_poly 6) must write
# a mesh whose XXH3-64 equals the checkpoint `diamond-mvpp-6` that op-conform recorded in
# golden/build2d/diamond-45.golden (T2D-001, MESH-040: same build, same bytes), and report
# the walkable area computed by hand in tools/tests/diamond.outlines (19200). `hash` and
# `info` read the file back to the same hash; `svg --mesh` gives well-formed SVG.
set -u
op=$1; xmlcheck=$2; src=$3; work=$4
mkdir -p "$work" || exit 1
out=$("$op" build2d --outlines "$src/tools/tests/diamond.outlines" --preset Large \
      --set agent_radius=0 --set max_verts_per_poly=6 --out "$work/diamond.opm" \
      --snapshot "$work/diamond.opsn" --tiles "$work") || {
  echo "$out"; echo "FAIL: build2d exited non-zero"; exit 1; }
echo "$out"
want=$(awk '$1 == "checkpoint" && $5 == "diamond-mvpp-6" { print $4 }' \
       "$src/golden/build2d/diamond-45.golden")
[ -n "$want" ] || { echo "FAIL: no diamond-mvpp-6 checkpoint in the golden file"; exit 1; }
got=$(printf '%s\n' "$out" | awk '$1 == "hash:" { print $2 }')
[ "$got" = "$want" ] || { echo "FAIL: hash $got, golden $want"; exit 1; }
printf '%s\n' "$out" | grep -q '^walkable area: 19200 square world units$' || {
  echo "FAIL: walkable area is not 19200"; exit 1; }
printf '%s\n' "$out" | grep -q '^tiles: 11 ' || { echo "FAIL: not 11 tiles (diamond-45.lua)"; exit 1; }
h=$("$op" hash "$work/diamond.opm" | awk '{ print $1 }')
[ "$h" = "$want" ] || { echo "FAIL: onepath hash gives $h"; exit 1; }
"$op" hash --parts "$work/diamond.opm" | grep -q "part 72 .* header" || { echo "FAIL: hash --parts"; exit 1; }
"$op" info "$work/diamond.opm" | grep -q "mesh file, 3616 bytes, hash $want" || {
  echo "FAIL: info"; "$op" info "$work/diamond.opm"; exit 1; }
for c in area poly tile; do
  "$op" svg --mesh "$work/diamond.opm" --color $c --out "$work/diamond-$c.svg" || exit 1
  "$xmlcheck" "$work/diamond-$c.svg" || exit 1
done
# the snapshot restores to the same mesh bytes (SNAP, MESH-040)
"$op" hash --parts "$work/diamond.opsn" | grep -q "mesh serialization of this snapshot, $want" || {
  echo "FAIL: snapshot does not restore to the golden mesh"; exit 1; }
"$op" info "$work/diamond.opsn" | grep -q '^walkable area: 19200 ' || { echo "FAIL: snapshot info"; exit 1; }
# tile 1,1 is the square [64, 128]^2 (tile_cells 128 * cell_size 0.5) holding the whole
# hole: 64 * 64 - 800 = 3296 by hand
"$op" info "$work/tile_1_1_0.optl" | grep -q '^walkable area: 3296 ' || { echo "FAIL: tile info"; exit 1; }
for f in diamond.opsn tile_1_1_0.optl; do
  "$op" svg --mesh "$work/$f" --out "$work/$f.svg" && "$xmlcheck" "$work/$f.svg" || exit 1
done
echo "ok: hash $got equals the golden checkpoint; area 19200; svg well formed"
