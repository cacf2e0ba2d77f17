#!/usr/bin/env bash
# fuzz-ci.sh -- the CI fuzzing step: a short real libFuzzer run of every harness
# (fuzz/fuzz_*.c, fuzz/history/fuzz_*.c) that fits a small budget, failing on any crash. The corpora and
# regressions themselves are replayed by the ctest tests fuzz/replay-<name>[_asan]; this adds
# new inputs. Registered as the ctest test fuzz/short-run when clang is found.
#
#   scripts/fuzz-ci.sh [OUT_DIR]
#   FUZZ_CI_BUDGET=100   seconds of fuzzing in all (default 100), split evenly over the
#                        harnesses, at most FUZZ_CI_SECONDS (default 20) each
# Measured (2026-12-01, 8 harnesses, 12 s each, 2 shared cores, load ~2.5): ctest
# fuzz/short-run takes 132 s in all (about 30 s of instrumented build, 100 s of fuzzing);
# a new harness adds only its own compile and link (the budget is fixed), so keep it under
# the test's TIMEOUT (420 s) and the CI's ~3.5 minutes by lowering FUZZ_CI_BUDGET, not per_max.
#
# Exit status: 0 no crash; 1 a harness crashed (the crash inputs are listed and kept in
# OUT_DIR/crashes/<name>/; minimise them with scripts/fuzz.sh or by hand); 2 build error;
# 77 skipped because clang or its libFuzzer runtime is missing (ctest SKIP_RETURN_CODE).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${FUZZ_OUT:-$top/build-fuzz-ci}}
budget=${FUZZ_CI_BUDGET:-100}
per_max=${FUZZ_CI_SECONDS:-20}

if ! command -v clang > /dev/null 2>&1; then
  echo "fuzz-ci: SKIPPED: clang not found (install clang to fuzz in CI)"; exit 77
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > "$probe/p.c"
if ! clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" > "$probe/log" 2>&1; then
  echo "fuzz-ci: SKIPPED: clang cannot link -fsanitize=fuzzer (libclang_rt.fuzzer missing?):"
  head -n 3 "$probe/log"; exit 77
fi

n=0; for f in "$top"/fuzz/fuzz_*.c "$top"/fuzz/history/fuzz_*.c; do [ -f "$f" ] && n=$((n + 1)); done
[ "$n" -gt 0 ] || { echo "fuzz-ci: no harnesses"; exit 0; }
per=$((budget / n)); [ "$per" -gt "$per_max" ] && per=$per_max; [ "$per" -ge 1 ] || per=1
echo "fuzz-ci: $n harnesses, ${per}s each, in $out"
rm -rf "$out/crashes"
# A fixed libFuzzer seed: two CI runs of the same tree explore the same inputs for as long as
# they run at the same speed, so a failure can be reproduced (FUZZ_ARGS overrides it).
# The obstacle-history harness links the second archive without comparison tracing in
# ref/build3d/ (FUZZ_LIB_NOTC=1, scripts/fuzz.sh): only those 29 objects are compiled
# again, and the harness runs about twice as fast with it.
FUZZ_ARGS=${FUZZ_ARGS:--seed=1} FUZZ_LIB_NOTC=${FUZZ_LIB_NOTC:-1} \
FUZZ_OUT=$out FUZZ_MINIMIZE=0 FUZZ_MAX_CRASHES=1 FUZZ_STATUS=log "$top/scripts/fuzz.sh" "$per"
rc=$?
if [ "$rc" -eq 1 ]; then
  echo "fuzz-ci: FAILED: crash inputs:"; find "$out/crashes" -type f | sed 's/^/  /'
  echo "(reproduce: $out/<name>-libfuzzer FILE; minimise and keep: scripts/fuzz.sh, fuzz/README.md)"
elif [ "$rc" -eq 0 ]; then
  echo "fuzz-ci: ok:"; column -t "$out/summary.tsv" 2>/dev/null || cat "$out/summary.tsv"
fi
exit "$rc"
