#!/usr/bin/env python3
"""Score the installed tool's queueing model on held-out mpiP campaigns, the issue's mpip-scaling protocol.

ROOT holds one folder per series, each with a `runs.csv` (columns benchmark, threads, procs,
timestamp, npb_time_s, apptime_max_s, ...: one row per measured run, an independent reading of the
mpiP report's MPI Time table and NPB's out.dat) and one sub-folder per run (named by its `timestamp`)
holding what a user has of that run: for training runs the mpiP report, out.dat and info; for test
runs at least out.dat and info (their reports need not be present: only their measured time is used).

Per series, as a user runs it: `qnm-predict predict <the training runs' folders> --procs <test P>
--format json` (train on P <= --train-max, default 16; predict every larger measured P), scored
against the largest per-rank mpiP AppTime (the issue's measure; `--measure npb` for NPB's time).
Beside it: Amdahl's law a + b/P fitted to the same training times (bench/training_count_study.py)
and the naive "last training time x P_last / P". Printed: per series the |error| at each test P of
the tool, Amdahl and naive and whether the tool's 90% interval holds the measured time; then the
median and largest |error| at the largest P and over every test point, and the interval coverage.
Only the Python standard library is used.

Usage (from the repository root, after building):
  python3 bench/mpip_heldout_study.py ROOT [ROOT...] [--bin build/qnm-predict] [--train-max 16]
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from training_count_study import amdahl  # noqa: E402  (one definition)


def series_folders(roots):
    for root in roots:
        for dirpath, _, files in sorted(os.walk(root)):
            if "runs.csv" in files:
                yield dirpath


def score(binary, folder, train_max, measure):
    with open(os.path.join(folder, "runs.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    key = "apptime_max_s" if measure == "apptime" else "npb_time_s"
    measured = {int(r["procs"]): float(r[key]) for r in rows}
    train = sorted(p for p in measured if p <= train_max)
    test = sorted(p for p in measured if p > train_max)
    run_dirs = {int(r["procs"]): os.path.join(folder, r["timestamp"]) for r in rows}
    args = [binary, "predict"] + [run_dirs[p] for p in train]
    args += ["--procs", ",".join(map(str, test)), "--format", "json"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        return None, done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
    series = json.loads(done.stdout)["series"]
    if len(series) != 1:
        return None, [f"{len(series)} series formed from the training runs, expected 1"]
    predicted = {p["procs"]: p["total"] for p in series[0]["predictions"]}
    flags = {p["procs"]: p["flags"] for p in series[0]["predictions"]}
    training = [(p, measured[p]) for p in train]
    points = []
    for p in test:
        t = measured[p]
        tool = predicted[p]
        fit = amdahl(training, p)
        naive = training[-1][1] * training[-1][0] / p
        points.append({
            "procs": p, "measured": t, "tool": tool["value_s"], "lower": tool["lower_s"], "upper": tool["upper_s"],
            "amdahl": fit, "naive": naive, "flags": flags[p],
        })
    return {"name": series[0]["name"], "train": train, "points": points}, []


def rel(value, truth):
    return abs(value / truth - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+")
    parser.add_argument("--bin", default="build/qnm-predict")
    parser.add_argument("--train-max", type=int, default=16)
    parser.add_argument("--measure", choices=["apptime", "npb"], default="apptime")
    opts = parser.parse_args()
    results = []
    print("| series (folder) | tool's series | P | measured s | tool s [90%] | tool | Amdahl | naive | holds |")
    print("|---|---|---:|---:|---|---:|---:|---:|---|")
    for folder in series_folders(opts.roots):
        result, errors = score(opts.bin, folder, opts.train_max, opts.measure)
        label = os.path.basename(folder)
        if result is None:
            print(f"| {label} | not predicted: {' '.join(errors)} |")
            continue
        results.append(result)
        for x in result["points"]:
            holds = x["lower"] <= x["measured"] <= x["upper"]
            print(f"| {label} | {result['name']} | {x['procs']} | {x['measured']:.3g} | {x['tool']:.3g} "
                  f"[{x['lower']:.3g}, {x['upper']:.3g}] | {100 * rel(x['tool'], x['measured']):.1f}% | "
                  f"{100 * rel(x['amdahl'], x['measured']):.1f}% | {100 * rel(x['naive'], x['measured']):.1f}% | "
                  f"{'yes' if holds else 'NO'}{' (flagged)' if x['flags'] else ''} |")
    if not results:
        return 1
    print()
    print(f"{len(results)} series, trained on P <= {opts.train_max}, against "
          f"{'the largest per-rank mpiP AppTime' if opts.measure == 'apptime' else 'NPB time'}:")
    print("| method | median / max \\|err\\| at the largest P | median / max \\|err\\| over every test P |")
    print("|---|---|---|")
    for method in ("tool", "amdahl", "naive"):
        last = [rel(r["points"][-1][method], r["points"][-1]["measured"]) for r in results]
        every = [rel(x[method], x["measured"]) for r in results for x in r["points"]]
        print(f"| {method} | {100 * statistics.median(last):.1f}% / {100 * max(last):.1f}% | "
              f"{100 * statistics.median(every):.1f}% / {100 * max(every):.1f}% |")
    held = [x["lower"] <= x["measured"] <= x["upper"] for r in results for x in r["points"]]
    print(f"\n90% intervals hold {sum(held)} of {len(held)} test points ({100 * sum(held) / len(held):.1f}%).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
