#!/usr/bin/env bash
# An mpiP report of 100,000 ranks and 1,000 call sites that print one rank row
# each (3.8 MB): read in bounded memory (issue 19; it took 2.4 GB and 37 s of
# CPU when every site held dense per-rank vectors). Under a 1 GiB address-space
# limit the record must come out with the run's per-rank sums of the rank rows
# (messages, bytes, MPI calls per rank) and say that the sites' vectors were not kept.
# Usage: mpip_wide_test.sh QNM_PREDICT WORK_DIR
set -euo pipefail
qnm=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
report="$work/wide.mpiP"
awk -v R=100000 -v S=1000 'BEGIN {
  split("Send Allreduce Recv Bcast", call, " ");
  print "@ mpiP\n@ Command : /tmp/wide \n@ Version                  : 3.5.0";
  print "@--- MPI Time (seconds) ---------------------------------------------------";
  print "Task    AppTime    MPITime     MPI%";
  for (r = 0; r < R; ++r) printf "%6d     10.0      2.00    20.00\n", r;
  printf "   *    %g  %g    20.00\n", 10 * R, 2 * R;
  printf "@--- Callsites: %d ---------------------------------------------------------\n", S;
  print " ID Lev File/Address            Line Parent_Funct             MPI_Call";
  for (s = 1; s <= S; ++s) printf "%3d   0 wide.c                  %4d main                     %s\n", s, s, call[s % 4 + 1];
  printf "@--- Callsite Time statistics (all, milliseconds): %d ----------------------\n", 2 * S;
  print "Name              Site Rank  Count      Max     Mean      Min   App%   MPI%";
  for (s = 1; s <= S; ++s) {
    printf "%-17s %4d %4d     50     0.1     0.01     0.001  0.01  0.05\n", call[s % 4 + 1], s, (s * 7919) % R;
    printf "%-17s %4d    *     50     0.1     0.01     0.001  0.00  0.00\n\n", call[s % 4 + 1], s;
  }
  print "@--- Callsite Message Sent statistics (all, sent bytes) -------------------";
  print "Name              Site Rank   Count       Max      Mean       Min       Sum";
  for (s = 1; s <= S; ++s) {
    if (call[s % 4 + 1] == "Recv") continue;
    printf "%-17s %4d %4d      50      1024      1024      1024  5.12e+04\n", call[s % 4 + 1], s, (s * 7919) % R;
    printf "%-17s %4d    *      50      1024      1024      1024  5.12e+04\n\n", call[s % 4 + 1], s;
  }
  print "@--- End of Report --------------------------------------------------------";
}' > "$report"
( ulimit -v 1048576; "$qnm" ingest --strict --quiet --format csv "$report" > "$work/out.csv" )
( ulimit -v 1048576; "$qnm" ingest --strict --quiet --format json "$report" > "$work/out.json" )
# 1,000 sites x 50 calls on 100,000 ranks: 0.5 calls per rank; messages = 250 Send
# sites + 250 Bcast + 250 Allreduce (collectives count) = 0.375 per rank; bytes
# 750 sites x 51,200 / 100,000 = 384 per rank.
row=$(sed -n 2p "$work/out.csv")
expected=",wide,,,,,100000,1,,,,10,10,10,2,2,8,0.375,384,1024,0.5,,,,,,$report"
if [ "$row" != "$expected" ]; then
  echo "mpip_wide: got    $row"
  echo "mpip_wide: wanted $expected"
  exit 1
fi
grep -q '"call_sites.per_rank": "not kept: 1000 call sites x 100000 ranks' "$work/out.json" || {
  echo "mpip_wide: the JSON record does not say that the sites' per-rank vectors were not kept"
  exit 1
}
echo "mpip_wide: 100,000 ranks x 1,000 call sites read under 1 GiB"
