#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzz.cpp) with clang in build-fuzz/ and
# runs each for SECONDS (default 300) with the real files as seed corpus.
# Usage: scripts/fuzz.sh [SECONDS] [target ...]   (targets: mpip_report_fuzz npb_output_fuzz statistics_table_fuzz mva_network_fuzz otf2_trace_fuzz otf2_rewrite_fuzz cube_profile_fuzz extrap_experiment_fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(mpip_report_fuzz npb_output_fuzz statistics_table_fuzz mva_network_fuzz otf2_trace_fuzz otf2_rewrite_fuzz cube_profile_fuzz extrap_experiment_fuzz)
fi
build=build-fuzz
sanitizers="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
mkdir -p "$build"
CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQNM_BUILD_FUZZ=ON \
  -DQNM_BUILD_TESTS=OFF -DQNM_BUILD_BENCH=OFF -DQNM_BUILD_MPI=OFF \
  -DCMAKE_CXX_FLAGS="$sanitizers" > "$build/configure.log"
cmake --build "$build" -j2 --target "${targets[@]}"

seed() {  # seed <target> -> directory of seed files
  local dir="$build/seeds-$1"
  rm -rf "$dir" && mkdir -p "$dir"
  case "$1" in
    mpip_report_fuzz) cp tests/data/mpip/*.mpiP tests/data/mpip/*.mpip "$dir" ;;
    npb_output_fuzz) cp tests/data/npb/*.out tests/data/mpip/npb-stdout/*.dat "$dir" ;;
    statistics_table_fuzz)
      for f in tests/data/npb/*.csv tests/data/tables/*.csv; do [ -f "$f" ] && { printf '\0'; head -c 20000 "$f"; } > "$dir/$(basename "$f")"; done
      for f in tests/data/tables/*.json; do [ -f "$f" ] && { printf '\1'; cat "$f"; } > "$dir/$(basename "$f")"; done ;;
    mva_network_fuzz) cp tests/data/mva-vectors/*.json "$dir" ;;
    otf2_trace_fuzz|otf2_rewrite_fuzz)  # first byte: even = replace rank 1's events, odd = the global definitions
      { printf '\0'; cat tests/data/otf2/synthetic-patterns-4rank/traces/1.evt; } > "$dir/events"
      { printf '\1'; cat tests/data/otf2/synthetic-patterns-4rank/traces.def; } > "$dir/definitions" ;;
    cube_profile_fuzz)
      cp tests/data/cube/kripke.p8.d2.g32.r1/profile.cubex "$dir/kripke.cubex"
      cp tests/data/cube/time.p4.n2000.x1.r0/profile.cubex "$dir/time.cubex"
      cp tests/data/cube/bt-mz_sum.p2.r1/cube4.8_with_checksum_bug.cubex "$dir/checksum-bug.cubex" ;;
    extrap_experiment_fuzz)  # first byte % 3: text, JSON, JSON Lines
      { printf '\0'; cat tests/data/extrap/input.txt; } > "$dir/text"
      { printf '\1'; cat tests/data/extrap/json_example.json; } > "$dir/json"
      { printf '\2'; cat tests/data/extrap/jsonl_example.jsonl; } > "$dir/jsonl" ;;
  esac
  echo "$dir"
}

for target in "${targets[@]}"; do
  seeds=$(seed "$target")
  corpus="$build/corpus-$target"
  mkdir -p "$corpus"
  echo "== $target: ${seconds}s, seeds $(ls "$seeds" | wc -l) files"
  # -max_len keeps executions fast; truncated reports still reach every section.
  # A .cubex must be whole to reach its anchor (the tar holds it last).
  max_len=32768; [ "$target" = cube_profile_fuzz ] && max_len=300000
  "$build/fuzz/$target" "$corpus" "$seeds" -max_total_time="$seconds" -max_len="$max_len" \
    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 2>&1 | tee "$build/$target.log" | \
    grep -E "^#[0-9]+ +(DONE|pulse)|stat::|ERROR|SUMMARY" || true
  if grep -q "ERROR: libFuzzer\|ERROR: AddressSanitizer\|runtime error" "$build/$target.log"; then
    echo "$target: FAILED (see $build/$target.log)"; exit 1
  fi
done
