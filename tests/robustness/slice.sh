#!/usr/bin/env bash
# The ctest slice of the robustness campaign: every 10th generated case of
# each category (~350 cases, the same ones on every machine), run through
# qnm-predict and classified; fails on any crash, hang, unclean error or
# silent nonsense. Usage: slice.sh QNM_PREDICT SOURCE_DIR WORK_DIR
set -euo pipefail
qnm=$1 source=$2 work=$3
here="$(cd "$(dirname "$0")" && pwd)"
python3 "$here/generate.py" "$source" "$work/cases" --every 10 > /dev/null
python3 "$here/run.py" "$qnm" "$work/cases" --timeout 20 --jobs 2 --report "$work/outcomes.jsonl" \
  --known "$here/known.txt"
