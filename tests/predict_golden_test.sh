#!/usr/bin/env bash
# predict and validate give byte for byte the output recorded in
# tests/data/predict-golden/expected.txt (SHA-256 and size of standard output,
# or of the -o file) for every command of commands.txt: real inputs of
# tests/data and two generated tables of many series. Recorded with the
# whole-output formatter before predict/validate began to stream series by
# series (issue 19); the streamed text must not differ by one byte. Re-recorded
# once since, on purpose: the weight temperature and interval rate chosen
# leaving each source out, and the input curves' fit notes (round 6); the
# granularity note of SP-MZ and LU-MZ series (round 7: notes only, every byte
# else identical); the "N ranks per node (the runs' layout)" note of runtime-only
# series whose runs give it (round 14: notes only, every byte else identical); the
# configuration chosen per runtime-only series of five or more training points
# (round 15: models/runtime_configuration.h; the mpiP, default-series, transfer and
# wide-table outputs are identical, the queueing model and the transfer do not choose);
# the load imbalance of SP-MZ and LU-MZ series fitted over every run, not carried from the
# last one (round 20: their zones are of one size; only their lines of the mpiP outputs differ).
# A flag shared by several rows of one series' table written out once, under its first row, and the
# validation table's rows marked '!' (round 28: only those lines of three table outputs differ).
# The cross-machine interval constants chosen on nine groups with the cloud study's (round 32: drift
# 0.04 -> 0.12 per octave; only the two transfer tables differ, their intervals and drift note).
# Beyond a node no training run crossed, the total's interval reaching down to perfect scaling from
# the last training run (round 37: only the mpiP series trained on one node, its P >= 256 lower ends
# and flag, in the three predict-mpip outputs).
# An extrapolation whose 90% interval spans more than 100x flagged as too wide to inform (round 38:
# flags only; with the flag switched off every output is byte-identical to the recorded one).
# The interval's per-octave rate fitted under a noise term (round 39, --interval-noise fitted: interval
# ends, rates and their flags only; with --interval-noise none every output is byte-identical to the
# one recorded before). A too-wide flag whose width is mostly the fitted noise says so (round 40: that
# flag's text only; with the old wording restored every output is byte-identical).
# The too-wide flag below the training range too (round 40: flags only, checked against the outputs
# before with every flag line and marker removed); interval ends held inside double's range.
# A runtime-only series' input curve drawn and described as the predictions use it, through the measured
# points (round 43: the words ", through the measured points" in nine outputs' formulas; without them every
# output is byte-identical to the one recorded before).
# A compiler or libm other than Debian's may print a last digit differently:
# re-record there with --record after checking the differences.
# Usage: predict_golden_test.sh QNM_PREDICT SOURCE_DIR WORK_DIR [--record]
set -euo pipefail
qnm=$1 src=$2 work=$3 record=${4:-}
golden="$src/tests/data/predict-golden"
rm -rf "$work"
mkdir -p "$work"
awk 'BEGIN { print "series,procs,time_s";
  for (s = 0; s < 300; ++s) for (p = 1; p <= 12; ++p) printf "s%d,%d,%.6g\n", s, p, (50 + s % 17) / p + 0.01 * p * (1 + s % 3) }' \
  > "$work/many.csv"
awk 'BEGIN { print "series,procs,time_s,mpi_time_s,app_time_s,messages,bytes,machine";
  for (s = 0; s < 60; ++s) for (p = 1; p <= 20; ++p) { t = (100 + s % 37) / p + 0.001 * p;
    printf "w%d,%d,%.6g,%.6g,%.6g,%d,%d,cluster-a\n", s, p, t, 0.3 * t, t, 100 + (s * p) % 9, 4096 * (1 + p % 5) } }' \
  > "$work/wide.csv"
qnm=$(realpath "$qnm")
actual="$work/actual.txt"
: > "$actual"
while IFS='|' read -r name args; do
  case "$name" in ''|'#'*) continue ;; esac
  # Generated tables are named relative to the scratch folder: notes quote their paths.
  dir=$src
  if [[ $args == *@WORK@* ]]; then
    dir=$work
    args=${args//@WORK@\//}
  fi
  # shellcheck disable=SC2086  # the arguments are words
  if ! (cd "$dir" && "$qnm" $args > "$work/$name.stdout" 2> "$work/$name.stderr"); then
    echo "predict_golden: $name: exit $?: $(tail -1 "$work/$name.stderr")"
    exit 1
  fi
  output="$work/$name.stdout"
  [ -f "$work/$name.out" ] && output="$work/$name.out"
  echo "$name $(sha256sum < "$output" | cut -d' ' -f1) $(wc -c < "$output")" >> "$actual"
done < "$golden/commands.txt"
if [ "$record" = --record ]; then
  cp "$actual" "$golden/expected.txt"
  echo "predict_golden: recorded $(wc -l < "$actual") outputs"
  exit 0
fi
if ! diff "$golden/expected.txt" "$actual"; then
  echo "predict_golden: outputs differ from the recorded ones (outputs in $work)"
  exit 1
fi
echo "predict_golden: $(wc -l < "$actual") outputs identical"
