#!/usr/bin/env bash
# Lays out converged-computing/performance-study's raw outputs as one campaign folder per
# application and cloud platform, for bench/profile_heldout_study.py (bench/README.md, round 31).
#
#   git clone https://github.com/converged-computing/performance-study STUDY
#   git -C STUDY checkout 6f3df687c43df5c3a7b76a73e206481cbbd16457
#   bench/cloud_study_campaigns.sh STUDY/experiments OUT
#   python3 bench/profile_heldout_study.py OUT --train 3
#   python3 bench/cloud_study_transfer.py OUT
#
# Each campaign OUT/<app>__<cloud>-<service>-cpu/size<nodes>/ holds the files of
# experiments/<cloud>/<service>/cpu/size<nodes>/results/<app>/ (the study's runs at 32, 64, 128
# and 256 nodes). The variants the study ran beside them (size32-noefa: without AWS's EFA network;
# *-placement: with or without a placement group) are other configurations and are left out.
set -euo pipefail
if [[ $# -ne 2 || ! -d "$1" ]]; then
  echo "usage: $0 STUDY/experiments OUT" >&2
  exit 2
fi
experiments=$1
out=$2
mkdir -p "$out"
for app in kripke laghos minife lammps-reax; do
  for platform in aws/eks/cpu aws/parallel-cluster/cpu azure/aks/cpu azure/cyclecloud/cpu \
                  google/compute-engine/cpu google/gke/cpu; do
    for results in "$experiments/$platform"/size*/results/"$app"; do
      [[ -d $results ]] || continue
      case $results in *noefa* | *placement*) continue ;; esac
      size=$(basename "$(dirname "$(dirname "$results")")")
      campaign="$out/${app}__${platform//\//-}/$size"
      mkdir -p "$campaign"
      find "$results" -maxdepth 1 -type f -exec cp {} "$campaign/" \;
    done
  done
done
# Each platform's OSU point-to-point outputs (osu_latency and osu_bw between two nodes, as many pairs
# as the study ran at every size), for a machine profile per platform (bench/cloud_study_transfer.py).
for platform in aws/eks/cpu aws/parallel-cluster/cpu azure/aks/cpu azure/cyclecloud/cpu \
                google/compute-engine/cpu google/gke/cpu; do
  for results in "$experiments/$platform"/size*/results/osu; do
    [[ -d $results ]] || continue
    case $results in *noefa* | *placement*) continue ;; esac
    campaign="$out/osu__${platform//\//-}"
    mkdir -p "$campaign"
    size=$(basename "$(dirname "$(dirname "$results")")")
    for file in "$results"/*.out; do
      [[ -f $file ]] && grep -q '# OSU MPI' "$file" && cp "$file" "$campaign/$size-$(basename "$file")"
    done
  done
done
ls "$out"
