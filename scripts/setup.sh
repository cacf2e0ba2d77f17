#!/usr/bin/env bash
# setup.sh -- README command 1: install what is missing, build, run the conformance matrix.
#
#   bash scripts/setup.sh [--deps-only]
#
# 1. Installs the Debian packages the kit needs, only those missing (apt-get update once
#    first; sudo when not root).
# 2. Configures and builds into build/ (plain and sanitizer variants, as scripts/test.sh
#    uses them).
# 3. Runs the main job, `build/op-conform run`, which prints the conformance matrix report.
#    The exit status is op-conform's.
# --deps-only stops after step 1 (.ci/run uses it before scripts/test.sh).
# Idempotent; works from any current directory.
set -euo pipefail

deps_only=0
for a in "$@"; do
  case "$a" in
    --deps-only) deps_only=1 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "setup: unknown argument: $a (usage: scripts/setup.sh [--deps-only])" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${OP_BUILD_DIR:-$root/build}" # OP_BUILD_DIR: another build folder (default build/)
packages=(build-essential pkg-config cmake lua5.4 liblua5.4-dev lua-filesystem
          libxxhash-dev lcov clang afl++ cmark-gfm ninja-build python3)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing missing packages: ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "setup: not root and no sudo: install ${missing[*]} by hand" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

if [ "$deps_only" -eq 1 ]; then
  exit 0
fi

cmake -S "$root" -B "$build" -DOP_SANITIZE=ON -DOP_COVERAGE=OFF
cmake --build "$build" -j2

cd "$root"
status=0
"$build/op-conform" run || status=$?
exit "$status"
