#!/bin/sh
# The extrapolation protocol on every series the project holds, scored source by
# source (see bench/README.md, "Prediction accuracy, round 4"), then the
# cross-machine section (bench/README.md, "Cross-machine prediction"). Run from
# the repository root after building:
#   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target accuracy_bench cross_machine_bench
set -e
cd "$(dirname "$0")/.."
build/bench/accuracy_bench --data bench/data --tests tests/data "$@"
echo
quiet=""
for arg in "$@"; do [ "$arg" = --quiet ] && quiet=--quiet; done
exec build/bench/cross_machine_bench --data bench/data --tests tests/data $quiet
