#!/usr/bin/env bash
# test.sh -- README command 2: build (if needed) with the sanitizer variant and run every test.
#
#   bash scripts/test.sh [extra ctest arguments]
#
# Configures build/ with OP_SANITIZE=ON (the _asan variant of every target is built and
# tested beside the plain one), builds what changed, and runs
# `ctest --output-on-failure -j2` there. The exit status is ctest's (or the build's, when
# the build fails). Idempotent; works from any current directory. Packages missing? Run
# scripts/setup.sh first.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${OP_BUILD_DIR:-$root/build}" # OP_BUILD_DIR: another build folder (default build/)

cmake -S "$root" -B "$build" -DOP_SANITIZE=ON -DOP_COVERAGE=OFF >/dev/null
cmake --build "$build" -j2

cd "$build"
status=0
ctest --output-on-failure -j2 "$@" || status=$?
exit "$status"
