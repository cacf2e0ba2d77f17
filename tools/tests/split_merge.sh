#!/bin/sh
# split_merge.sh ONEPATH WORKDIR -- POLY-229: a level baked in parts (onepath build
# --tile-range X0:X1,Z0:Z1 --tiles DIR) and assembled (onepath merge DIR... -o FILE) gives the
# bytes of one build of the whole level (cmp), on every generator, the general and the
# layer-first path (RT-086: slots counted per layer), soup and chunk mode, parts built with
# different thread counts (POLY-228), and a part whose range lies past the grid (empty).
# Then merge refuses parts that leave a tile out or cover one twice, and parts of another build.
set -u
op=$1; work=$2
rm -rf "$work"; mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
n=0
check() { # LEVEL SIZE PARTITION SAMPLING MODE
  lv=$1; sz=$2; pt=$3; ds=$4; md=$5
  d="$work/$lv-$pt-$ds-$md"; mkdir -p "$d"
  set -- --level "$lv" --size "$sz" --partition "$pt" --set detail_sample_distance="$ds" --mode "$md"
  "$op" build "$@" --threads 1 -o "$d/whole.opm" > "$d/whole.txt" || { cat "$d/whole.txt"; fail "whole build $d"; }
  grep -q "^tile grid: [2-9] x [2-9]," "$d/whole.txt" || fail "$d: the level must have at least 2 x 2 tiles"
  # four parts: column 0 | row 0 of the rest | the rest | a range past the grid (empty)
  "$op" build "$@" --tile-range 0:0,0:8191 --tiles "$d/a" --threads 2 > "$d/a.txt" || { cat "$d/a.txt"; fail "part a $d"; }
  "$op" build "$@" --tile-range 1:8191,0:0 --tiles "$d/b" --threads 1 > "$d/b.txt" || fail "part b $d"
  "$op" build "$@" --tile-range 1:8191,1:8191 --tiles "$d/c" --threads 8 > "$d/c.txt" || fail "part c $d"
  "$op" build "$@" --tile-range 8000:8191,0:0 --tiles "$d/c" > "$d/e.txt" || fail "empty part $d"
  grep -q "^range none" "$d/c/part_8000_8191_0_0.txt" || fail "$d: the empty part's manifest"
  "$op" merge "$d/a" "$d/b" "$d/c" -o "$d/merged.opm" > "$d/merge.txt" || { cat "$d/merge.txt"; fail "merge $d"; }
  cmp "$d/whole.opm" "$d/merged.opm" || fail "$d: merged mesh differs from the whole build"
  n=$((n + 1))
}
check terrain 40 watershed 0 soup
check terrain 40 monotone 6 chunk
check city 2 layers 0 soup
check city 2 layers 6 soup
check stairs 8 monotone 0 soup
check dungeon 30 layers 0 chunk
check dungeon 30 watershed 6 soup
echo "$n levels: merged parts equal the whole build"
d="$work/terrain-watershed-0-soup"
"$op" merge "$d/a" "$d/c" -o "$work/x.opm" > "$work/gap.txt" 2>&1 && fail "merge without part b succeeded"
grep -q "tile (1, 0) of the 3 x 3 grid is in no part" "$work/gap.txt" || { cat "$work/gap.txt"; fail "gap message"; }
"$op" build --level terrain --size 40 --partition watershed --set detail_sample_distance=0 \
  --tile-range 0:1,0:0 --tiles "$work/ov" > /dev/null || fail "overlap part"
"$op" merge "$d/a" "$d/b" "$d/c" "$work/ov" -o "$work/x.opm" > "$work/ov.txt" 2>&1 && fail "overlapping parts merged"
grep -q "is in two parts" "$work/ov.txt" || { cat "$work/ov.txt"; fail "overlap message"; }
"$op" build --level terrain --size 40 --partition watershed --set cell_size=0.25 \
  --tile-range 0:0,0:8191 --tiles "$work/other" > /dev/null || fail "other build's part"
"$op" merge "$work/other" "$d/b" "$d/c" -o "$work/x.opm" > "$work/other.txt" 2>&1 && fail "parts of two builds merged"
grep -q "part of another build" "$work/other.txt" || { cat "$work/other.txt"; fail "other-build message"; }
"$op" build --level terrain --size 40 --tile-range 2:1,0:0 --tiles "$work/bad" > "$work/bad.txt" 2>&1
[ $? -eq 2 ] || fail "--tile-range 2:1 must be a usage error"
echo "merge refuses a gap, an overlap and another build's part: ok"
