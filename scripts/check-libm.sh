#!/bin/sh
# check-libm.sh -- evidence for MATH-004 (spec/math.md): the reference library calls no
# function of the platform's math library except square root and the classification tests.
#
#   sh scripts/check-libm.sh LIB.a [LIB.a ...]
#
# Lists the undefined symbols of each archive member (nm -u) and intersects them with the
# functions the C math library exports (nm -D --defined-only libm.so.6, found with
# `cc -print-file-name=libm.so.6`, or given as LIBM=path). Every such symbol outside the
# allow-list below is a violation, printed as "member: symbol"; the exit status is then 1.
# Exit 77 (skipped) when nm or libm.so.6 cannot be found.
#
# Limits: a call the compiler expands inline (fabs, copysign, sqrt with -fno-math-errno)
# leaves no symbol and is not seen; every symbol that is seen is a real call.
set -u

ALLOW="sqrt sqrtf __isnan __isnanf isnan isnanf __isinf __isinff isinf isinff __finite __finitef
finite finitef __fpclassify __fpclassifyf __signbit __signbitf"

command -v nm >/dev/null 2>&1 || { echo "check-libm: nm not found: skipped"; exit 77; }
libm=${LIBM:-$(${CC:-cc} -print-file-name=libm.so.6 2>/dev/null)}
case "$libm" in /*) ;; *) libm="" ;; esac
if [ -z "$libm" ] || [ ! -r "$libm" ]; then
  echo "check-libm: libm.so.6 not found (set LIBM=path): skipped"
  exit 77
fi
[ $# -ge 1 ] || { echo "usage: check-libm.sh LIB.a [LIB.a ...]" >&2; exit 2; }

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
nm -D --defined-only "$libm" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u >"$tmp/libm"
# A sanity check of the list itself: it must hold the functions the rule is about.
for f in sin cos floor sqrt; do
  grep -qx "$f" "$tmp/libm" || { echo "check-libm: $libm does not export $f?"; exit 2; }
done
printf '%s\n' $ALLOW | sort -u >"$tmp/allow"

bad=0
for lib in "$@"; do
  [ -r "$lib" ] || { echo "check-libm: cannot read $lib"; exit 2; }
  # "member.o:   U symbol" lines; members without a colon prefix (a single object) too
  nm -A -u "$lib" 2>/dev/null | awk '{ m = $1; sub(/:$/, "", m); n = split(m, p, ":"); print p[n], $NF }' |
    sort -u >"$tmp/undef"
  while read -r member sym; do
    grep -qx "$sym" "$tmp/libm" || continue
    grep -qx "$sym" "$tmp/allow" && continue
    echo "$(basename "$lib"): $member calls $sym (MATH-004 allows only sqrt and classification)"
    bad=1
  done <"$tmp/undef"
done
if [ $bad -eq 0 ]; then
  echo "check-libm: no math-library call other than sqrt and classification in $*"
fi
exit $bad
