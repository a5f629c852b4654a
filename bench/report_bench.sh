#!/usr/bin/env bash
# Cost of `qnm-predict report` (issue 22): the page of 100 runtime-only series
# (10 process counts each, generated here) and of the bundled series; wall
# time, CPU time and size of the HTML. Goal: 100 series in < 5 s and < 20 MB.
# Usage: bench/report_bench.sh [path/to/qnm-predict]   (default build/qnm-predict)
set -euo pipefail
cli=${1:-build/qnm-predict}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 100 series "s<i>" with T(P) = a/P + b (+/- 3% noise, fixed seed), P = 1..512.
awk 'BEGIN {
  srand(22); print "series,procs,time_s";
  for (s = 0; s < 100; ++s) {
    a = 50 + 950 * rand(); b = a * (0.001 + 0.05 * rand());
    for (k = 0; k < 10; ++k) { p = 2 ^ k; t = (a / p + b) * (1 + 0.03 * (2 * rand() - 1));
      printf "s%d,%d,%.6g\n", s, p, t } } }' > "$work/series.csv"

run() {  # label, output file, then the command
  local label=$1 page=$2; shift 2
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "    cpu %U s user + %S s sys, max RSS %M KB" "$@" 2>&1 >/dev/null | grep cpu
  end=$(date +%s.%N)
  printf '%-50s %6.2f s  %8d bytes\n' "$label" "$(echo "$end - $start" | bc)" "$(stat -c %s "$page")"
}
run "report: 100 series x 10 P (--procs 1..1024:x2)" "$work/100.html" \
  "$cli" report --procs 1..1024:x2 -o "$work/100.html" "$work/series.csv"
run "report: bundled series (--procs 1..1024:x2)" "$work/bundled.html" \
  "$cli" report --procs 1..1024:x2 -o "$work/bundled.html"
