#!/bin/bash -eu
# OSS-Fuzz build script: builds every fuzz/fuzz_<name>.c (and fuzz/history/fuzz_<name>.c,
# the obstacle-history harness) as $OUT/<name> with the engine and
# sanitizer flags OSS-Fuzz gives ($CC, $CFLAGS, $LIB_FUZZING_ENGINE), and puts beside each
# fuzzer its seed corpus ($OUT/<name>_seed_corpus.zip from fuzz/corpus/<name>/ and
# fuzz/regressions/<name>/) and dictionary ($OUT/<name>.dict from fuzz/dict/<name>.dict).
# The byte harnesses include fuzz/*.h (tilecache_fixture.h: the one cache fuzz_tilecache_snapshot
# builds on its first input and keeps); fuzz/mkcorpus_bytes.c is a corpus generator, not a
# harness (its output is committed in fuzz/corpus/), so it is not built here.
# Run from the kit's top directory (the Dockerfile's WORKDIR), or set ONEPATH_SRC.
#   local check: CC=clang CFLAGS="-fsanitize=address,fuzzer-no-link" \
#                LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out fuzz/oss-fuzz/build.sh
src=${ONEPATH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
: "${CC:?}" "${CFLAGS:=}" "${LIB_FUZZING_ENGINE:?}" "${OUT:?}"
work=${WORK:-$(mktemp -d)}/onepath-obj
mkdir -p "$work" "$OUT"
cd "$src"
# The kit's arithmetic rules (docs/contributing.md): no contraction, no fast-math. xxHash is
# compiled inline (XXH_INLINE_ALL) so the fuzzers do not need libxxhash.so on ClusterFuzz.
# The harnesses and port/ see include/ only (issue 12); the library's own sources also ref/.
flags="-std=c11 -ffp-contract=off -fno-fast-math -DXXH_INLINE_ALL -Iinclude -Iport -Ifuzz"
objs=()
for s in $(find ref -name "*.c" | sort) port/*.c; do
  [ "$s" = port/main.c ] && continue
  o=$work/$(echo "$s" | tr / _).o
  case $s in ref/*) sflags=-Iref ;; *) sflags= ;; esac
  $CC $CFLAGS $flags $sflags -c "$s" -o "$o"
  objs+=("$o")
done
rm -f "$work/libonepath.a"
ar rcs "$work/libonepath.a" "${objs[@]}"
# A harness naming OP_FUZZ_LIB_NO_TRACE_CMP (the obstacle-history harness: whole navmesh
# builds per input) links a second archive whose ref/build3d/ objects are compiled without
# comparison tracing (edge coverage kept), as scripts/fuzz.sh does: the tracing of the
# pipeline's numeric loops costs half of that harness's time and guides nothing (its input
# bytes are small decisions). Only when $CFLAGS has SanitizerCoverage (libFuzzer's
# fuzzer-no-link or -fsanitize-coverage=...); other builds link the one archive.
notc=
rm -f "$work/libonepath-notc.a"
case " $CFLAGS " in *fuzzer-no-link*|*-fsanitize-coverage=*) notc=-fno-sanitize-coverage=trace-cmp ;; esac
if [ -n "$notc" ] && grep -lq OP_FUZZ_LIB_NO_TRACE_CMP fuzz/fuzz_*.c fuzz/history/fuzz_*.c 2>/dev/null; then
  nobjs=()
  for s in $(find ref -name "*.c" | sort) port/*.c; do
    [ "$s" = port/main.c ] && continue
    o=$work/$(echo "$s" | tr / _).o
    case $s in
      ref/build3d/*) $CC $CFLAGS $notc $flags -Iref -c "$s" -o "${o%.o}.notc.o"; nobjs+=("${o%.o}.notc.o") ;;
      *) nobjs+=("$o") ;;
    esac
  done
  rm -f "$work/libonepath-notc.a"
  ar rcs "$work/libonepath-notc.a" "${nobjs[@]}"
fi
for h in fuzz/fuzz_*.c fuzz/history/fuzz_*.c; do
  [ -f "$h" ] || continue
  name=$(basename "$h" .c); name=${name#fuzz_}
  lib=$work/libonepath.a
  [ -f "$work/libonepath-notc.a" ] && grep -q OP_FUZZ_LIB_NO_TRACE_CMP "$h" && lib=$work/libonepath-notc.a
  $CC $CFLAGS $flags -c "$h" -o "$work/fuzz_$name.o"
  $CC $CFLAGS "$work/fuzz_$name.o" "$lib" $LIB_FUZZING_ENGINE -lm -o "$OUT/$name"
  seeds=()
  for d in fuzz/corpus/$name fuzz/regressions/$name; do [ -d "$d" ] && seeds+=("$d"); done
  if [ ${#seeds[@]} -gt 0 ]; then
    rm -f "$OUT/${name}_seed_corpus.zip"
    zip -q -j "$OUT/${name}_seed_corpus.zip" $(find "${seeds[@]}" -type f ! -name '*.md')
  fi
  [ -f "fuzz/dict/$name.dict" ] && cp "fuzz/dict/$name.dict" "$OUT/$name.dict"
done
echo "built: $(cd "$OUT" && ls | tr '\n' ' ')"
