#!/bin/sh
# The extrapolation protocol on every series the project holds (see bench/README.md,
# "Prediction accuracy"). Run from the repository root after building:
#   cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C build accuracy_bench
set -e
cd "$(dirname "$0")/.."
exec build/bench/accuracy_bench --tests tests/data --scaling bench/data/scaling "$@"
