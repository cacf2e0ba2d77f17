#!/usr/bin/env bash
# Fuzz campaign: builds every fuzz/fuzz_<name>.c with libFuzzer (clang, ASan+UBSan) into
# build-fuzz/ and runs each for SECONDS seconds (default 60) on a copy of its seed corpus.
# Crashes are left in build-fuzz/crashes/<name>/; move a minimised one into
# fuzz/regressions/<name>/ so ctest replays it forever.
#   scripts/fuzz.sh [SECONDS] [NAME...]
#   FUZZ_ENGINE=afl scripts/fuzz.sh 60 tile_bytes     # AFL++ persistent mode instead
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}; shift || true
out=$top/build-fuzz
mkdir -p "$out"
cd "$top"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in fuzz/fuzz_*.c; do n=$(basename "$f" .c); names+=("${n#fuzz_}"); done
fi
engine=${FUZZ_ENGINE:-libfuzzer}
cflags="-std=c11 -O1 -g -ffp-contract=off -Iinclude -Iref -Iport $(pkg-config --cflags libxxhash)"
libs="$(pkg-config --libs libxxhash) -lm"
srcs="$(ls ref/*.c) $(ls port/*.c | grep -v port/main.c)"
for n in "${names[@]}"; do
  exe=$out/$n-$engine
  case $engine in
    libfuzzer)
      clang $cflags -fsanitize=fuzzer,address,undefined $srcs fuzz/fuzz_$n.c -o "$exe" $libs ;;
    afl)
      AFL_QUIET=1 afl-clang-fast $cflags $srcs fuzz/fuzz_$n.c /usr/lib/afl/libAFLDriver.a -o "$exe" $libs ;;
    *) echo "unknown FUZZ_ENGINE $engine" >&2; exit 2 ;;
  esac
  work=$out/corpus/$n; mkdir -p "$work" "$out/crashes/$n"
  [ -d fuzz/corpus/$n ] && cp -n fuzz/corpus/$n/* "$work"/ 2>/dev/null || true
  echo "== $n ($engine, ${secs}s)"
  if [ "$engine" = libfuzzer ]; then
    "$exe" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$out/crashes/$n/" "$work" 2>&1 \
      | grep -E "^#[0-9]+.*(pulse|DONE)|stat::|ERROR|SUMMARY" | tail -n 12
  else
    [ -n "$(ls -A "$work")" ] || printf 'seed' > "$work/seed"
    AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
      timeout $((secs + 30)) afl-fuzz -V "$secs" -i "$work" -o "$out/afl-$n" -- "$exe" | tail -n 5
  fi
done
