#!/bin/sh
# Writes tests/data/caliper/ring/{runtime-profile,spot}/ring-p<P>.cali and ring/json-split/ring-p<P>.json: the test program
# tests/data/caliper/ring.c run at P = 1, 2, 4 under Caliper's two profiling configurations with
# profile.mpi (and region.count for runtime-profile; spot counts regions by default), one run per file (tests/data/caliper/SOURCES.md). Run by hand; CI reads the files.
#   scripts/make_caliper_fixtures.sh CALIPER_SOURCE_DIR [WORK_DIR]
# CALIPER_SOURCE_DIR: a checkout of github.com/LLNL/Caliper (built here with MPI: Debian's
# libopenmpi-dev). WORK_DIR (default: a new temporary folder) keeps the build.
set -eu
[ $# -ge 1 ] || { sed -n 2,7p "$0"; exit 2; }
source_dir=$1
work=${2:-$(mktemp -d)}
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$repo/tests/data/caliper/ring
cmake -S "$source_dir" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DWITH_MPI=On -DBUILD_TESTING=Off \
  -DCMAKE_INSTALL_PREFIX="$work/install" >/dev/null
cmake --build "$work/build" -j 2 --target install >/dev/null
mpicc -O1 -I"$work/install/include" "$repo/tests/data/caliper/ring.c" -o "$work/ring" -L"$work/install/lib" -lcaliper \
  -Wl,-rpath,"$work/install/lib"
mkdir -p "$out/runtime-profile" "$out/spot" "$out/json-split" "$repo/tests/data/caliper/json-split"
for procs in 1 2 4; do
  CALI_CONFIG="runtime-profile(output.format=cali,output=$out/runtime-profile/ring-p$procs.cali),profile.mpi,region.count" \
    mpirun --allow-run-as-root --oversubscribe -np $procs "$work/ring"
  CALI_CONFIG="spot(output=$out/spot/ring-p$procs.cali),profile.mpi" \
    mpirun --allow-run-as-root --oversubscribe -np $procs "$work/ring"
  CALI_CONFIG="runtime-profile(output.format=json-split,output=$out/json-split/ring-p$procs.json),profile.mpi,region.count" \
    mpirun --allow-run-as-root --oversubscribe -np $procs "$work/ring"
done
"$work/install/bin/cali-query" -q "select * format json-split" "$repo/tests/data/caliper/thicket-mpi-scaling/27_cores.cali" \
  > "$repo/tests/data/caliper/json-split/thicket-27_cores.json"
echo "wrote $out/{runtime-profile,spot,json-split} and tests/data/caliper/json-split/thicket-27_cores.json"
