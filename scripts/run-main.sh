#!/usr/bin/env bash
# The main job: set up, then predict the bundled default series for
# P = 1..1024, validate it, and draw its charts into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mkdir -p out
build/qnm-predict predict --procs 1..1024:x2 --plot out/charts
build/qnm-predict validate --plot out/charts
