#!/bin/sh
# expect.sh STATUS PATTERN CMD ARGS... -- runs CMD, then checks its exit status (a number,
# or "nonzero") and that its stdout+stderr, lines joined by spaces, match the extended
# regular expression PATTERN.
# Used by the tools/ ctest entries (tools/CMakeLists.txt).
want=$1; pat=$2; shift 2
out=$("$@" 2>&1); rc=$?
echo "$out"
if [ "$want" = nonzero ]; then
  [ $rc -ne 0 ] || { echo "FAIL: expected a non-zero exit status, got 0"; exit 1; }
else
  [ $rc -eq "$want" ] || { echo "FAIL: expected exit status $want, got $rc"; exit 1; }
fi
printf '%s\n' "$out" | tr '\n' ' ' | grep -Eq -- "$pat" || { echo "FAIL: output does not match: $pat"; exit 1; }
echo "ok: status $rc, output matches: $pat"
