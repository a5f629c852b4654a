#!/usr/bin/env bash
# The densest statistics tables of the issue-19 campaign (19 MB each) under an
# address-space limit:
#   - 1.48 million short rows, 7 series x 10 P repeated: `ingest` (a row was a
#     688-byte record plus its texts; the identity texts are now one pointer
#     each, shared between rows: record/shared_text.h);
#   - one series of a million process counts: `predict` (the runtime model kept
#     every candidate's forward errors, ~0.5 GB) and `validate`, which refuses
#     leave-one-out over more than 1,000 counts in one line naming the file.
# The ingest runs under INGEST_MB (main at 7529449 runs out of memory under
# 1,152 MB: 1,267 MB RSS; now 0.9 GB), predict and validate under PREDICT_MB.
# Usage: table_rows_memory_test.sh QNM_PREDICT WORK_DIR [INGEST_MB [PREDICT_MB]]
set -euo pipefail
qnm=$1 work=$2 ingest_mb=${3:-1152} limit_mb=${4:-2048}
limit_kb=$((limit_mb * 1024))
rm -rf "$work"
mkdir -p "$work"
awk 'BEGIN { print "series,procs,time_s"; size = 20; limit = 19 * 1048576;
  for (s = 0; size < limit; ++s) { p = 2 ^ (s % 10); line = sprintf("r%d,%d,%.6g", s % 7, p, (100 + s % 37) / p + 0.001 * p);
    print line; size += length(line) + 1 } }' > "$work/reps.csv"
awk 'BEGIN { print "series,procs,time_s"; size = 20; limit = 19 * 1048576;
  for (s = 0; size < limit; ++s) { p = 1 + s; line = sprintf("long,%d,%.6g", p, (100 + s % 37) / p + 0.001 * p);
    print line; size += length(line) + 1 } }' > "$work/long.csv"

( ulimit -v $((ingest_mb * 1024)); "$qnm" ingest --quiet --format csv "$work/reps.csv" > "$work/reps-out.csv" )
rows=$(($(wc -l < "$work/reps.csv") - 1))
written=$(($(wc -l < "$work/reps-out.csv") - 1))
if [ "$written" -ne "$rows" ]; then
  echo "table_rows_memory: ingest wrote $written records of $rows rows"
  exit 1
fi

( ulimit -v "$limit_kb"; "$qnm" predict --format csv --procs 1..64 "$work/long.csv" > "$work/long-out.csv" )
# One row per measured P (the requested 1..64 are among them), each predicted.
points=$(($(wc -l < "$work/long.csv") - 1))
predicted=$(grep -c '^long,.*,predicted,' "$work/long-out.csv" || true)
if [ "$predicted" -ne "$points" ]; then
  echo "table_rows_memory: predict of the long series wrote $predicted predicted rows, wanted $points"
  exit 1
fi

status=0
( ulimit -v "$limit_kb"; "$qnm" validate --format csv "$work/long.csv" > "$work/validate-out.csv" 2> "$work/validate-err" ) || status=$?
if [ "$status" -eq 0 ] || [ "$(wc -l < "$work/validate-err")" -ne 1 ] || ! grep -q "long.csv" "$work/validate-err" ||
   ! grep -q -- "--train" "$work/validate-err"; then
  echo "table_rows_memory: validate of a million process counts: exit $status, said: $(head -c 300 "$work/validate-err")"
  exit 1
fi
echo "table_rows_memory: ok (ingest under $ingest_mb MB, predict and validate under $limit_mb MB of address space)"
