#!/usr/bin/env bash
# Fuzz campaign: builds every fuzz/fuzz_<name>.c with libFuzzer (clang, ASan+UBSan) and runs
# each for SECONDS seconds (default 60) on its corpus, with a live status line (elapsed time,
# execs, execs/s, corpus size, coverage, crashes) parsed from libFuzzer's output as it goes.
# A crash does not end the campaign: the harness is restarted for the time left (at most
# FUZZ_MAX_CRASHES crashes per harness). At the end every crash is minimised
# (-minimize_crash=1) into $FUZZ_CRASH_DIR/<name>/ (default fuzz/regressions-pending/<name>/,
# which ctest does not replay) with a line in its README.md; for a structured harness (one
# whose source honours OP_FUZZ_TRACE) the readable trace of the minimised input is written
# beside it as <file>.trace.jsonl. Once the bug is fixed, move both files to
# fuzz/regressions/<name>/ (ctest replays that directory) with their README line.
#
#   scripts/fuzz.sh [SECONDS] [NAME...]
#   FUZZ_ENGINE=afl scripts/fuzz.sh 60 tile_bytes     # AFL++ persistent mode instead
#
# Environment:
#   FUZZ_OUT=DIR          build and work directory (default build-fuzz)
#   FUZZ_CRASH_DIR=DIR    where minimised crashes go (default fuzz/regressions-pending)
#   FUZZ_MINIMIZE=0       leave crashes unminimised in $FUZZ_OUT/crashes/<name>/ (CI)
#   FUZZ_MAX_CRASHES=N    restarts after a crash per harness (default 3)
#   FUZZ_STATUS=line|log  live status as one rewritten line (default on a terminal) or a log
#                         line every 10 s
#   FUZZ_ARGS="..."       extra libFuzzer flags (e.g. -max_len=4096; "-fork=1 -ignore_crashes=1"
#                         keeps fuzzing after a crash, for a harness with a known bug)
#   FUZZ_LIB_NOTC=0       link every harness against the one library (no second archive
#                         without comparison tracing for OP_FUZZ_LIB_NO_TRACE_CMP harnesses)
# Exit status: 0 when no harness crashed, 1 when one did, 2 on a build or usage error.
# The per-harness summary (execs, execs/s, corpus, crashes) is also written to
# $FUZZ_OUT/summary.tsv.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}; shift || true
out=${FUZZ_OUT:-$top/build-fuzz}
crash_dir=${FUZZ_CRASH_DIR:-$top/fuzz/regressions-pending}
minimize=${FUZZ_MINIMIZE:-1}
max_crashes=${FUZZ_MAX_CRASHES:-3}
engine=${FUZZ_ENGINE:-libfuzzer}
if [ -t 1 ]; then status_mode=${FUZZ_STATUS:-line}; else status_mode=${FUZZ_STATUS:-log}; fi
case $secs in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [NAME...]" >&2; exit 2 ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$top"
names=("$@")
# Harnesses: fuzz/fuzz_<name>.c, and fuzz/history/fuzz_<name>.c (the obstacle-history harness).
src_of() { local s; for s in "fuzz/fuzz_$1.c" "fuzz/history/fuzz_$1.c"; do [ -f "$s" ] && { echo "$s"; return 0; }; done; return 1; }
if [ ${#names[@]} -eq 0 ]; then
  for f in fuzz/fuzz_*.c fuzz/history/fuzz_*.c; do
    [ -f "$f" ] || continue; n=$(basename "$f" .c); names+=("${n#fuzz_}")
  done
fi
for n in "${names[@]}"; do
  src_of "$n" > /dev/null || { echo "fuzz.sh: no harness fuzz/fuzz_$n.c" >&2; exit 2; }
done

xxcflags=$(pkg-config --cflags libxxhash 2>/dev/null || true)
xxlibs=$(pkg-config --libs libxxhash 2>/dev/null || echo -lxxhash)
# The harnesses and port/ see include/ only (issue 12); the library's own sources also ref/.
cflags="-std=c11 -O1 -g -ffp-contract=off -fno-fast-math -Iinclude -Iport -Ifuzz $xxcflags"
libs="$xxlibs -lm"
srcs="$(find ref -name "*.c" | sort) $(ls port/*.c | grep -v port/main.c)"

# The library is compiled once per engine into an archive; each harness links against it.
# $4 (optional): an object directory of the same compiler whose objects are taken as they are
# for every source outside ref/build3d/ (the no-trace-cmp archive recompiles only the 3D
# pipeline, where the time goes; half the sources, so half the build).
build_lib() { # $1 = compiler, $2 = instrumentation flags, $3 = archive, [$4 = objdir to reuse]
  local cc=$1 inst=$2 lib=$3 objdir=$3.obj reuse=${4:-}
  rm -rf "$objdir"; mkdir -p "$objdir"
  local pids=() s o sflags i=0
  for s in $srcs; do
    o=$objdir/$(echo "$s" | tr / _).o
    if [ -n "$reuse" ] && [ "${s#ref/build3d/}" = "$s" ] && [ -f "$reuse/$(basename "$o")" ]; then
      cp "$reuse/$(basename "$o")" "$o"; continue
    fi
    case $s in ref/*) sflags=-Iref ;; *) sflags= ;; esac
    $cc $cflags $sflags $inst -c "$s" -o "$o" &
    pids+=($!)
    i=$((i + 1))
    if [ $((i % 2)) -eq 0 ]; then wait "${pids[@]}" || return 1; pids=(); fi
  done
  [ ${#pids[@]} -eq 0 ] || wait "${pids[@]}" || return 1
  rm -f "$lib"; ar rcs "$lib" "$objdir"/*.o
}

case $engine in
  libfuzzer)
    cc=clang; inst_lib="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
    inst_exe="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined" ;;
  afl)
    cc=afl-clang-fast; inst_lib=""; inst_exe="" ; export AFL_QUIET=1 ;;
  *) echo "unknown FUZZ_ENGINE $engine" >&2; exit 2 ;;
esac
lib=$out/libonepath-$engine.a
need_lib=0; need_notc=0
for n in "${names[@]}"; do
  if [ "$engine" = libfuzzer ] && [ "${FUZZ_LIB_NOTC:-1}" = 1 ] && grep -q OP_FUZZ_LIB_NO_TRACE_CMP "$(src_of "$n")"; then
    need_notc=1
  else
    need_lib=1
  fi
done
if [ "$need_lib" = 1 ]; then
  echo "fuzz.sh: building the library for $engine in $out"
  build_lib "$cc" "$inst_lib" "$lib" || { echo "fuzz.sh: library build failed" >&2; exit 2; }
fi
# A harness whose source names OP_FUZZ_LIB_NO_TRACE_CMP (the obstacle-history harness: whole
# navmesh builds per input, where libFuzzer's comparison tracing of the library's numeric
# loops costs half the time and its inputs are small decision bytes, not magic values)
# links a second archive whose ref/build3d/ objects are built without
# -fsanitize-coverage=trace-cmp (edge coverage kept; the other objects are the first
# archive's when it was built), built only when such a harness runs.
lib_notc=$out/libonepath-$engine-notc.a
if [ "$need_notc" = 1 ]; then
  echo "fuzz.sh: building the library without comparison tracing"
  reuse=; [ "$need_lib" = 1 ] && reuse=$lib.obj
  build_lib "$cc" "$inst_lib -fno-sanitize-coverage=trace-cmp" "$lib_notc" $reuse \
    || { echo "fuzz.sh: library build failed" >&2; exit 2; }
fi

any_crash=0
printf 'name\tseconds\texecs\texecs_per_s\tcorpus\tcov\tcrashes\n' > "$out/summary.tsv"

# Reads libFuzzer's output and keeps the status line up to date. Lines look like
#   #4096  pulse  cov: 312 ft: 901 corp: 45/3021b lim: 4 exec/s: 2048 rss: 40Mb
#   #5012  NEW    cov: 315 ft: 910 corp: 46/3107b lim: 4 exec/s: 1670 rss: 41Mb L: 12/90 MS: 1 ...
# and the final stats "stat::number_of_executed_units: N".
status_reader() { # $1 name, $2 secs, $3 start epoch, $4 state file, $5 log file, $6 crashes so far
  local name=$1 total=$2 t0=$3 state=$4 log=$5 crashes=$6
  local execs=0 eps=0 corp=0 cov=0 last_print=0 line now el
  [ -f "$state" ] && read -r execs eps corp cov < "$state"
  while IFS= read -r line; do
    printf '%s\n' "$line" >> "$log"
    # (-fork=N mode, e.g. FUZZ_ARGS="-fork=1 -ignore_crashes=1", prints "#4096: cov: 312 ...
    # corp: 45 exec/s 2048 ...": both forms are read)
    if [[ $line =~ ^#([0-9]+):?[[:space:]] ]]; then
      execs=${BASH_REMATCH[1]}
      [[ $line =~ cov:\ ([0-9]+) ]] && cov=${BASH_REMATCH[1]}
      [[ $line =~ corp:\ ([0-9]+) ]] && corp=${BASH_REMATCH[1]}
      [[ $line =~ exec/s:?\ ([0-9]+) ]] && eps=${BASH_REMATCH[1]}
      [[ $line =~ oom/timeout/crash:\ [0-9]+/[0-9]+/([0-9]+) ]] && crashes=$((${6:-0} + BASH_REMATCH[1]))
    elif [[ $line =~ ^stat::number_of_executed_units:\ ([0-9]+) ]]; then
      execs=${BASH_REMATCH[1]}
    elif [[ $line =~ ^stat::average_exec_per_sec:\ ([0-9]+) ]]; then
      eps=${BASH_REMATCH[1]}
    elif [[ $line == *"ERROR: libFuzzer"* || $line == *"ERROR: AddressSanitizer"* || $line == *"runtime error:"* || $line == *"ORACLE FAILED"* ]]; then
      printf '\n%s: %s\n' "$name" "${line:0:200}"
    fi
    now=$(date +%s); el=$((now - t0))
    if [ "$status_mode" = line ]; then
      printf '\r[%s] %3ds/%ds  execs %-9s exec/s %-6s corpus %-5s cov %-5s crashes %s   ' \
        "$name" "$el" "$total" "$execs" "$eps" "$corp" "$cov" "$crashes"
    elif [ $((now - last_print)) -ge 10 ]; then
      last_print=$now
      printf '[%s] %3ds/%ds  execs %s  exec/s %s  corpus %s  cov %s  crashes %s\n' \
        "$name" "$el" "$total" "$execs" "$eps" "$corp" "$cov" "$crashes"
    fi
    echo "$execs $eps $corp $cov" > "$state"
  done
}

for n in "${names[@]}"; do
  exe=$out/$n-$engine
  src=$(src_of "$n")
  hlib=$lib; [ "$need_notc" = 1 ] && grep -q OP_FUZZ_LIB_NO_TRACE_CMP "$src" && hlib=$lib_notc
  if ! $cc $cflags $inst_exe "$src" "$hlib" -o "$exe" $libs \
       $([ "$engine" = afl ] && echo /usr/lib/afl/libAFLDriver.a); then
    echo "fuzz.sh: building $n failed" >&2; exit 2
  fi
  work=$out/corpus/$n; crashes=$out/crashes/$n
  mkdir -p "$work" "$crashes"
  seeds=(); [ -d "fuzz/corpus/$n" ] && seeds+=("fuzz/corpus/$n")
  dict=(); [ -f "fuzz/dict/$n.dict" ] && dict+=("-dict=fuzz/dict/$n.dict")
  echo "== $n ($engine, ${secs}s${dict:+, dictionary fuzz/dict/$n.dict})"
  if [ "$engine" = afl ]; then
    [ -n "$(ls -A "$work")" ] || { [ ${#seeds[@]} -gt 0 ] && cp -n "${seeds[0]}"/* "$work"/; } || true
    [ -n "$(ls -A "$work")" ] || printf 'seed' > "$work/seed"
    AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
      timeout $((secs + 30)) afl-fuzz -V "$secs" ${dict:+-x fuzz/dict/$n.dict} -i "$work" \
      -o "$out/afl-$n" -- "$exe" | tail -n 5
    if [ -n "$(ls "$out/afl-$n"/default/crashes/id:* 2>/dev/null)" ]; then
      cp "$out/afl-$n"/default/crashes/id:* "$crashes"/; any_crash=1
    fi
    st=$out/afl-$n/default/fuzzer_stats
    stat_of() { awk -v k="$1" '$1 == k { print $3 }' "$st" 2>/dev/null; }
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$secs" "$(stat_of execs_done)" "$(stat_of execs_per_sec)" \
      "$(stat_of corpus_count)" "$(stat_of bitmap_cvg)" "$(ls "$crashes" | wc -l)" >> "$out/summary.tsv"
    continue
  fi
  state=$out/$n.state; log=$out/$n.log
  rm -f "$state"; : > "$log"
  t0=$(date +%s); ncrash=0
  while :; do
    left=$((secs - ($(date +%s) - t0)))
    [ "$left" -gt 0 ] || break
    before=$(ls "$crashes" | wc -l)
    # shellcheck disable=SC2086
    "$exe" -max_total_time="$left" -print_final_stats=1 -timeout=10 -rss_limit_mb=1024 \
      -artifact_prefix="$crashes/" "${dict[@]}" ${FUZZ_ARGS:-} "$work" "${seeds[@]}" 2>&1 \
      | status_reader "$n" "$secs" "$t0" "$state" "$log" "$ncrash"
    after=$(ls "$crashes" | wc -l)
    [ "$after" -gt "$before" ] || break
    ncrash=$((ncrash + after - before))
    [ "$ncrash" -lt "$max_crashes" ] || break
  done
  el=$(($(date +%s) - t0))
  read -r execs eps corp cov < "$state" 2>/dev/null || { execs=0; eps=0; corp=0; cov=0; }
  [ "$el" -gt 0 ] && eps=$((execs / el))
  ncrash=$(ls "$crashes" | wc -l)
  [ "$status_mode" = line ] && echo
  printf '%s: %ds, %s execs (%s/s), corpus %s, cov %s, crashes %s\n' "$n" "$el" "$execs" "$eps" "$corp" "$cov" "$ncrash"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$el" "$execs" "$eps" "$corp" "$cov" "$ncrash" >> "$out/summary.tsv"
  [ "$ncrash" -eq 0 ] && continue
  any_crash=1
  [ "$minimize" = 1 ] || { echo "  crashes left in $crashes/"; continue; }
  dest=$crash_dir/$n; mkdir -p "$dest"
  structured=0; grep -q OP_FUZZ_TRACE "$src" && structured=1
  for c in "$crashes"/*; do
    [ -f "$c" ] || continue
    min=$out/min-$(basename "$c")
    "$exe" -minimize_crash=1 -runs=20000 -max_total_time=60 -exact_artifact_path="$min" "$c" \
      > "$out/minimize-$n.log" 2>&1 || true
    [ -s "$min" ] || cp "$c" "$min"
    h=$(sha1sum "$min" | cut -c1-16)
    cp "$min" "$dest/$h"
    why=$("$exe" -runs=1 "$dest/$h" 2>&1 | grep -m1 -E 'ORACLE FAILED|ERROR: AddressSanitizer|runtime error:|ERROR: libFuzzer|SUMMARY' \
          | sed 's/^==[0-9]*==//' | cut -c1-240)
    if [ "$structured" = 1 ]; then
      OP_FUZZ_TRACE="$dest/$h.trace.jsonl" "$exe" -runs=1 "$dest/$h" > /dev/null 2>&1 || true
    fi
    readme=$crash_dir/README.md
    [ -f "$readme" ] || printf '# Fuzz findings\n\nOne line per input: harness/file, date, what it found.\n\n' > "$readme"
    grep -q "$n/$h" "$readme" || printf -- '- `%s/%s` (%s, %s bytes%s): %s\n' "$n" "$h" "$(date -u +%F)" \
      "$(stat -c %s "$dest/$h")" "$([ "$structured" = 1 ] && echo ", trace $h.trace.jsonl")" "${why:-see $c}" >> "$readme"
    echo "  minimised: $dest/$h ($(stat -c %s "$dest/$h") bytes): ${why:-?}"
  done
done
exit $any_crash
