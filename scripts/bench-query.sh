#!/usr/bin/env bash
# bench-query.sh -- the queries against Detour (issue 14, "Differential against Detour" and
# "Benchmark against Detour"; docs/benchmarks.md "Queries against Detour (issue 14)"):
# installs what is missing (Debian: librecast-dev, g++, cmake; apt-get as scripts/bench.sh
# does, sudo when not root), configures the kit in its own build directory ($BENCH_QD_BUILD,
# default build-bench-query/, Release, no sanitizer variants), builds only the target
# bench-query (libonepath and bench/query-detour/bench_query.cpp) and runs, on city 4 and
# dungeon 32 (Humanoid, seed 1):
#   1. the differential and the benchmark, one run, the same mesh and pairs on both sides
#      (2000 pairs per level, best of 5 batches; --quick: 500 pairs, 3 batches);
#   2. the differential again with endpoints raised by up to climb + 2 ch above the surface
#      and moved by up to 2 cs on x and z, some out of every polygon's box (--lift 1.1
#      --jitter 1.2, no timing);
#   3. instructions per query of each side, counted by callgrind (valgrind) over one batch
#      (200 pairs; --quick 100): not noise, unlike the times on a loaded machine.
# The load average (uptime) is printed before and after each timed part. A measurement, not a
# test (not in ctest). Outputs: stdout, and out/bench/query.txt, query-lift.txt, query.tsv,
# query-instructions.txt.
#   scripts/bench-query.sh [--quick] [--no-install] [--no-callgrind]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BENCH_QD_BUILD:-$root/build-bench-query}"
out="$root/out/bench"
quick=0 install=1 cg=1
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --no-install) install=0 ;;
    --no-callgrind) cg=0 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "bench-query: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"

if ((install)); then
  missing=()
  for p in librecast-dev g++ cmake valgrind; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "bench-query: installing missing packages: ${missing[*]}"
    sudo=()
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update && "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" ||
      echo "bench-query: apt-get failed: ${missing[*]} missing" >&2
  fi
fi
if [ ! -f /usr/include/recastnavigation/DetourNavMeshQuery.h ]; then
  echo "bench-query: NO ANCHOR: librecast-dev (Detour) is not installed; nothing to compare" >&2
  exit 2
fi

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DOP_SANITIZE=OFF >"$build.configure.log" 2>&1 &&
  cmake --build "$build" -j2 --target bench-query >"$build.build.log" 2>&1 || {
  tail -40 "$build.configure.log" "$build.build.log" >&2
  echo "bench-query: the build failed" >&2
  exit 2
}
prog="$build/bench/query-detour/bench-query"
q=(); ((quick)) && q=(--quick)

echo "machine: $(nproc) processors, $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1); $(dpkg-query -W -f='${Package} ${Version}' librecast-dev 2>/dev/null)"
echo "uptime before: $(uptime)"
"$prog" "${q[@]}" --tsv "$out/query.tsv" | tee "$out/query.txt"
echo "uptime after: $(uptime)"
echo
"$prog" "${q[@]}" --lift 1.1 --jitter 1.2 --no-bench | tee "$out/query-lift.txt"

if ((cg)) && command -v valgrind >/dev/null 2>&1; then
  n=200; ((quick)) && n=100
  {
    echo
    echo "### instructions per query (callgrind, $n pairs, one batch; Ir of the batch function / pairs)"
    echo
    echo "| level | ours: the four calls | ours: find path + straight path | Detour: the four calls | ratio (four calls) |"
    echo "|---|---:|---:|---:|---:|"
    for lv in city dungeon; do
      declare -A ir=()
      for side in ours ours2 detour; do
        f="$build/callgrind.$lv.$side"
        valgrind --tool=callgrind --callgrind-out-file="$f" --collect-atstart=no \
          --toggle-collect="qd_batch_${side}" "$prog" --only "$lv" --pairs "$n" --side "$side" >/dev/null 2>&1
        t=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p;s/^summary: *\([0-9]*\).*/\1/p' "$f" | tail -1)
        ir[$side]=$(awk -v t="${t:-0}" -v n="$n" 'BEGIN { printf "%.0f", t / n }')
      done
      echo "| $lv | ${ir[ours]} | ${ir[ours2]} | ${ir[detour]} | $(awk -v a="${ir[ours]}" -v b="${ir[detour]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') |"
      unset ir
    done
  } | tee "$out/query-instructions.txt"
else
  echo "bench-query: valgrind missing or --no-callgrind: no instruction counts" | tee "$out/query-instructions.txt"
fi
