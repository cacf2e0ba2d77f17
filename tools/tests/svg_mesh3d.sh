#!/bin/sh
# svg_mesh3d.sh ONEPATH XMLCHECK WORKDIR -- `onepath build` of small generated levels, then
# `info` (its hash equals the one `build` printed; the walkable area is printed) and
# `svg --mesh` in every colour mode: well-formed SVG whose title names the file and stage.
set -u
op=$1; xmlcheck=$2; work=$3
mkdir -p "$work" || exit 1
for lv in "terrain --size 8" "city --size 1" "dungeon --size 10" "stairs --size 4"; do
  name=${lv%% *}
  # shellcheck disable=SC2086
  "$op" build --level $lv --seed 9 --partition layers --set detail_sample_distance=0 \
    --out "$work/$name.opm" > "$work/$name.txt" || { cat "$work/$name.txt"; exit 1; }
  h=$(awk '$1 == "hash:" { print $2 }' "$work/$name.txt")
  "$op" info "$work/$name.opm" | grep -q "mesh file, [0-9]* bytes, hash $h" || {
    echo "FAIL: $name: info hash differs from build's $h"; exit 1; }
  grep -q '^walkable area: ' "$work/$name.txt" || { echo "FAIL: $name: no walkable area"; exit 1; }
  for c in area poly tile; do
    "$op" svg --mesh "$work/$name.opm" --color $c --out "$work/$name-$c.svg" || exit 1
    "$xmlcheck" "$work/$name-$c.svg" > /dev/null || exit 1
    grep -q "<title>mesh $work/$name.opm - stage: mesh (colour per $c)</title>" "$work/$name-$c.svg" || {
      echo "FAIL: $name-$c: title"; exit 1; }
  done
done
echo "ok: 4 levels built, summarized and drawn"
