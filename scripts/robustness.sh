#!/usr/bin/env bash
# The whole robustness campaign (tests/robustness/): 3,494 corrupted copies of
# every real input type, run through qnm-predict built with ASan+UBSan in
# build-asan/, each outcome classified (clean error, success, unclean error,
# silent nonsense, crash, hang, memory). Prints the table for bench/README.md.
# Usage: scripts/robustness.sh [--release] [--timeout S] [--every N] [--issue19-seed N]
#   --release  use the Release build in build/ instead (faster, no sanitizers)
#   --issue19-seed N  run issue 19's categories drawn afresh from seed N
#              (tests/robustness/campaign19.py) instead of generate.py's cases
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan timeout=60 every=1 sanitized=--sanitized seed19=
while [ $# -gt 0 ]; do
  case "$1" in
    --release) build=build timeout=20 sanitized= ;;
    --timeout) timeout=$2; shift ;;
    --every) every=$2; shift ;;
    --issue19-seed) seed19=$2; shift ;;
    *) echo "usage: $0 [--release] [--timeout S] [--every N] [--issue19-seed N]" >&2; exit 2 ;;
  esac
  shift
done
if [ "$build" = build-asan ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQNM_BUILD_TESTS=OFF \
    -DQNM_BUILD_BENCH=OFF -DQNM_BUILD_MPI=OFF -DQNM_STATIC_LINK=OFF \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" > /dev/null
  # Leaks are not what the campaign looks for; a clean exit through an error
  # path may leave libotf2 buffers behind.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
cmake --build "$build" -j2 --target qnm-predict
work="$build/robustness"
if [ -n "$seed19" ]; then
  python3 tests/robustness/campaign19.py . "$work/cases" --seed "$seed19" --every "$every"
else
  python3 tests/robustness/generate.py . "$work/cases" --every "$every"
fi
python3 tests/robustness/run.py "$build/qnm-predict" "$work/cases" --timeout "$timeout" --jobs 2 \
  --report "$work/outcomes.jsonl" --known tests/robustness/known.txt $sanitized
