#!/usr/bin/env bash
# Ingest speed beside `cat` of the same files (warm page cache, best of 5).
# Reports wall time and CPU time (user+sys): on a shared, loaded machine the
# CPU time is the fair comparison.
# Usage: bench/ingest_bench.sh [build-dir]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mapfile -t files < <(find tests/data/mpip tests/data/npb -type f | sort)
count=${#files[@]}
bytes=$(cat "${files[@]}" | wc -c)
TIMEFORMAT='%R %U %S'

best() {  # best <label> <command...>: best-of-5 wall and CPU seconds
  local label=$1; shift
  local wall=999 cpu=999
  for round in 1 2 3 4 5; do
    read -r r u s < <({ time "$@" > /dev/null 2>&1; } 2>&1)
    wall=$(awk -v a="$wall" -v b="$r" 'BEGIN{print (b<a)?b:a}')
    cpu=$(awk -v a="$cpu" -v b="$u" -v c="$s" 'BEGIN{print (b+c<a)?b+c:a}')
  done
  awk -v l="$label" -v n="$count" -v B="$bytes" -v w="$wall" -v c="$cpu" 'BEGIN{
    printf "%-44s %4d files %6.2f MB  wall %6.3f s (%7.1f MB/s %6.0f files/s)  cpu %6.3f s (%7.1f MB/s %6.0f files/s)\n",
      l, n, B/1e6, w, B/1e6/w, n/w, c, (c>0?B/1e6/c:0), (c>0?n/c:0)}'
}

cat "${files[@]}" > /dev/null  # warm the page cache
best "cat" cat "${files[@]}"
best "qnm-predict ingest --format csv" "$build/qnm-predict" ingest -q --format csv tests/data/mpip tests/data/npb
"$build/bench/ingest_bench" 5
