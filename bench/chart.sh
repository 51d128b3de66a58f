#!/bin/bash
# bench/chart.sh [RESULTS [PNG]] - draw benchmark results as a bar chart.
#
# RESULTS (default bench/results.tsv) is what the benchmark writes: one
# figure per line, three fields separated by TABs,
#
#     table<TAB>row<TAB>GB/s
#
# "table" groups the bars (one colour and legend entry per table, in the
# order they first appear), "row" labels one bar, and the third field is
# the throughput in GB/s (a decimal number). Blank lines and lines starting
# with '#' are ignored, so a header comment may say what machine ran it.
# PNG (default bench/results.png) is drawn with gnuplot (Debian's
# gnuplot-nox; tools/install-deps.sh chart installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
in=${1:-bench/results.tsv}
out=${2:-bench/results.png}
[ -f "$in" ] || { echo "chart: no results file $in (run make bench)" >&2; exit 1; }
command -v gnuplot >/dev/null 2>&1 || bash tools/install-deps.sh chart

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# One line per bar: position, value, table number, "label"; malformed lines
# stop the chart instead of drawing a wrong one.
awk -F'\t' -v tables="$tmp/tables" '
  /^#/ || /^[ \t]*$/ { next }
  NF != 3 || $3 !~ /^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/ {
    printf "chart: line %d is not table<TAB>row<TAB>GB/s: %s\n", NR, $0 > "/dev/stderr"; bad = 1; exit 1 }
  !($1 in t) { t[$1] = ++nt; print $1 > tables; if (n) n++ }
  { gsub(/"/, "", $2); printf "%d %s %d \"%s\"\n", n++, $3, t[$1], $2 }
  END { if (bad) exit 1; if (n == 0) { print "chart: no figures" > "/dev/stderr"; exit 1 } }
' "$in" >"$tmp/bars"

{
  echo 'set terminal pngcairo size 1000,560 noenhanced font ",10"'
  echo "set output '$out'"
  echo 'set title "utf8ext throughput (GB/s, higher is better)"'
  echo 'set ylabel "GB/s"; set yrange [0:*]; set grid ytics'
  echo 'set style fill solid 0.85 border -1; set boxwidth 0.8'
  echo 'set xtics rotate by -60 left nomirror font ",8"; set key top center horizontal'
  echo 'set bmargin 9'
  printf 'plot "%s" using 1:2:3:xtic(4) with boxes lc variable notitle' "$tmp/bars"
  # Value labels only while there is room for them above the bars.
  if [ "$(wc -l <"$tmp/bars")" -le 20 ]; then
    printf ', "" using 1:($2):(sprintf("%%.2f", $2)) with labels offset 0,0.7 notitle'
  fi
  i=0
  while IFS= read -r t; do
    i=$((i + 1))
    printf ', NaN with boxes lc %d title "%s"' "$i" "${t//\"/}"
  done <"$tmp/tables"
  echo
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "chart: $out"
