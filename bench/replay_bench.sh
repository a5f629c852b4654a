#!/usr/bin/env bash
# Parallel replay (qnm-replay-mpi, Geimer et al. 2009) beside the sequential
# `qnm-predict trace analyze` on the largest real trace and on a generated
# ring-stencil trace (written by trace_bench --generate-only). Best of 3 wall times and
# the CPU time (user+sys of mpirun and all its processes) of that run.
# Usage: bench/replay_bench.sh [build-dir] [generated-records]   (default: build 10500000)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
records=${2:-10500000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mpirun=(mpirun --allow-run-as-root --oversubscribe --mca btl self,vader)
TIMEFORMAT='%R %U %S'

best() {  # best <label> <command...>
  local label=$1; shift
  local wall=999 cpu=0
  for round in 1 2 3; do
    read -r r u s < <({ time "$@" > /dev/null 2>&1; } 2>&1)
    if awk -v a="$wall" -v b="$r" 'BEGIN{exit !(b<a)}'; then wall=$r; cpu=$(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}'); fi
  done
  printf "  %-46s wall %7.3f s   cpu %7.3f s\n" "$label" "$wall" "$cpu"
}

run() {  # run <trace-dir>
  local trace=$1
  echo "$trace"
  best "mpirun -np 1 /bin/true (MPI start-up)" "${mpirun[@]}" -np 1 /bin/true
  best "mpirun -np 2 /bin/true (MPI start-up)" "${mpirun[@]}" -np 2 /bin/true
  best "qnm-predict trace analyze (sequential)" "$build/qnm-predict" trace analyze "$trace" --format json -o "$work/seq.json"
  for np in 1 2; do
    best "qnm-replay-mpi, $np process(es)" "${mpirun[@]}" -np "$np" "$build/qnm-replay-mpi" "$trace" --format json -o "$work/par$np.json"
    # Per-(pattern, call path, rank) values are bit-identical; only sums over hash maps may differ in the last bit.
    python3 -c 'import json,sys
def diff(a,b):
    if isinstance(a,dict): return max([diff(a[k],b[k]) for k in a] or [0]) if a.keys()==b.keys() else 1
    if isinstance(a,list): return max([diff(x,y) for x,y in zip(a,b)] or [0]) if len(a)==len(b) else 1
    if isinstance(a,(int,float)) and not isinstance(a,bool): return 0 if a==b else abs(a-b)/max(abs(a),abs(b))
    return 0 if a==b else 1
print("    max relative difference to the sequential report: %.1e" % diff(json.load(open(sys.argv[1])),json.load(open(sys.argv[2]))))' "$work/seq.json" "$work/par$np.json"
  done
}

run tests/data/otf2/sstmacro-mpi-coverage-test
"$build/bench/trace_bench" --generate-only --events "$records" --dir "$work" > "$work/trace_bench.log"
grep "^Generated" "$work/trace_bench.log"
run "$work/stencil-$records"
