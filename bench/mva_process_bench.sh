#!/usr/bin/env bash
# Whole-process timings of `qnm-predict mva` on the bench networks (the peer
# cases of issue 12 and the larger ones), beside the process start-up floor
# (`qnm-predict --version`). Per network, over RUNS runs each: median wall time
# of the whole process, median of the cold solve time it reports
# (summary.solve_time_s, one solve per process), median of the phase timings
# (--timings: read+parse, solve, format, write), and the warm median/min of
# `--repeat 21`. Only bash, awk and grep.
# Usage: bench/mva_process_bench.sh [build-dir] [runs]   (default: build 21)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-21}
cli="$build/qnm-predict"

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

wall_ms() {  # wall_ms <command...>: wall time of one run in ms (bash's clock, no extra process)
  local start=$EPOCHREALTIME
  "$@" > /dev/null 2>&1
  local end=$EPOCHREALTIME
  awk -v a="$start" -v b="$end" 'BEGIN{printf "%.3f\n", (b-a)*1e3}'
}

"$cli" --version > /dev/null  # page cache
startup=$(for i in $(seq "$runs"); do wall_ms "$cli" --version; done | median)
echo "uptime: $(uptime)"
echo "start-up floor (qnm-predict --version): median ${startup} ms wall over $runs runs"
printf "%-36s %10s %10s %10s %10s %10s %10s %12s %10s\n" network "process" "cold solve" "read+parse" "solve" "format" "write" "warm median" "warm min"
for net in bench/networks/single_class_10st_N10000.json bench/networks/three_class_6st_N40_30_20.json \
           bench/networks/two_class_10st_N100_100.json bench/networks/four_class_10st_N20x4.json \
           bench/networks/three_class_10st_N100_100_100.json; do
  process=$(for i in $(seq "$runs"); do wall_ms "$cli" mva "$net"; done | median)
  phases=$(for i in $(seq "$runs"); do "$cli" mva "$net" --timings 2>&1 >/dev/null; done)
  col() { grep -o "$1 [0-9.]*" <<< "$phases" | awk '{print $NF}' | median; }
  cold=$(for i in $(seq "$runs"); do "$cli" mva "$net" | grep -o '"solve_time_s": [0-9.e-]*' | awk '{print $2*1e3}'; done | median)
  warm=$("$cli" mva "$net" --repeat 21 | grep -A4 '"repeat"')
  warm_median=$(grep -o '"median_s": [0-9.e-]*' <<< "$warm" | awk '{printf "%.3f", $2*1e3}')
  warm_min=$(grep -o '"min_s": [0-9.e-]*' <<< "$warm" | awk '{printf "%.3f", $2*1e3}')
  printf "%-36s %10s %10.3f %10s %10s %10s %10s %12s %10s   (ms)\n" "$(basename "$net")" "$process" "$cold" \
    "$(col read+parse)" "$(col solve)" "$(col format)" "$(col write)" "$warm_median" "$warm_min"
done
