#!/bin/sh
# build3d_golden.sh ONEPATH SOURCE_DIR WORKDIR
# `onepath build` of every level, partition and preset of the build3d/soup-* conformance
# scenarios (conformance/lib/pipeline3d.lua: its LEVELS table is read here, so the inputs
# stay the scenarios' own) must print the hash that op-conform recorded for the same build
# in golden/build3d/soup-<level>-<partition>.golden (checkpoint <level>-<partition>-<preset>).
# Exit 77 (ctest: skipped) when the scenarios or golden files are not there yet.
set -u
op=$1; src=$2; work=$3
lib="$src/conformance/lib/pipeline3d.lua"
[ -f "$lib" ] || { echo "SKIP: no $lib"; exit 77; }
mkdir -p "$work" || exit 1
levels=$(sed -n 's/^ *\([a-z]*\) = { name = "\([a-z]*\)", seed = "\([0-9a-f]*\)", size = \([0-9]*\) },.*/\2 \3 \4/p' "$lib")
[ -n "$levels" ] || { echo "FAIL: cannot read LEVELS from $lib"; exit 1; }
n=0
echo "$levels" | {
  while read -r name seed size; do
    for part in watershed monotone layers; do
      g="$src/golden/build3d/soup-$name-$part.golden"
      [ -f "$g" ] || { echo "skipped: no $g"; continue; }
      for preset in Humanoid Small; do
        tag="$name-$part-$preset"
        want=$(awk -v t="$tag" '$1 == "checkpoint" && $5 == t { print $4 }' "$g")
        [ -n "$want" ] || { echo "FAIL: no checkpoint $tag in $g"; exit 1; }
        out=$("$op" build --level "$name" --seed "$seed" --size "$size" --preset "$preset" \
              --partition "$part" --set detail_sample_distance=0 --out "$work/$tag.opm") || {
          echo "$out"; echo "FAIL: $tag: onepath build failed"; exit 1; }
        got=$(printf '%s\n' "$out" | awk '$1 == "hash:" { print $2 }')
        [ "$got" = "$want" ] || { echo "FAIL: $tag: hash $got, golden $want"; exit 1; }
        echo "ok: $tag $got"
        n=$((n + 1))
      done
    done
  done
  [ $n -gt 0 ] || { echo "SKIP: no golden soup checkpoints"; exit 77; }
  echo "ok: $n builds equal to their golden checkpoints"
}
