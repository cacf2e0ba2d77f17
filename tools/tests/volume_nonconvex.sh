#!/bin/sh
# volume_nonconvex.sh ONEPATH FLOOR_OBJ -- a volume need not be convex (SPAN-031, SPAN-161:
# the even-odd rule over the outline as given; docs/cli.md, --volume).
# tools/tests/floor.obj with cell_size 0.25 and agent_radius 0.5 has walkable area 72.25
# (x and z in [0.75, 9.25], see floor.obj). An area-0 volume shaped as an L,
# (2,2) (8,2) (8,8) (6,8) (6,4) (2,4), lies inside that square: it covers 6 x 2 + 2 x 4 = 20
# square units, its convex hull 6 x 6 = 36. Cell centres sit at odd multiples of 0.125, never on
# the L's edges, so the marked columns cover the L exactly. The build must accept it (exit 0,
# one volume) and its walkable area must drop by about 20: more than 8 below 72.25 (it cut
# something) and more than 8 above 72.25 - 36 = 36.25 (it was not widened to its hull). The
# margin of 8 leaves room for contour simplification around the notch.
set -u
op=$1; floor=$2
base=$("$op" build --obj "$floor" --set cell_size=0.25 --set agent_radius=0.5) || {
  echo "$base"; echo "FAIL: the build without volume failed"; exit 1; }
out=$("$op" build --obj "$floor" --set cell_size=0.25 --set agent_radius=0.5 \
  --volume 0,-1,1,2,2,8,2,8,8,6,8,6,4,2,4 2>&1) || {
  echo "$out"; echo "FAIL: a non-convex volume was refused"; exit 1; }
echo "$out"
printf '%s\n' "$out" | grep -q "^settings: 0 obstacles, 1 volumes" || { echo "FAIL: no volume"; exit 1; }
a0=$(printf '%s\n' "$base" | awk '/^walkable area:/ { print $3 }')
a1=$(printf '%s\n' "$out" | awk '/^walkable area:/ { print $3 }')
[ "$a0" = "72.25" ] || { echo "FAIL: the floor's area is $a0, not 72.25"; exit 1; }
awk -v a="$a1" 'BEGIN { exit !(a > 36.25 + 8 && a < 72.25 - 8) }' || {
  echo "FAIL: walkable area $a1 with the L volume: not about 72.25 - 20"; exit 1; }
echo "ok: walkable area $a0 -> $a1 with the L-shaped volume"
