#!/usr/bin/env bash
# Writes the IPM fixtures of tests/ipm_log_test.cpp with IPM itself: builds IPM
# (github.com/nerscadmin/IPM @ 02f0cdc, LGPL-2.1; the source tree is the first
# argument) with Debian's OpenMPI, links ring.c (here) against it and runs it at
# P = 1, 2, 4, 8 with IPM_REPORT=full IPM_LOG=full: each run's stdout (IPM's
# banner) goes to ring.<P>.out and its XML log to ring.<P>.ipm.xml, and IPM's
# own parser of the log, `ipm_parse -full`, writes ring.<P>.ipm_parse.txt (it
# insists on finding ploticus, which only its -html mode uses: a stand-in `pl`
# that does nothing is put on its PATH).
# Usage: tests/data/ipm/generate-ipm-2.0.6.sh IPM_SOURCE_TREE (run from the project root;
# needs autoconf, automake, libtool, perl, mpicc).
set -euo pipefail
src=$1
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cp -r "$src"/. "$work/ipm"
cd "$work/ipm"
./bootstrap.sh > /dev/null 2>&1
./configure MPICC=mpicc MPIFC=mpif90 > /dev/null
# The generated libtool passes -soname straight to the compiler on Debian 12, so
# the shared libraries do not link; the static objects are what a run needs.
make -C src libipm.la > /dev/null 2>&1 || true
ar rcs "$work/libipm.a" src/libipm_la-*.o
mpicc "$out/ring.c" -o "$work/ring" "$work/libipm.a"
cd "$work"
for procs in 1 2 4 8; do
  rm -f ./*.ipm.xml
  IPM_REPORT=full IPM_LOG=full mpirun --allow-run-as-root --oversubscribe -np "$procs" "$work/ring" > "$out/ring.$procs.out"
  mv ./*.ipm.xml "$out/ring.$procs.ipm.xml"
done
mkdir "$work/pl" && printf '#!/bin/sh\nexit 0\n' > "$work/pl/pl" && chmod +x "$work/pl/pl"
for procs in 1 2 4 8; do
  (cd "$out" && PATH="$work/pl:$PATH" perl "$work/ipm/bin/ipm_parse" -full "ring.$procs.ipm.xml" > "ring.$procs.ipm_parse.txt")
done
rm -rf "$work"
