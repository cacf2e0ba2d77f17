#!/usr/bin/env bash
# coverage.sh -- line coverage of the reference, and coverage mapped back to spec clauses.
#
#   bash scripts/coverage.sh
#
# 1. Configures build-cov/ with OP_COVERAGE=ON, OP_SANITIZE=OFF and builds it.
# 2. Resets the counters and runs the C tests there (ctest without the clauses/ tests:
#    the unit tests, the conformance matrix in-process and through the protocol server,
#    the fuzz corpus replays).
# 3. lcov --capture (with an --initial baseline, so files no test reached show up at 0),
#    keeps ref/, port/ and conformance/runner/, and genhtml's it into out/coverage/.
# 4. Maps the coverage back to clauses (scripts/clauses.lua coverage; the block rule is in
#    docs/spec-authoring.md): writes out/coverage-by-clause.md and prints the totals.
# Exit status: non-zero when a step fails or a test failed (the reports are still written
# when only tests failed). Idempotent; works from any current directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${OP_COV_BUILD_DIR:-$root/build-cov}"
out="$root/out"
mkdir -p "$out"

# lcov/genhtml print perl warnings on some systems: keep their stderr in a log and show
# it only when they fail.
quiet() {
  if ! "$@" 2>"$out/coverage-tools.log"; then
    cat "$out/coverage-tools.log" >&2
    echo "coverage: failed: $*" >&2
    return 1
  fi
}

cmake -S "$root" -B "$build" -DOP_COVERAGE=ON -DOP_SANITIZE=OFF >/dev/null
cmake --build "$build" -j2

quiet lcov --quiet --zerocounters --directory "$build"
quiet lcov --quiet --capture --initial --directory "$build" --output-file "$out/coverage-base.info"

test_status=0
(cd "$build" && ctest --output-on-failure -j2 -E '^clauses/') || test_status=$?

quiet lcov --quiet --capture --directory "$build" --output-file "$out/coverage-run.info"
quiet lcov --quiet --add-tracefile "$out/coverage-base.info" --add-tracefile "$out/coverage-run.info" \
     --output-file "$out/coverage-all.info"
quiet lcov --quiet --extract "$out/coverage-all.info" '*/ref/*' '*/port/*' '*/conformance/runner/*' \
     --output-file "$out/coverage.info"
rm -f "$out/coverage-base.info" "$out/coverage-run.info" "$out/coverage-all.info"

rm -rf "$out/coverage"
quiet genhtml --quiet --title "OnePath reference" --prefix "$root" \
        --output-directory "$out/coverage" "$out/coverage.info"
lcov --summary "$out/coverage.info" 2>&1 | sed -n 's/^ *lines\.*: /line coverage: /p' || true
rm -f "$out/coverage-tools.log"

lua5.4 "$root/scripts/clauses.lua" --root "$root" coverage "$out/coverage.info" \
       "$out/coverage-by-clause.md"
echo "wrote $out/coverage/index.html and $out/coverage-by-clause.md"

if [ "$test_status" -ne 0 ]; then
  echo "coverage: some tests failed (ctest exit $test_status); the reports cover the run as it was" >&2
fi
exit "$test_status"
