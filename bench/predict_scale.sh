#!/usr/bin/env bash
# Cost of predict at scale (issue 13): a sweep over P = 1..100,000 on the
# bundled series, and a 100,000-row table of 10,000 runtime-only series
# (10 process counts each, generated here) predicted and validated.
# Usage: bench/predict_scale.sh [path/to/qnm-predict]   (default build/qnm-predict)
set -euo pipefail
cli=${1:-build/qnm-predict}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 10,000 series "s<i>" with T(P) = a/P + b (+/- 3% noise, fixed seed), P = 1..512.
awk 'BEGIN {
  srand(13); print "series,procs,time_s";
  for (s = 0; s < 10000; ++s) {
    a = 50 + 950 * rand(); b = a * (0.001 + 0.05 * rand());
    for (k = 0; k < 10; ++k) { p = 2 ^ k; t = (a / p + b) * (1 + 0.03 * (2 * rand() - 1));
      printf "s%d,%d,%.6g\n", s, p, t } } }' > "$work/series.csv"
echo "table: $(($(wc -l < "$work/series.csv") - 1)) rows"

run() {  # label, then the command (wall and CPU time)
  local label=$1; shift
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "    cpu %U s user + %S s sys" "$@" > /dev/null
  end=$(date +%s.%N)
  printf '%-55s %8.2f s\n' "$label" "$(echo "$end - $start" | bc)"
}
run "predict --procs 1..100000 (bundled series)" "$cli" predict --format csv --procs 1..100000 -o /dev/null
run "predict --procs 1..10000 (bundled series)" "$cli" predict --format csv --procs 1..10000 -o /dev/null
run "predict 10,000 series x 10 P (--procs 1..1024:x2)" "$cli" predict --format csv -o /dev/null "$work/series.csv"
run "validate 10,000 series x 10 P (leave-one-out)" "$cli" validate --format csv -o /dev/null "$work/series.csv"
