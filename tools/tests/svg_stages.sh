#!/bin/sh
# svg_stages.sh ONEPATH XMLCHECK WORKDIR -- pictures of every stage of small generated
# levels are well-formed SVG with a title naming the input, the preset and the stage.
set -u
op=$1; xmlcheck=$2; work=$3
mkdir -p "$work" || exit 1
n=0
for lv in "terrain --size 8" "city --size 1" "dungeon --size 10" "stairs --size 4"; do
  for st in spans regions contours polys; do
    for part in watershed layers; do
      name=$(echo "$lv-$st-$part" | tr ' ' '_')
      # shellcheck disable=SC2086
      msg=$("$op" svg --level $lv --seed 5 --preset Humanoid --partition $part --stage $st \
        --tile 0,0 --out "$work/$name.svg" 2>&1) || {
        case $msg in *"not available in this build"*) echo "skipped: $name: $msg"; continue;; esac
        echo "$msg"; echo "FAIL: $name"; exit 1; }
      "$xmlcheck" "$work/$name.svg" >/dev/null || exit 1
      lvname=${lv%% *}
      grep -q "<title>level $lvname seed 0000000000000005 .* - preset Humanoid - stage: $st - tile 0,0</title>" \
        "$work/$name.svg" || { echo "FAIL: $name: title"; exit 1; }
      n=$((n + 1))
    done
  done
done
echo "ok: $n stage pictures well formed"
