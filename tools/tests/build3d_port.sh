#!/bin/sh
# build3d_port.sh ONEPATH PORT WORKDIR
# `onepath build` on generated levels must write the same mesh bytes (so the same XXH3-64)
# as the protocol op build3d.soup (POLY-230) followed by mesh.save (MESH-040), run by the
# kit's port server onepath-port -- the path op-conform takes for the build3d scenarios.
# Exit 77 (ctest: skipped) while the server does not offer build3d.soup.
# The tool and the server share the library: this proves the tool's input, settings and
# output plumbing (generator, seed, size, preset, partition, detail override, writing).
set -u
op=$1; port=$2; work=$3
mkdir -p "$work" || exit 1
n=0
for case in "terrain 00000000000000a1 8 Humanoid watershed" "city 0000000000000007 2 Humanoid monotone" \
            "dungeon 0000000000000003 12 Small layers" "stairs 0000000000000005 6 Humanoid watershed"; do
  set -- $case
  name=$1; seed=$2; size=$3; preset=$4; part=$5
  f="$work/$name-$preset-$part.opm"
  "$op" build --level "$name" --seed "$seed" --size "$size" --preset "$preset" \
    --partition "$part" --set detail_sample_distance=0 --out "$f" > "$f.txt" || {
    cat "$f.txt"; echo "FAIL: onepath build $case"; exit 1; }
  mine=$(od -An -tx1 -v "$f" | tr -d ' \n')
  req1='{"id":1,"op":"build3d.soup","args":{"preset":"'$preset'","partition":"'$part'","detail_sample_distance":0,"level":{"name":"'$name'","seed":"'$seed'","size":'$size'}}}'
  req2='{"id":2,"op":"mesh.save","args":{"mesh":1}}'
  answer=$(printf '%s\n%s\n' "$req1" "$req2" | "$port")
  if printf '%s' "$answer" | grep -q '"unknown op: op = build3d.soup"'; then
    echo "SKIP: this port server has no build3d.soup op yet"; exit 77
  fi
  theirs=$(printf '%s\n' "$answer" | sed -n 's/.*"id":2,"ok":{"bytes":"\([0-9a-f]*\)".*/\1/p')
  [ -n "$theirs" ] || { echo "FAIL: no mesh bytes from the port for $case"; exit 1; }
  [ "$mine" = "$theirs" ] || { echo "FAIL: $case: onepath build bytes differ from build3d.soup"; exit 1; }
  echo "ok: $case: $(grep '^hash:' "$f.txt")"
  n=$((n + 1))
done
# BuildChunk gives the soup's mesh byte for byte (POLY-220, SPAN-181)
"$op" build --level city --seed 0000000000000007 --size 2 --set detail_sample_distance=0 \
  --mode chunk --chunk-size 7 --out "$work/city-chunk.opm" > /dev/null || exit 1
"$op" build --level city --seed 0000000000000007 --size 2 --set detail_sample_distance=0 \
  --out "$work/city-soup.opm" > /dev/null || exit 1
cmp -s "$work/city-chunk.opm" "$work/city-soup.opm" || { echo "FAIL: chunk mesh differs from soup"; exit 1; }
echo "ok: $n builds equal to the port's; chunk equals soup"
