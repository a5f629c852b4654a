#!/usr/bin/env bash
# Reading a CUBE4 profile vs unpacking its tar with `tar xf` (warm page cache).
# For each profile: CPU time (user+sys) of `qnm-predict ingest FILE` and of
# `tar xf FILE` into a scratch folder, median of 11 runs each, and their ratio
# (the goal: <= 2). Whole processes are timed, start-up included.
# Usage: bench/cube_read_bench.sh [build-dir] [profile.cubex ...]
#   default profiles: tests/data/cube/*/*.cubex, the sstmacro profile and,
#   when present, ../shared/data/cube/*/*.cubex (largest: fastest, 0.5 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(ls tests/data/cube/*/*.cubex tests/data/otf2/sstmacro-mpi-coverage-test/profile.cubex \
                         ../shared/data/cube/*/*.cubex 2>/dev/null | sort -u)
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
TIMEFORMAT='%U %S'

median_cpu() {  # median_cpu <command...>: median user+sys seconds over 11 runs
  local samples=()
  for run in $(seq 11); do
    read -r u s < <({ time "$@" > /dev/null 2>&1; } 2>&1)
    samples+=("$(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}')")
  done
  printf '%s\n' "${samples[@]}" | sort -g | sed -n 6p
}

printf '%-72s %9s %12s %12s %6s\n' profile bytes "read cpu s" "tar xf cpu s" ratio
for file in "${files[@]}"; do
  cat "$file" > /dev/null
  read_s=$(median_cpu "$build/qnm-predict" ingest -q --format csv "$file")
  tar_s=$(median_cpu tar xf "$file" -C "$scratch")
  printf '%-72s %9d %12.4f %12.4f %6.2f\n' "$file" "$(wc -c < "$file")" "$read_s" "$tar_s" \
    "$(awk -v a="$read_s" -v b="$tar_s" 'BEGIN{print (b>0)?a/b:0}')"
done
