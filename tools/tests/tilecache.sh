#!/bin/sh
# tilecache.sh ONEPATH XMLCHECK WORKDIR -- `onepath tilecache` (spec/build3d-runtime.md).
# Each case compares two routes:
# - RT-015: with no step, the cached build's mesh is the plain build's, byte for byte (hash);
# - RT-027 / RT-043: after obstacles or volumes and UpdateAll, the tiles (coordinates and
#   content ids: the "tiles hash" of docs/cli.md) equal those of `build` with the same shapes
#   in the settings (Obstacles, Volumes); the slots may differ, so the tiles hash is compared,
#   not the mesh bytes. The same holds with --step 1 (Update(1) until the queue is empty),
#   with the repair off, and with the steps read from an --ops file;
# - RT-027: removing every shape gives back the first build's tiles;
# and a shape that does not change the tiles hash would prove nothing, so each case also
# checks that the shapes changed it. The cache snapshot is read back by `info`.
set -u
op=$1; xmlcheck=$2; work=$3
mkdir -p "$work" || exit 1
field() { awk -v k="$1" 'index($0, k) == 1 { print substr($0, length(k) + 1); exit }' "$2"; }
fail() { echo "FAIL: $*"; exit 1; }
n=0
CITY="--cylinder 20,0,20,2,3|--box 5,-1,30,9,5,34|--obox 35,0,10,3,2,1,0.5|--volume 5,-1,10,25,25,30,25,30,30,25,30|--cylinder 20,0,20,2,3 --box 5,-1,30,9,5,34 --obox 35,0,10,3,2,1,0.5 --volume 5,-1,20,12,12,18,12,15,18"
STAIRS="--cylinder 10,0,10,2,20|--box 3,-1,15,8,20,20|--obox 15,0,5,3,20,1,0.5|--volume 5,-1,20,2,2,8,2,8,8,2,8|--cylinder 10,0,10,2,20 --box 3,-1,15,8,20,20 --volume 7,-1,20,12,2,16,2,16,8"
# case LEVEL-OPTIONS SHAPE-SETS (separated by |)
case_() {
  lv=$1; sets=$2
  # shellcheck disable=SC2086
  set -- $lv
  tag="$1-$3"
  # shellcheck disable=SC2086
  "$op" build --level $lv --out "$work/$tag-plain.opm" > "$work/$tag-plain.txt" || { cat "$work/$tag-plain.txt"; exit 1; }
  plain=$(field "tiles hash: " "$work/$tag-plain.txt")
  # shellcheck disable=SC2086
  "$op" tilecache --level $lv > "$work/$tag-empty.txt" || { cat "$work/$tag-empty.txt"; exit 1; }
  [ "$(field "hash: " "$work/$tag-empty.txt")" = "$(field "hash: " "$work/$tag-plain.txt")" ] ||
    fail "$tag: cached build's mesh hash differs from the plain build's (RT-015)"
  echo "$sets" | tr '|' '\n' | while read -r shapes; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$op" build --level $lv $shapes > "$work/b$n.txt" || { cat "$work/b$n.txt"; exit 1; }
    want=$(field "tiles hash: " "$work/b$n.txt")
    [ "$want" != "$plain" ] || fail "$tag $shapes: the shapes change no tile (the case proves nothing)"
    for extra in "" "--step 1" "--no-repair"; do
      # shellcheck disable=SC2086
      "$op" tilecache --level $lv $shapes $extra > "$work/c$n.txt" || { cat "$work/c$n.txt"; exit 1; }
      got=$(field "tiles hash: " "$work/c$n.txt")
      [ "$got" = "$want" ] || { cat "$work/c$n.txt"; fail "$tag $shapes $extra: tiles hash $got, build with the shapes in the settings $want (RT-027)"; }
      grep -q "queue 0$" "$work/c$n.txt" || fail "$tag $shapes $extra: the queue was not emptied"
    done
    echo "ok: $tag $shapes: tiles hash $want (build = tilecache, step 1, no repair)"
  done || exit 1
}
case_ "city --partition layers --set detail_sample_distance=0" "$CITY"
case_ "stairs --size 6 --partition layers --set detail_sample_distance=0" "$STAIRS"
case_ "city --partition watershed --set detail_sample_distance=0" "$CITY"
# with the presets' height sampling (6 cells: the general path, RT-080), when the library
# samples (POLY-202 .. POLY-209); a library that refuses sampling skips this case
if "$op" build --level stairs --size 2 > "$work/sampling.txt" 2>&1; then
  case_ "stairs --size 6 --partition layers" "$STAIRS"
else
  grep -q detail_sample_distance "$work/sampling.txt" || { cat "$work/sampling.txt"; exit 1; }
  echo "skipped: the sampled case (this library refuses detail_sample_distance)"
fi

# remove every shape: the first build's tiles (RT-027); ids as printed
lv="city --partition layers --set detail_sample_distance=0"
# shellcheck disable=SC2086
"$op" build --level $lv > "$work/p.txt" || exit 1
# shellcheck disable=SC2086
"$op" tilecache --level $lv --cylinder 20,0,20,2,3 --box 5,-1,30,9,5,34 --update \
  --volume 5,-1,10,25,25,30,25,30,30,25,30 --remove 1 --remove 2 --remove-volume 1 \
  > "$work/r.txt" || { cat "$work/r.txt"; exit 1; }
cat "$work/r.txt"
grep -q "^add obstacle #1: cylinder centre (20, 0, 20) radius 2 height 3; queue " "$work/r.txt" || fail "id 1 not printed"
grep -q "^add obstacle #2: box " "$work/r.txt" || fail "id 2 not printed"
grep -q "^add volume V1: area 5, 4 points" "$work/r.txt" || fail "volume id not printed"
[ "$(field "tiles hash: " "$work/r.txt")" = "$(field "tiles hash: " "$work/p.txt")" ] ||
  fail "after removing every shape the tiles differ from the first build's (RT-027)"

# the same steps from an --ops file, with the outputs
cat > "$work/steps.ops" <<'OPS'
# obstacles of the city test
cylinder 20,0,20,2,3
box 5,-1,30,9,5,34
update
volume 5,-1,10,25,25,30,25,30,30,25,30
remove 1
OPS
# shellcheck disable=SC2086
"$op" tilecache --level $lv --ops "$work/steps.ops" > "$work/o1.txt" || { cat "$work/o1.txt"; exit 1; }
# shellcheck disable=SC2086
"$op" tilecache --level $lv --cylinder 20,0,20,2,3 --box 5,-1,30,9,5,34 --update \
  --volume 5,-1,10,25,25,30,25,30,30,25,30 --remove 1 -o "$work/o2.opm" \
  --snapshot "$work/o2.snap" --svg "$work/o2.svg" > "$work/o2.txt" || { cat "$work/o2.txt"; exit 1; }
[ "$(field "fingerprint: " "$work/o1.txt")" = "$(field "fingerprint: " "$work/o2.txt")" ] &&
[ "$(field "hash: " "$work/o1.txt")" = "$(field "hash: " "$work/o2.txt")" ] || fail "--ops differs from the same options"
# shellcheck disable=SC2086
"$op" build --level $lv --box 5,-1,30,9,5,34 --volume 5,-1,10,25,25,30,25,30,30,25,30 > "$work/o3.txt" || exit 1
[ "$(field "tiles hash: " "$work/o2.txt")" = "$(field "tiles hash: " "$work/o3.txt")" ] || fail "add, update, remove: tiles differ from a build with the live shapes"
h=$(field "hash: " "$work/o2.txt")
"$op" info "$work/o2.opm" | grep -q "mesh file, [0-9]* bytes, hash $h" || fail "-o: info hash differs from $h"
"$op" info "$work/o2.snap" > "$work/snap.txt" || { cat "$work/snap.txt"; exit 1; }
grep -q "^tile cache: fingerprint $(field "fingerprint: " "$work/o2.txt"), 1 live obstacles" "$work/snap.txt" || fail "snapshot: fingerprint or obstacle count"
[ "$(field "tiles hash: " "$work/snap.txt")" = "$(field "tiles hash: " "$work/o2.txt")" ] || fail "snapshot: tiles hash"
"$op" hash --parts "$work/o2.snap" | grep -q "^(parts of the mesh serialization of this tile cache snapshot, $h)" || fail "snapshot: mesh bytes"
"$xmlcheck" "$work/o2.svg" > /dev/null || exit 1
grep -q '>#2<' "$work/o2.svg" && ! grep -q '>#1<' "$work/o2.svg" && grep -q '>V1 area 5<' "$work/o2.svg" ||
  fail "picture: the live obstacle #2 and volume V1 are not labelled (or the removed #1 is)"
echo "ok: shape sets equal to build's, removal, --ops, snapshot and picture"
