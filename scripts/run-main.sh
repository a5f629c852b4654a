#!/usr/bin/env bash
# The main job: set up, then predict the bundled default series (data/default-series)
# for P = 1..1024, validate it, and draw its charts into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mkdir -p out
# Every P from 1 to 1024 (each with its own MVA fixed point) into a CSV file...
build/qnm-predict predict --procs 1..1024 --format csv -o out/prediction-P1-1024.csv
# ...and the powers of two on the terminal, with the charts.
build/qnm-predict predict --procs 1..1024:x2 --plot out/charts/predict
# Leave-one-out validation over the measured process counts.
build/qnm-predict validate --plot out/charts/validate
echo "main job: out/prediction-P1-1024.csv, charts in out/charts/{predict,validate}/" >&2
