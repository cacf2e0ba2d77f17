#!/bin/bash -eu
# ClusterFuzzLite build script: the OSS-Fuzz build of the kit (fuzz/oss-fuzz/build.sh) run
# from the source tree the Dockerfile copies to $SRC/onepath, with the variables the
# OSS-Fuzz base image sets ($CC, $CFLAGS, $LIB_FUZZING_ENGINE, $OUT, $SRC, $WORK). It writes
# every harness (fuzz/fuzz_*.c, fuzz/history/fuzz_*.c) to $OUT/<name> with
# <name>_seed_corpus.zip and <name>.dict.
#   local check: CC=clang CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" \
#                LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out SRC=$PWD/.. WORK=/tmp/work .clusterfuzzlite/build.sh
src=${ONEPATH_SRC:-${SRC:-}/onepath}
[ -d "$src/fuzz/oss-fuzz" ] || src=$(cd "$(dirname "$0")/.." && pwd)
ONEPATH_SRC=$src exec "$src/fuzz/oss-fuzz/build.sh"
