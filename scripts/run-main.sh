#!/usr/bin/env bash
# The main job: set up, then predict the bundled default series (data/default-series)
# for P = 1..1024, validate it, draw its charts and write its HTML report into out/.
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
# The whole study as one page to open from disk (inputs, model, predictions, validation, components).
build/qnm-predict report --procs 1..1024:x2 -o out/report.html
echo "main job: out/report.html, out/prediction-P1-1024.csv, charts in out/charts/{predict,validate}/" >&2
