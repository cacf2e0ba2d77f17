#!/usr/bin/env bash
# bench.sh -- every benchmark of the kit in one run, side by side with its anchor (issue 16,
# item 6; docs/benchmarks.md "One run of everything"). A measurement, not a test.
#
#   scripts/bench.sh [--quick] [--no-install] [--cpu|--wall] [--build DIR] [--out DIR]
#
# 1. Installs what the comparisons need, only the missing Debian packages (as
#    scripts/setup.sh does: apt-get update once, sudo when not root): librecast-dev (Recast,
#    Detour, DetourTileCache), g++, cmake, pkg-config, libxxhash-dev, lua5.4,
#    liblua5.4-dev, time (/usr/bin/time). --no-install skips this step.
# 2. Builds the kit (plain variant, the CMakeLists' default RelWithDebInfo, -O2) into
#    DIR (default build-bench/; OP_BENCH_BUILD also sets it).
# 3. Runs: the span stages (scripts/spans-recast-diff.sh), regions and contours
#    (scripts/regions-recast-diff.sh), the full bake for every partition
#    (scripts/bench-bake.sh), the tile cache at city 4 and 8 (scripts/bench-tilecache.sh),
#    the 2D builder (scripts/bench-build2d.sh: no anchor), the CLI bake of terrain 64, 128,
#    256, peak RSS of ours and of Recast per level (getrusage via /usr/bin/time), and the
#    bake time against level area (terrain 64 .. 1024, ours and Recast; city 4, 8, 16).
# 4. Writes out/bench/summary.md (one table of ratios ours / anchor, above 1 = ours slower,
#    with the machine, the date and the load average at each figure), out/bench/area.svg
#    (the bake-versus-area line chart) and every raw output as out/bench/*.txt.
# A benchmark whose anchor is missing prints a loud "NO ANCHOR" line, in the summary too;
# nothing is skipped silently. --quick: fewer repetitions, smaller inputs, area up to 256.
# The full bake, the CLI bake and the area series are timed in process CPU time when the
# 1-minute load average exceeds the processors at the start (--cpu forces it, --wall
# forbids it); the other benchmarks always use wall time (their own programs).
set -uo pipefail

quick=0
install=1
clock=auto
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${OP_BENCH_BUILD:-$root/build-bench}"
out="$root/out/bench"
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --no-install) install=0 ;;
    --cpu) clock=cpu ;;
    --wall) clock=wall ;;
    --build) build="$2"; shift ;;
    --out) out="$2"; shift ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "bench: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
cd "$root"

loud() { printf '\n!!!!! %s !!!!!\n\n' "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# ------------------------------------------------------------------ 1. packages
packages=(librecast-dev g++ cmake pkg-config libxxhash-dev lua5.4 liblua5.4-dev time)
if ((install)); then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "bench: installing missing packages: ${missing[*]}"
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1; then sudo=(sudo)
      else loud "not root and no sudo: install ${missing[*]} by hand"; fi
    fi
    if [ "$(id -u)" -eq 0 ] || ((${#sudo[@]})); then
      export DEBIAN_FRONTEND=noninteractive
      "${sudo[@]}" apt-get update && "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" ||
        loud "apt-get failed: ${missing[*]} missing"
    fi
  else
    echo "bench: all packages present"
  fi
fi
have_recast=0
[ -f /usr/include/recastnavigation/Recast.h ] && command -v g++ >/dev/null 2>&1 && have_recast=1
((have_recast)) || loud "librecast-dev or g++ missing: every Recast column below is NO ANCHOR"
timev=/usr/bin/time
[ -x "$timev" ] || { loud "/usr/bin/time missing (Debian package time): no peak RSS"; timev=""; }

# ------------------------------------------------------------------ 2. build
echo "bench: building into $build"
cmake -S "$root" -B "$build" -DOP_SANITIZE=OFF >"$out/build.txt" 2>&1 &&
  cmake --build "$build" -j2 --target onepath onepath-cli >>"$out/build.txt" 2>&1 || {
  tail -30 "$out/build.txt" >&2
  echo "bench: the build failed (see $out/build.txt)" >&2
  exit 2
}
cli="$build/tools/onepath"

# ------------------------------------------------------------------ 3. runs
rows=()   # summary rows: what | ours | anchor | ratio | load
notes=()
row() { rows+=("| $1 | $2 | $3 | $4 | $5 |"); }
noanchor() { loud "NO ANCHOR: $1"; rows+=("| $1 | $2 | **NO ANCHOR** ($3) | - | $4 |"); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

q=(); ((quick)) && q=(--quick)
if [ "$clock" = auto ]; then
  clock=$(awk -v n="$(nproc)" '{ print ($1 > n ? "cpu" : "wall") }' /proc/loadavg)
fi
cpu=(); [ "$clock" = cpu ] && cpu=(--cpu)
reps=3; ((quick)) && reps=2

# spans (issue 3): open spans per second, converted to a time ratio (Recast rate / ours)
echo "bench: spans ($(load))"
l=$(load)
sh scripts/spans-recast-diff.sh "$build" "${q[@]}" >"$out/spans.txt" 2>&1
a=$(awk -F'|' '/^\| all \|/ { gsub(/ /, ""); print $10, $11 }' "$out/spans.txt" | tail -1)
if [ -n "$a" ]; then
  set -- $a
  row "spans stage, all levels and presets (s per span)" "$1 spans/s" "Recast $2 spans/s" "$(ratio "$2" "$1")" "$l"
  awk -F'|' '/^\| [a-z]+ \| Large \|/ { gsub(/ /, ""); printf "%s %s %s\n", $2, $10, $11 }' "$out/spans.txt" |
    while read -r lv o r; do echo "| spans, $lv Large | $o spans/s | Recast $r spans/s | $(ratio "$r" "$o") | $l |"; done >"$out/spans-large.rows"
  while IFS= read -r x; do rows+=("$x"); done <"$out/spans-large.rows"
else
  noanchor "spans stage" "-" "$(grep -m1 -i 'skipped\|missing' "$out/spans.txt" || echo 'no table in spans.txt')" "$l"
fi

# regions and contours (issue 4): us per tile, ratio per partition and stage
echo "bench: regions and contours ($(load))"
l=$(load)
sh scripts/regions-recast-diff.sh "$build" "${q[@]}" --reps "$reps" >"$out/regions.txt" 2>&1
a=$(sed -n 's/^total time ours \([0-9.]*\) ms, Recast \([0-9.]*\) ms.*/\1 \2/p' "$out/regions.txt")
if [ -n "$a" ]; then
  set -- $a
  row "regions + contours, all (ms)" "$1" "Recast $2" "$(ratio "$1" "$2")" "$l"
  # per partition and stage: time summed over the rows (us per tile x tiles), and the rows' range
  awk -F'|' 'NF > 9 && $9 ~ /[0-9]/ { gsub(/ /, "", $4); gsub(/ /, "", $5); k = $4 " " $5;
      O[k] += $6 * $7; R[k] += $6 * $8;
      r = $9 + 0; if (!(k in lo) || r < lo[k]) lo[k] = r; if (!(k in hi) || r > hi[k]) hi[k] = r }
      END { for (k in lo) printf "%s %.1f %.1f %.2f %.2f %.2f\n", k, O[k] / 1e3, R[k] / 1e3,
            (R[k] > 0 ? O[k] / R[k] : 0), lo[k], hi[k] }' "$out/regions.txt" | sort |
    while read -r p s o r t lo hi; do echo "| $s, $p, all levels x presets (ms) | $o | Recast $r | $t (rows $lo .. $hi) | $l |"; done >"$out/regions.rows"
  while IFS= read -r x; do rows+=("$x"); done <"$out/regions.rows"
else
  noanchor "regions + contours" "-" "$(grep -m1 -i 'skipped\|missing' "$out/regions.txt" || echo 'no total in regions.txt')" "$l"
fi

# full bake (issue 5), every partition
echo "bench: full bake ($(load))"
l=$(load)
BENCH_BAKE_KEEP="$out/bench_bake" sh scripts/bench-bake.sh "$build" --partition all --reps "$reps" --tsv "${cpu[@]}" "${q[@]}" >"$out/bake.txt" 2>&1
if grep -q '^BAKE' "$out/bake.txt"; then
  for p in watershed monotone layers; do
    awk -v p="$p" -F'\t' '$1 == "BAKE" && $4 == p { o += $7; r += $8; x = $7 / $8;
        if (n == 0 || x < lo) lo = x; if (n == 0 || x > hi) hi = x; n++ }
        END { if (n) printf "%.1f %.1f %.2f %.2f %.2f\n", 1e3 * o, 1e3 * r, o / r, lo, hi }' "$out/bake.txt" |
      while read -r o r t lo hi; do echo "| full bake, $p, all levels x presets (ms) | $o | Recast+Detour $r | $t (rows $lo .. $hi) | $l |"; done
  done >"$out/bake.rows"
  while IFS= read -r x; do rows+=("$x"); done <"$out/bake.rows"
  a=$(awk -F'\t' '$1 == "BAKE" { o += $7; r += $8 } END { printf "%.1f %.1f", 1e3 * o, 1e3 * r }' "$out/bake.txt")
  set -- $a
  row "full bake, overall (ms)" "$1" "Recast+Detour $2" "$(ratio "$1" "$2")" "$l"
else
  noanchor "full bake" "-" "$(grep -m1 -i 'skipped\|missing\|error' "$out/bake.txt" || echo 'no rows in bake.txt')" "$l"
fi

# tile cache (issue 6): city 4 and 8
for size in 4 8; do
  echo "bench: tile cache, city $size ($(load))"
  l=$(load)
  tcq=(); ((quick)) && tcq=(--reps 3)
  sh scripts/bench-tilecache.sh --size "$size" "${tcq[@]}" >"$out/tilecache-$size.txt" 2>&1
  o=$(awk -F'|' '/^\| ours/ { gsub(/ /, ""); print $3, $6, $7; exit }' "$out/tilecache-$size.txt")
  d=$(awk -F'|' '/^\| DetourTileCache/ { gsub(/ /, ""); print $3, $6, $7; exit }' "$out/tilecache-$size.txt")
  if [ -n "$o" ] && [ -n "$d" ]; then
    set -- $o $d
    row "tile cache city $size, median us/cycle" "$2" "DetourTileCache $5" "$(ratio "$2" "$5")" "$l"
    row "tile cache city $size, mean us/cycle" "$3" "DetourTileCache $6" "$(ratio "$3" "$6")" "$l"
    row "tile cache city $size, first (cached) bake ms" "$1" "DetourTileCache $4" "$(ratio "$1" "$4")" "$l"
  else
    noanchor "tile cache city $size" "${o:--}" "$(grep -m1 -i 'not found\|skipped\|not in this build\|error' "$out/tilecache-$size.txt" || echo 'no table')" "$l"
  fi
done

echo "bench: queries against Detour ($(load))"; l=$(load)
bash scripts/bench-query.sh --no-install "${q[@]}" >"$out/query-run.txt" 2>&1 || loud "bench-query failed (see $out/query-run.txt)"
# one row per level of query.txt: "### LEVEL: time per query" then the four-calls row (CPU us)
qrows=$(awk -F'|' '/^### .*: time per query/ { lv = $0; sub(/^### /, "", lv); sub(/: time per query.*/, "", lv) }
  /the four calls/ && lv != "" { gsub(/ /, "", $3); gsub(/ /, "", $4); print lv "|" $3 "|" $4; lv = "" }' "$out/query.txt" 2>/dev/null)
if [ -n "$qrows" ]; then
  while IFS='|' read -r lv o d; do
    row "queries $lv, nearest x2 + find path + straight path (CPU us per query)" "$o" "Detour $d" "$(ratio "$o" "$d")" "$l"
  done <<<"$qrows"
else
  noanchor "queries against Detour" "-" "$(grep -m1 -i 'not found\|skipped\|error' "$out/query-run.txt" || echo 'no table in query.txt')" "$l"
fi
# 2D builder (issue 8): there is no anchor for it
echo "bench: 2D builder ($(load))"
l=$(load)
BENCH_OUT="$build/bench2d" bash scripts/bench-build2d.sh "$( ((quick)) && echo quick || echo full)" >"$out/build2d.txt" 2>&1
noanchor "2D builder (build2d.txt has its table)" "see build2d.txt" "no comparable 2D builder installed" "$l"

# the CLI bake of the issue's table: terrain 64 / 128 / 256, and the 4x-area ratios
echo "bench: onepath build --level terrain ($(load))"
l=$(load)
prev=""
cline=""
for n in 64 128 256; do
  best=""
  for r in $(seq "$reps"); do
    if [ "$clock" = cpu ]; then # bash's time: user and system CPU to the millisecond
      TIMEFORMAT='%3U %3S'
      { time "$cli" build --level terrain --size "$n" --threads 1 -o "$out/terrain-$n.mesh" >/dev/null 2>&1; } 2>"$out/time.tmp" ||
        { time "$cli" build --level terrain --size "$n" -o "$out/terrain-$n.mesh" >/dev/null 2>&1; } 2>"$out/time.tmp"
      t=$(awk '{ print $1 + $2 }' "$out/time.tmp")
    else
      t=$("$cli" build --level terrain --size "$n" --threads 1 -o "$out/terrain-$n.mesh" 2>&1 | sed -n 's/^build time: \([0-9.]*\) s.*/\1/p')
      [ -n "$t" ] || t=$("$cli" build --level terrain --size "$n" -o "$out/terrain-$n.mesh" 2>&1 | sed -n 's/^build time: \([0-9.]*\) s.*/\1/p')
    fi
    best=$(awk -v a="${best:-1e300}" -v b="${t:-1e300}" 'BEGIN { print (b < a ? b : a) }')
  done
  cline="$cline $n: $best s"
  [ -n "$prev" ] && cline="$cline (x$(ratio "$best" "$prev"))"
  prev=$best
done
rm -f "$out"/terrain-*.mesh "$out/time.tmp"
row "onepath build --level terrain --size 64/128/256 (4x area each step; linear = x4)" "$cline" "-" "-" "$l"

# peak RSS, ours and Recast+Detour, per level (Humanoid, watershed, the bench's sizes)
if [ -n "$timev" ] && [ -x "$out/bench_bake" ]; then
  echo "bench: peak RSS ($(load))"
  for lv in terrain city stairs dungeon; do
    ro=$("$timev" -f '%M' "$out/bench_bake" --ours-only 1 --only "$lv" --preset Humanoid "${q[@]}" 2>&1 >/dev/null | tail -1)
    rr=$("$timev" -f '%M' "$out/bench_bake" --recast-only 1 --only "$lv" --preset Humanoid "${q[@]}" 2>&1 >/dev/null | tail -1)
    row "peak RSS, bake of $lv (Humanoid; KB, whole process)" "$ro" "Recast+Detour $rr" "$(ratio "$ro" "$rr")" "$(load)"
  done
else
  noanchor "peak RSS" "-" "bench_bake not built or no /usr/bin/time" "$(load)"
fi

# bake time against level area: terrain 64 .. 1024 (quick: .. 256), Humanoid, watershed
echo "bench: bake time against area ($(load))"
sizes="64 128 256 512 1024"; ((quick)) && sizes="64 128 256"
: >"$out/area.tsv"
if [ -x "$out/bench_bake" ]; then
  for n in $sizes; do
    r=$reps; [ "$n" -ge 512 ] && r=1
    l=$(load)
    line=$("$out/bench_bake" --only terrain --preset Humanoid --size "$n" --reps "$r" --tsv "${cpu[@]}" 2>&1 | grep '^BAKE' | head -1)
    if [ -n "$line" ]; then
      ro=""; rr=""
      if [ -n "$timev" ]; then
        ro=$("$timev" -f '%M' "$out/bench_bake" --ours-only 1 --only terrain --preset Humanoid --size "$n" 2>&1 >/dev/null | tail -1)
        rr=$("$timev" -f '%M' "$out/bench_bake" --recast-only 1 --only terrain --preset Humanoid --size "$n" 2>&1 >/dev/null | tail -1)
      fi
      printf '%s\t%s\t%s\t%s\n' "$line" "$ro" "$rr" "$l" >>"$out/area.tsv"
    else
      loud "area series: terrain $n failed"
    fi
  done
  awk -F'\t' '{ printf "| bake, terrain %s (area %d m2, %s tiles; peak RSS KB ours %s, Recast %s) | %.1f ms | Recast+Detour %.1f ms | %.2f | %s |\n",
      $5, $5 * $5, $6, $9, $10, 1e3 * $7, 1e3 * $8, $7 / $8, $11 }' "$out/area.tsv" >"$out/area.rows"
  while IFS= read -r x; do rows+=("$x"); done <"$out/area.rows"
  # the chart: log2 area on x, log2 time on y, ours and Recast, and a linear reference
  awk -F'\t' -v have_rc="$have_recast" -v clk="$clock" -v when="$(date -u +%F)" -v cpuname="$(nproc) x $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)" '
    function lx(a) { return 70 + (log(a) / log(2) - x0) / (x1 - x0) * 560 }
    function ly(t) { return 370 - (log(t) / log(2) - y0) / (y1 - y0) * 320 }
    { n++; A[n] = $5 * $5; O[n] = $7; R[n] = $8 }
    END {
      if (n == 0) exit
      x0 = log(A[1]) / log(2); x1 = log(A[n]) / log(2); if (x1 <= x0) x1 = x0 + 1
      lo = O[1]; hi = O[1]
      for (i = 1; i <= n; i++) { if (O[i] < lo) lo = O[i]; if (O[i] > hi) hi = O[i];
        if (have_rc && R[i] > 0) { if (R[i] < lo) lo = R[i]; if (R[i] > hi) hi = R[i] } }
      y0 = log(lo) / log(2) - 0.5; y1 = log(hi) / log(2) + 0.5
      print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"680\" height=\"430\" font-family=\"sans-serif\" font-size=\"12\">"
      print "<rect width=\"680\" height=\"430\" fill=\"white\"/>"
      print "<text x=\"340\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">Bake time against level area (terrain, Humanoid, watershed; log-log)</text>"
      printf "<text x=\"340\" y=\"40\" text-anchor=\"middle\" fill=\"#555\">single thread, %s time, %s, %s</text>\n", (clk == "cpu" ? "CPU" : "wall"), when, cpuname
      print "<line x1=\"70\" y1=\"370\" x2=\"630\" y2=\"370\" stroke=\"black\"/><line x1=\"70\" y1=\"50\" x2=\"70\" y2=\"370\" stroke=\"black\"/>"
      for (i = 1; i <= n; i++) printf "<text x=\"%.1f\" y=\"388\" text-anchor=\"middle\">%d m²</text>\n", lx(A[i]), A[i]
      for (e = int(y0) - 1; e <= y1 + 1; e++) { if (e < y0 || e > y1) continue
        printf "<line x1=\"66\" y1=\"%.1f\" x2=\"630\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"62\" y=\"%.1f\" text-anchor=\"end\">%g s</text>\n", ly(2^e), ly(2^e), ly(2^e) + 4, 2^e }
      print "<text x=\"350\" y=\"412\" text-anchor=\"middle\">level area (terrain N x N, N = 64 .. 1024)</text>"
      # linear in area from ours at the first point
      printf "<polyline fill=\"none\" stroke=\"#999\" stroke-dasharray=\"5,4\" points=\""
      for (i = 1; i <= n; i++) { t = O[1] * A[i] / A[1]; if (t > 2^y1) t = 2^y1; printf "%.1f,%.1f ", lx(A[i]), ly(t) }
      print "\"/>"
      printf "<polyline fill=\"none\" stroke=\"#1f6fb4\" stroke-width=\"2\" points=\""
      for (i = 1; i <= n; i++) printf "%.1f,%.1f ", lx(A[i]), ly(O[i])
      print "\"/>"
      for (i = 1; i <= n; i++) printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1f6fb4\"/>\n", lx(A[i]), ly(O[i])
      if (have_rc) {
        printf "<polyline fill=\"none\" stroke=\"#d2691e\" stroke-width=\"2\" points=\""
        for (i = 1; i <= n; i++) printf "%.1f,%.1f ", lx(A[i]), ly(R[i])
        print "\"/>"
        for (i = 1; i <= n; i++) printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#d2691e\"/>\n", lx(A[i]), ly(R[i])
      }
      print "<rect x=\"84\" y=\"58\" width=\"210\" height=\"62\" fill=\"white\" stroke=\"#ccc\"/>"
      print "<line x1=\"92\" y1=\"72\" x2=\"118\" y2=\"72\" stroke=\"#1f6fb4\" stroke-width=\"2\"/><text x=\"124\" y=\"76\">ours (op_pipeline_build_soup)</text>"
      if (have_rc) print "<line x1=\"92\" y1=\"90\" x2=\"118\" y2=\"90\" stroke=\"#d2691e\" stroke-width=\"2\"/><text x=\"124\" y=\"94\">Recast + Detour</text>"
      else print "<text x=\"92\" y=\"94\" fill=\"red\">Recast: NO ANCHOR</text>"
      print "<line x1=\"92\" y1=\"108\" x2=\"118\" y2=\"108\" stroke=\"#999\" stroke-dasharray=\"5,4\"/><text x=\"124\" y=\"112\">linear in area (from ours)</text>"
      print "</svg>"
    }' "$out/area.tsv" >"$out/area.svg"
  ((have_recast)) || noanchor "bake time against area" "see area.svg" "Recast missing: ours only" "$(load)"
  # the city at 4, 8 and 16 blocks a side (LVL-040; 16 x 16 blocks = 392 m square)
  blocks="4 8 16"; ((quick)) && blocks="4 8"
  for b in $blocks; do
    l=$(load)
    line=$("$out/bench_bake" --only city --preset Humanoid --size "$b" --reps "$reps" --tsv "${cpu[@]}" 2>&1 | grep '^BAKE' | head -1)
    if [ -n "$line" ]; then
      echo "$line" | awk -F'\t' -v l="$l" '{ printf "| bake, city %s (%s tiles) | %.1f ms | Recast+Detour %.1f ms | %.2f | %s |\n", $5, $6, 1e3 * $7, 1e3 * $8, $7 / $8, l }' >"$out/city.row"
      rows+=("$(cat "$out/city.row")")
      rm -f "$out/city.row"
    else
      loud "city $b failed"
    fi
  done
else
  noanchor "bake time against area" "-" "bench_bake not built (librecast-dev or g++ missing)" "$(load)"
fi

# ------------------------------------------------------------------ 4. summary
model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
{
  echo "# Benchmarks, one run (scripts/bench.sh$( ((quick)) && echo ' --quick'))"
  echo
  echo "- date: $(date -u +%FT%TZ)"
  echo "- machine: $(nproc) processors, ${model:-unknown model}, $(uname -srm)"
  echo "- compiler: $(cc --version 2>/dev/null | head -1); build: $build (RelWithDebInfo, -O2)"
  echo "- Recast: $(dpkg-query -W -f='${Package} ${Version}' librecast-dev 2>/dev/null || echo 'NOT INSTALLED')"
  echo "- load average (1, 5, 15 min) at the end: $(load); each row gives it at its start"
  echo "- clock of the full bake, the CLI bake and the area series: $clock$( [ "$clock" = cpu ] && echo ' (process CPU time: the machine was loaded)')"
  echo
  echo "Ratios are ours / anchor in time (above 1: ours slower); for the spans stage the"
  echo "anchor's rate over ours. Raw outputs: out/bench/*.txt; chart: out/bench/area.svg."
  echo
  echo "| what | ours | anchor | ratio | load |"
  echo "|---|---|---|---:|---|"
  for r in "${rows[@]}"; do echo "$r"; done
  echo
  echo "![bake time against level area](area.svg)"
} >"$out/summary.md"
echo "bench: wrote $out/summary.md and $out/area.svg"
cat "$out/summary.md"
