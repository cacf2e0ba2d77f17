#!/bin/sh
# cycle_insns.sh -- the per-cycle instruction distribution of bench-tilecache (issue 16 item 3),
# for machines whose kernel gives no hardware counter to perf_event_open (the bench then
# prints "instructions not counted here"). Runs the program under callgrind, which dumps the
# instructions of every call of bench_cycle_ours (or bench_cycle_detour) to a file of its
# own, and prints p50, p90, p99, max and mean over the measured cycles (nearest rank, as the
# bench) and each obstacle's instructions in the last sweep. Instruction counts do not depend
# on the machine's load: two runs give the same figures to a few parts in ten thousand (the
# allocator's state differs a little from sweep to sweep).
#   bench/tilecache-recast/cycle_insns.sh PROG [ours|detour|both] [SWEEPS] [bench options]
# PROG: the program (BENCH_TC_KEEP=path scripts/bench-tilecache.sh keeps one); SWEEPS measured
# sweeps (default 2) after one that is not counted (it builds the span graphs kept for the
# repair, RT-011 item 2, and warms the allocator); bench options such as --size 8 or
# --no-repair are passed on. Needs valgrind; about 10 s per side and sweep at --size 8.
set -eu
prog=${1:?usage: cycle_insns.sh PROG [ours|detour|both] [SWEEPS] [bench options]}
side=${2:-both}
sweeps=${3:-2}
[ $# -ge 3 ] && shift 3 || shift $#
command -v valgrind >/dev/null 2>&1 || { echo "cycle_insns: valgrind not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nobs=16
run() { # $1 ours|detour, then the bench options
  who=$1
  shift
  case $who in
  ours) fn='bench_cycle_ours(op_tilecache*, op_obstacle const*)'; mode=--ours-only ;;
  detour) fn='bench_cycle_detour(Detour&, float const*, float, float)'; mode=--detour-only ;;
  esac
  valgrind --tool=callgrind --toggle-collect="${fn%%(*}*" --dump-after="$fn" \
    --callgrind-out-file="$tmp/$who" "$prog" "$mode" $((sweeps + 1)) "$@" >/dev/null 2>"$tmp/$who.log" || {
    tail -5 "$tmp/$who.log" >&2
    exit 2
  }
  n=$(((sweeps + 1) * nobs))
  i=$((nobs + 1))
  : >"$tmp/$who.txt"
  while [ $i -le $n ]; do
    [ -f "$tmp/$who.$i" ] || { echo "cycle_insns: no dump $i (the cycle function was renamed?)" >&2; exit 2; }
    sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/$who.$i" >>"$tmp/$who.txt"
    i=$((i + 1))
  done
  sort -n "$tmp/$who.txt" | awk -v who="$who" '
    { v[NR] = $1; s += $1 }
    function q(p,  r) { r = int(p * NR); if (r < p * NR) r++; if (r < 1) r = 1; return v[r] }
    END { printf "| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f |\n", who, NR, q(0.5) / 1e3,
            q(0.9) / 1e3, q(0.99) / 1e3, v[NR] / 1e3, s / NR / 1e3, (s / NR) / q(0.5) }' >>"$tmp/table"
  tail -n $nobs "$tmp/$who.txt" | awk -v who="$who" '
    NR == 1 { printf "%s, k instructions by obstacle k (last sweep):", who }
    { printf " %d:%.0f", NR - 1, $1 / 1e3 }
    END { print "" }' >>"$tmp/rows"
}
case $side in
ours | detour) run "$side" "$@" ;;
both) run ours "$@"; run detour "$@" ;;
*) echo "cycle_insns: side is ours, detour or both" >&2; exit 2 ;;
esac
echo "PER-CYCLE INSTRUCTIONS (callgrind, user space; $sweeps measured sweeps of $nobs cycles after one not counted; options: ${*:-none})"
echo "| builder | cycles | p50 k | p90 k | p99 k | max k | mean k | mean / p50 |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
cat "$tmp/table"
cat "$tmp/rows"
