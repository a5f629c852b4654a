#!/bin/sh
# The extrapolation protocol on every series the project holds, scored source by
# source (see bench/README.md, "Prediction accuracy, round 4"). Run from the
# repository root after building:
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target accuracy_bench
set -e
cd "$(dirname "$0")/.."
exec build/bench/accuracy_bench --data bench/data --tests tests/data "$@"
