#!/usr/bin/env bash
# Scale and memory per record (issue 19): wall time, CPU time and peak RSS of
#   - ingest and predict of one series at P = 1..100,000 (1.7 MB table), target < 2 s;
#   - validate of 10,000 series x 10 P (1.6 MB), target < 60 s;
#   - ingest, predict and predict --series of 10,000 series x 100 P (16 MB,
#     a million records), target < 1 GB RSS;
#   - ingest of an Extra-P file with 10^6 repetitions on one DATA line (4 MB).
# Usage: bench/scale19.sh [path/to/qnm-predict]   (default build/qnm-predict)
set -euo pipefail
cli=${1:-build/qnm-predict}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

awk 'BEGIN { print "series,procs,time_s"; for (p = 1; p <= 100000; ++p) printf "s,%d,%.6g\n", p, 100 / p + 0.001 * p }' \
  > "$work/one-series.csv"
awk 'BEGIN { print "series,procs,time_s";
  for (s = 0; s < 10000; ++s) for (p = 1; p <= 10; ++p) printf "s%d,%d,%.6g\n", s, p, (50 + s % 17) / p + 0.01 * p }' \
  > "$work/many-series.csv"
awk 'BEGIN { print "series,procs,time_s";
  for (s = 0; s < 10000; ++s) for (p = 1; p <= 100; ++p) printf "s%d,%d,%.6g\n", s, p, (100 + s % 50) / p + 0.001 * p }' \
  > "$work/table-16mb.csv"
awk 'BEGIN { printf "PARAMETER p\nPOINTS (4) (8)\n\nREGION main\nDATA"; for (i = 0; i < 1000000; ++i) printf " 1.0";
  printf "\nDATA 2.0\n" }' > "$work/extrap-1e6.txt"

printf '%-58s %8s %8s %8s %6s\n' "run" "wall s" "user s" "sys s" "RSS MB"
run() {  # label, then the command
  local label=$1; shift
  /usr/bin/time -o "$work/time" -f "%e %U %S %M" "$@" > /dev/null 2> "$work/err" || {
    echo "$label: exit $?: $(tail -1 "$work/err")"; return; }
  read -r wall user sys rss < "$work/time"
  printf '%-58s %8.2f %8.2f %8.2f %6d\n' "$label" "$wall" "$user" "$sys" $((rss / 1024))
}
run "ingest, one series x 100,000 P" "$cli" ingest --quiet --format csv "$work/one-series.csv"
run "predict --procs 1..64, one series x 100,000 P" "$cli" predict --format csv --procs 1..64 "$work/one-series.csv"
run "validate, 10,000 series x 10 P" "$cli" validate --format csv "$work/many-series.csv"
run "ingest, 10,000 series x 100 P (16 MB, 10^6 records)" "$cli" ingest --quiet --format csv "$work/table-16mb.csv"
run "predict --series s7, same table" "$cli" predict --format csv --series s7 "$work/table-16mb.csv"
run "predict, same table (10,000 series)" "$cli" predict --format csv "$work/table-16mb.csv"
run "ingest, Extra-P 10^6 repetitions on one line (4 MB)" "$cli" ingest --quiet --format csv "$work/extrap-1e6.txt"
