#!/bin/sh
# bench-threads.sh -- the parallel bake's speed-up (spec/build3d-polys.md POLY-228, issue 16
# item 4): every level generator and partition baked with threads 1 and threads N by
# bench_threads.c (built here against BUILD_DIR/libonepath.a), the best wall time of --reps
# runs each, and the mesh hashes compared (a differing hash is a loud FAIL cell: the bytes
# must not depend on the thread count). A benchmark, not a test (not in ctest).
# On a busy machine wall times measure the scheduler's shares more than the cores, so each
# row also gives an idle-machine estimate from CPU times: T1 / (S + (C - S) / N), T1 the
# one-thread build's CPU time, C the N-thread build's CPU time and S its calling thread's
# share (what stays serial), as if the N workers were perfectly balanced. A busy-loop
# calibration first says how much parallelism the machine gives at that moment.
# --callgrind replaces the clocks by instruction counts (valgrind's callgrind, per thread,
# counting only inside the build call and the workers), which do not depend on the load:
# the estimate is then I1 / (M + W), I1 the one-thread build's instructions, M the calling
# thread's and W the busiest worker's of the N-thread build (about 50 times slower to run).
#   bench/threads/bench-threads.sh [BUILD_DIR] [--reps N] [--threads N] [--quick]
#                                  [--partition P|all] [--sampled] [--callgrind]
#                                  [--out FILE.md]
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$here/build
case "${1:-}" in -*|"") ;; *) build=$1; shift ;; esac
reps=3; nt=2; quick=0; parts="watershed monotone layers"; out=""; samp=0; cg=0
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --threads) nt=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --partition) [ "$2" = all ] || parts=$2; shift 2 ;;
    --sampled) samp=1; shift ;;
    --callgrind) cg=1; shift ;;
    --out) out=$2; shift 2 ;;
    *) echo "bench-threads: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -f "$build/libonepath.a" ] || { echo "bench-threads: $build/libonepath.a missing (build the kit first)" >&2; exit 2; }
if [ $quick = 1 ]; then levels="terrain:128 city:4 stairs:16 dungeon:64"; reps=1
else levels="terrain:256 city:8 stairs:32 dungeon:128"; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -I"$here/include" "$here/bench/threads/bench_threads.c" "$build/libonepath.a" \
  -lxxhash -lm -pthread -o "$tmp/bench_threads"
# Instructions of one build with $1 threads: "I_main I_busiest_worker I_all" (callgrind).
cgrun() {
  rm -f "$tmp"/cg.*
  valgrind --tool=callgrind --separate-threads=yes --toggle-collect=op_pipeline_build_soup_opt \
    --toggle-collect=worker_main --callgrind-out-file="$tmp/cg.%p" \
    "$tmp/bench_threads" "$name" "$size" "$p" $samp "$1" 1 > /dev/null 2>&1
  for f in "$tmp"/cg.*; do awk '/^summary:/ { print $2; exit }' "$f"; done |
    awk 'NF { n++; v[n] = $1; all += $1 } END { m = v[1]; w = 0
      for (i = 2; i <= n; i++) if (v[i] > w) w = v[i]; print m, w, all }'
}
if [ $cg = 1 ]; then
  command -v valgrind > /dev/null || { echo "bench-threads: --callgrind needs valgrind" >&2; exit 2; }
  {
    echo "# Parallel bake: threads 1 vs threads $nt in instructions (callgrind, POLY-228)"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), detail sampling $([ $samp = 1 ] && echo 6 || echo 0); estimate = I1 / (M + W)"
    echo
    echo "| level | partition | I1 (1 thread) | M (calling thread) | W (busiest worker) | all $nt threads | estimate |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    for lv in $levels; do
      name=${lv%%:*}; size=${lv##*:}
      for p in $parts; do
        set -- $(cgrun 1); i1=$1
        set -- $(cgrun "$nt")
        awk -v l="$name $size" -v p="$p" -v i1="$i1" -v m="$1" -v w="$2" -v a="$3" 'BEGIN {
          printf "| %s | %s | %.0fM | %.1fM | %.0fM | %.0fM | %.2fx |\n", l, p, i1 / 1e6,
            m / 1e6, w / 1e6, a / 1e6, i1 / (m + w) }'
      done
    done
  } | if [ -n "$out" ]; then tee "$out"; else cat; fi
  exit 0
fi
{
  echo "# Parallel bake: threads 1 vs threads $nt (POLY-228)"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) processors ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), best of $reps, detail sampling $([ $samp = 1 ] && echo 6 || echo 0)"
  echo
  s1=$("$tmp/bench_threads" --spin 1); s2=$("$tmp/bench_threads" --spin "$nt")
  echo "Calibration (busy loop, the same work per thread): 1 thread $s1 s, $nt threads $s2 s:" \
    "the machine gives $(awk -v a="$s1" -v b="$s2" -v n="$nt" 'BEGIN { printf "%.2f", n * a / b }')x" \
    "parallelism now (${nt}.00x idle); wall speed-ups below cannot exceed it."
  echo
  echo "| level | partition | tiles | 1 thread s | $nt threads s | speed-up | idle estimate | serial share | load (1 min) | bytes |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
  for lv in $levels; do
    name=${lv%%:*}; size=${lv##*:}
    for p in $parts; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      set -- $("$tmp/bench_threads" "$name" "$size" "$p" $samp 1 "$reps"); w1=$1; c1=$2; h1=$4; g=$5
      set -- $("$tmp/bench_threads" "$name" "$size" "$p" $samp "$nt" "$reps"); wn=$1; cn=$2; sn=$3; hn=$4
      same=same; [ "$h1" = "$hn" ] || same="FAIL: hash $h1 vs $hn"
      awk -v name="$name $size" -v p="$p" -v g="$g" -v w1="$w1" -v wn="$wn" -v c1="$c1" \
          -v cn="$cn" -v sn="$sn" -v n="$nt" -v load="$load" -v same="$same" 'BEGIN {
        est = c1 / (sn + (cn - sn) / n)
        printf "| %s | %s | %s | %.3f | %.3f | %.2fx | %.2fx | %.1f %% | %s | %s |\n",
          name, p, g, w1, wn, w1 / wn, est, 100 * sn / cn, load, same }'
    done
  done
} | if [ -n "$out" ]; then tee "$out"; else cat; fi
