#!/usr/bin/env bash
# Scale and memory per record (issue 19): wall time, CPU time and peak RSS of
#   - ingest and predict of one series at P = 1..100,000 (1.7 MB table), target < 2 s;
#   - validate of 10,000 series x 10 P (1.6 MB), target < 60 s;
#   - ingest, predict and predict --series of 10,000 series x 100 P (16 MB,
#     a million records), target < 1 GB RSS;
#   - ingest of an Extra-P file with 10^6 repetitions on one DATA line (4 MB);
#   - the densest tables of the issue-19 campaign (19 MB): 1.48 million rows of
#     7 series x 10 P repeated (ingest), 1.2 million rows of 12,000 series x
#     100 P (predict), one series of a million P (predict);
#   - an mpiP report of 100,000 ranks x 1,000 call sites (3.8 MB, tests/mpip_wide_test.sh).
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

# The campaign's table shapes (tests/robustness/campaign19.py), 19 MiB each.
awk 'BEGIN { print "series,procs,time_s"; size = 20; limit = 19 * 1048576;
  for (s = 0; size < limit; ++s) { p = 2 ^ (s % 10); line = sprintf("r%d,%d,%.6g", s % 7, p, (100 + s % 37) / p + 0.001 * p);
    print line; size += length(line) + 1 } }' > "$work/reps-19mb.csv"
awk 'BEGIN { print "series,procs,time_s"; size = 20; limit = 19 * 1048576;
  for (s = 0; size < limit; ++s) { p = 1 + s % 100; line = sprintf("s%d,%d,%.6g", int(s / 100), p, (100 + s % 37) / p + 0.001 * p);
    print line; size += length(line) + 1 } }' > "$work/many-19mb.csv"
awk 'BEGIN { print "series,procs,time_s"; size = 20; limit = 19 * 1048576;
  for (s = 0; size < limit; ++s) { p = 1 + s; line = sprintf("long,%d,%.6g", p, (100 + s % 37) / p + 0.001 * p);
    print line; size += length(line) + 1 } }' > "$work/long-19mb.csv"
bash "$(dirname "$0")/../tests/mpip_wide_test.sh" "$cli" "$work/mpip" > /dev/null

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
run "ingest, 1.48 million rows, 7 series x 10 P repeated (19 MB)" "$cli" ingest --quiet --format csv "$work/reps-19mb.csv"
run "predict, 1.2 million rows, 12,000 series x 100 P (19 MB)" "$cli" predict --format csv --procs 1..64 "$work/many-19mb.csv"
run "predict, one series of a million P (19 MB)" "$cli" predict --format csv --procs 1..64 "$work/long-19mb.csv"
run "ingest, mpiP 100,000 ranks x 1,000 call sites (3.8 MB)" "$cli" ingest --quiet --format csv "$work/mpip/wide.mpiP"
