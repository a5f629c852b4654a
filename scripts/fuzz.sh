#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzz.cpp) with clang in build-fuzz/ and
# runs each for SECONDS (default 300) under ASan+UBSan with the real files as
# seeds. New coverage goes to build-fuzz/corpus-<target>; `--merge` then folds
# it into the minimized corpus kept in the repository (fuzz/corpus/<target>),
# so coverage accumulates across sessions.
# Usage: scripts/fuzz.sh [--merge] [--jobs N] [SECONDS] [target ...]
#   --jobs N   run N targets at once (default 1); every target runs to the end
#              and the script fails afterwards if any of them found something
#   --timeout S  an input running longer than S seconds is a hang (default 30;
#              libFuzzer counts wall time, so give more on a loaded machine)
#   targets: mpip_report_fuzz npb_output_fuzz statistics_table_fuzz mva_network_fuzz
#            otf2_trace_fuzz otf2_rewrite_fuzz machine_profile_fuzz
#            whatif_config_fuzz cube_profile_fuzz extrap_experiment_fuzz microbench_output_fuzz
#            reframe_perflog_fuzz profile_reports_fuzz compressed_file_fuzz tau_profile_fuzz ipm_log_fuzz hpctoolkit_database_fuzz
#            hpctoolkit_v4_database_fuzz caliper_profile_fuzz caliper_json_split_fuzz paraver_trace_fuzz
#            flux_job_record_fuzz series_model_fuzz cime_timing_fuzz document_tables_fuzz model_timers_fuzz
#            darshan_log_fuzz jube_result_fuzz timing_tools_fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
merge=0 jobs=1 unit_timeout=30
while [ $# -gt 0 ]; do
  case "$1" in
    --merge) merge=1; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --timeout) unit_timeout=$2; shift 2 ;;
    *) break ;;
  esac
done
seconds=${1:-300}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(mpip_report_fuzz npb_output_fuzz statistics_table_fuzz mva_network_fuzz otf2_trace_fuzz
           otf2_rewrite_fuzz machine_profile_fuzz whatif_config_fuzz cube_profile_fuzz extrap_experiment_fuzz
           microbench_output_fuzz reframe_perflog_fuzz profile_reports_fuzz compressed_file_fuzz tau_profile_fuzz ipm_log_fuzz hpctoolkit_database_fuzz
           hpctoolkit_v4_database_fuzz caliper_profile_fuzz caliper_json_split_fuzz paraver_trace_fuzz
           series_model_fuzz)
fi
build=build-fuzz
# Leaks inside libotf2 that no API call can free (fuzz/lsan.supp says which).
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0"
# libotf2 allocates what a damaged record claims (a ProgramBegin with 4e9
# arguments: malloc(16 GB), freed when the record fails to decode). Outside
# ASan that is untouched address space; ASan poisons its 2 GB of shadow and
# the run dies of RSS. Refusing allocations over 2 GB, as a machine without
# overcommit would, lets libotf2 report the record as the error it is.
# Stacks of allocations are unwound from the unwind tables, not by frame
# pointers: Debian's libotf2 has none, so the fast unwinder can stop at its
# first frame (otf2_archive_open, not OTF2_Archive_Open), and fuzz/lsan.supp,
# which names the public entry points, would not match.
export ASAN_OPTIONS="allocator_may_return_null=1:max_allocation_size_mb=2048:fast_unwind_on_malloc=0"
sanitizers="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
mkdir -p "$build"
CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQNM_BUILD_FUZZ=ON \
  -DQNM_BUILD_TESTS=OFF -DQNM_BUILD_BENCH=OFF -DQNM_BUILD_MPI=OFF -DQNM_STATIC_LINK=OFF \
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
    mva_network_fuzz)  # first byte: even = JSON network, odd = JMVA XML
      for f in tests/data/mva-vectors/*.json; do { printf '\0'; cat "$f"; } > "$dir/$(basename "$f")"; done
      for f in tests/robustness/seeds/*.jmva; do { printf '\1'; cat "$f"; } > "$dir/$(basename "$f")"; done ;;
    otf2_trace_fuzz)  # first byte % 4: rank 1's events, global definitions, anchor, rank 1's local definitions
      local trace=tests/data/otf2/pipit-ping-pong-otf2-papi
      { printf '\0'; cat $trace/traces/1.evt; } > "$dir/events"
      { printf '\1'; cat $trace/traces.def; } > "$dir/definitions"
      { printf '\2'; cat $trace/traces.otf2; } > "$dir/anchor"
      { printf '\3'; cat $trace/traces/1.def; } > "$dir/local-definitions" ;;
    machine_profile_fuzz) cp data/machines/*.json "$dir" ;;
    microbench_output_fuzz) cp tests/data/osu/* tests/data/imb/* "$dir" ;;
    cime_timing_fuzz) cp tests/data/cime-timing/cesm_timing.* "$dir" ;;
    document_tables_fuzz)  # first byte % 3: Markdown, Org, LaTeX
      { printf '\0'; cat tests/data/document-tables/shallow-water-report.md; } > "$dir/report-md"
      { printf '\2'; cat tests/data/document-tables/shallow-water-report.tex; } > "$dir/report-tex"
      { printf '\1'; cat tests/data/document-tables/shallow-water-notes.org; } > "$dir/notes-org"
      { printf '\0'; cat docs/statistics-table.md; } > "$dir/statistics-table-md" ;;
    model_timers_fuzz)  # first byte % 4: Nalu-Wind log, FMS timing table, ESMF profile summary, UM timers
      find tests/data/um-timers -name '*.fort6' -o -name 'atm.fort6.pe0' | while read -r f; do
        { printf '\3'; cat "$f"; } > "$dir/um-$(echo "$f" | tr / _)"; done
      for f in tests/data/nalu-wind-log/*.log; do { printf '\0'; cat "$f"; } > "$dir/nalu-$(basename "$f")"; done
      for f in tests/data/fms-clocks/*.stdout; do { printf '\1'; cat "$f"; } > "$dir/fms-$(basename "$f")"; done
      { printf '\2'; cat tests/data/esmf-profile/ESMF_Profile.summary; } > "$dir/esmf-summary"
      { printf '\2'; cat tests/data/esmf-profile/duplicate-region/ESMF_Profile.summary; } > "$dir/esmf-duplicate" ;;
    darshan_log_fuzz)  # first byte: even = a binary log's first 8 KB (all the reader reads), odd = darshan-parser's text
      for f in tests/data/darshan/*.darshan; do { printf '\0'; head -c 8192 "$f"; } > "$dir/log-$(basename "$f" | cut -c1-40)"; done
      for f in tests/data/darshan/parser/*.txt; do { printf '\1'; cat "$f"; } > "$dir/parser-$(basename "$f")"; done ;;
    jube_result_fuzz)  # first byte: even = a result folder's table, odd = jube result's printout
      for f in tests/data/jube/bench_run/000000/result/*.dat; do { printf '\0'; cat "$f"; } > "$dir/dat-$(basename "$f")"; done
      { printf '\1'; cat tests/data/jube/jube-result.txt; } > "$dir/printout" ;;
    timing_tools_fuzz)  # first byte % 4: hyperfine JSON, its summary exports, a report of time, a command line
      find tests/data/hyperfine -name '*.json' | while read -r f; do { printf '\0'; cat "$f"; } > "$dir/json-$(echo "$f" | tr / _)"; done
      find tests/data/hyperfine -name '*.csv' -o -name 'stencil.md' -o -name '*.org' -o -name '*.adoc' -o -name 'pipe.md' |
        while read -r f; do { printf '\1'; cat "$f"; } > "$dir/summary-$(echo "$f" | tr / _)"; done
      find tests/data/time-report -type f ! -name '*.md' | while read -r f; do
        { printf '\2'; cat "$f"; } > "$dir/time-$(echo "$f" | tr / _)"; done
      printf '\3mpirun -np 16 --map-by ppr:8:node:pe=2 -x OMP_NUM_THREADS=2 ./app in' > "$dir/command-mpirun"
      printf '\3srun -N 2 --ntasks-per-node=8 -c 4 ./app' > "$dir/command-srun"
      printf "\\3sh -c 'jsrun -n 12 -a 7 -c 42 ./a' > out 2>&1 && echo" > "$dir/command-jsrun" ;;
    whatif_config_fuzz) cp tests/robustness/seeds/*.cfg "$dir" ;;
    otf2_rewrite_fuzz)  # first byte: even = replace rank 1's events, odd = the global definitions
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
    reframe_perflog_fuzz)  # first byte: --metric (% 4), bit 2 = run report
      find tests/data/reframe -name '*.log' ! -path '*/excalibur-tests/*' | while read -r f; do
        { printf '\0'; head -c 20000 "$f"; } > "$dir/log-$(echo "$f" | tr / _)"; done
      find tests/data/reframe -name '*.json' | while read -r f; do
        { printf '\4'; cat "$f"; } > "$dir/report-$(echo "$f" | tr / _)"; done ;;
    profile_reports_fuzz)  # first byte % 6: Arm Performance Reports, OTF-CPT, (export), Intel APS, HPCG
      find tests/data/profiles/arm-performance-reports -name '*.txt' | while read -r f; do
        { printf '\0'; cat "$f"; } > "$dir/arm-$(basename "$f")"; done
      find tests/data/profiles/otf-cpt -name '*.txt' | while read -r f; do
        { printf '\1'; cat "$f"; } > "$dir/otf-cpt-$(basename "$f")"; done
      for f in tests/data/aps/*.txt; do { printf '\4'; cat "$f"; } > "$dir/aps-$(basename "$f")"; done
      find tests/data/hpcg -name '*HPCG-Benchmark*' -o -name '*.yaml' -o -name 'n104-*' | while read -r f; do
        { printf '\5'; cat "$f"; } > "$dir/hpcg-$(basename "$f")"; done ;;
    compressed_file_fuzz)  # every compression of tests/data/compressed, whole or damaged
      find tests/data/compressed -type f \( -name '*.gz' -o -name '*.xz' -o -name '*.bz2' -o -name '*.zst' -o -name '*.lz4' \) \
        ! -name '*.cubex.gz' -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} "$dir" \;
      cp tests/data/compressed/archives/campaign.tar.gz "$dir/archive-campaign.tar.gz"
      cp tests/data/compressed/archives/trace-and-profile.zip "$dir/archive-trace-and-profile.zip"
      cp tests/data/compressed/archives/bad/encrypted.zip "$dir/archive-encrypted.zip" ;;
    series_model_fuzz)  # bytes -> a table of one series (fuzz/series_model_fuzz.cpp says how): a few shapes
      printf '\005\000\001\000\000\140\002\000\000\134\004\000\000\130\010\000\000\124\020\000\000\120' > "$dir/amdahl"
      printf '\005\001\001\000\000\140\200\377\377\002\000\000\134\200\377\377\004\000\000\130\200\377\377\010\000\000\124\200\377\377\020\000\000\120\200\377\377' > "$dir/profiled"
      printf '\005\002\005\045\000\000\140\047\000\000\140\051\000\000\140\053\000\000\140\054\000\000\134' > "$dir/close-together" ;;
    ipm_log_fuzz) cp tests/data/ipm/*.ipm.xml tests/data/ipm/*.out tests/data/ipm/*.ipm_parse.txt "$dir" ;;
    pattern_output_fuzz) find tests/data/pennant tests/data/miniamr -name '*.out' -size -40k -exec cp {} "$dir" \; ;;
    flux_job_record_fuzz)  # first byte bit 0: the jobs' outputs with their records (0), the listing (1)
      find tests/data/flux -name '*.out' | while read -r f; do
        { printf '\0'; tail -c 6000 "$f"; } > "$dir/out-$(basename "$f")"; done
      { printf '\1'; cat tests/data/flux/jobs-listing/flux-jobs.json; } > "$dir/listing" ;;
    hpctoolkit_database_fuzz)  # the databases' experiment.xml (first byte 0) and the cpi metric-db files (1)
      for f in tests/data/hpctoolkit/*/experiment.xml; do
        { printf '\0'; cat "$f"; } > "$dir/xml-$(basename "$(dirname "$f")")"; done
      for f in tests/data/hpctoolkit/hatchet-cpi-database/*.metric-db; do
        { printf '\1'; cat "$f"; } > "$dir/db-$(basename "$f")"; done ;;
    hpctoolkit_v4_database_fuzz)  # the format-4 meta.db alone (first byte 0), and with its profile.db (1)
      db=tests/data/hpctoolkit/hatchet-cpi-v4-database
      { printf '\0'; cat "$db/meta.db"; } > "$dir/meta"
      python3 -c 'import os, struct, sys; sys.stdout.buffer.write(b"\1" + struct.pack("<I", os.path.getsize(sys.argv[1])))' \
        "$db/meta.db" > "$dir/meta-and-profile"
      cat "$db/meta.db" "$db/profile.db" >> "$dir/meta-and-profile" ;;
    caliper_json_split_fuzz)  # every json-split fixture
      find tests/data/caliper -name '*.json' ! -name '*_reads.json' -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} "$dir" \; ;;
    paraver_trace_fuzz)  # the head of each EPOCH trace (whole ones are megabytes), alone and with its .pcf and .row
      for trace in tests/data/paraver/epoch/*.prv.gz; do
        stem=${trace%.prv.gz} name=$(basename "$stem")
        (zcat "$trace" || true) | head -n 300 > "$dir/$name.prv"
        { cat "$dir/$name.prv"; printf '\n%%%%\n'; cat "$stem.pcf"; printf '\n%%%%\n'; cat "$stem.row"; } > "$dir/$name.all"
      done ;;
    caliper_profile_fuzz)  # every .cali fixture
      find tests/data/caliper -name '*.cali' -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} "$dir" \; ;;
    tau_profile_fuzz)  # every TAU profile of the fixtures, whole or damaged
      find tests/data/tau -name 'profile.*' -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} "$dir" \; ;;
  esac
  echo "$dir"
}

run_target() {  # run_target <target>: fuzz, then merge into the kept corpus
  local target=$1 seeds corpus max_len kept
  seeds=$(seed "$target")
  corpus="$build/corpus-$target"
  mkdir -p "$corpus"
  echo "== $target: ${seconds}s, seeds $(ls "$seeds" | wc -l) files"
  # -max_len keeps executions fast; truncated reports still reach every section.
  # A .cubex must be whole to reach its anchor (the tar holds it last).
  max_len=32768; [ "$target" = cube_profile_fuzz ] && max_len=300000
  kept=fuzz/corpus/$target
  mkdir -p "$kept"
  "$build/fuzz/$target" "$corpus" "$kept" "$seeds" -max_total_time="$seconds" -max_len="$max_len" \
    -rss_limit_mb=2048 -timeout="$unit_timeout" -print_final_stats=1 -artifact_prefix="$build/crash-$target-" \
    > "$build/$target.log" 2>&1 || true
  grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|ERROR|SUMMARY" "$build/$target.log" | sed "s/^/$target: /"
  if grep -q "ERROR: libFuzzer\|ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error" "$build/$target.log"; then
    echo "$target: FAILED (see $build/$target.log)"; return 1
  fi
  if [ "$merge" = 1 ]; then  # keep the smallest set of inputs that covers what was reached
    "$build/fuzz/$target" -merge=1 "$kept" "$corpus" "$seeds" -max_len="$max_len" -rss_limit_mb=2048 \
      -timeout="$unit_timeout" > "$build/$target.merge.log" 2>&1
    echo "$target: fuzz/corpus/$target holds $(ls "$kept" | wc -l) inputs"
  fi
}

failed=0
rm -f "$build/failed-targets"
running=0
for target in "${targets[@]}"; do
  run_target "$target" || echo "$target" >> "$build/failed-targets" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait
if [ -s "$build/failed-targets" ]; then
  echo "fuzzing found problems in: $(sort -u "$build/failed-targets" | tr '\n' ' ')"; failed=1
fi
rm -f "$build/failed-targets"
exit "$failed"
