#!/usr/bin/env python3
"""Does the configuration chosen per series hold when the protocol changes?

bench/accuracy scores Extra-P's protocol: train on the 5 smallest process counts of each
series, predict the largest. The held-back sets may be cut otherwise. This study runs the
installed tool as a user would (`qnm-predict predict` of a table of the training runs, once
per series and protocol) for K = 5..8 training points, on every series of bench/data with
more than K process counts, and scores the prediction at the largest P:

- "per-series": what the tool did in rounds 15-23 (`--configuration per-series`; the configuration whose forecast of the last training
  point erred least, models/runtime_configuration.h);
- "nodes + split": the default configuration pinned (--configuration);
- Amdahl's law a + b/P by non-negative relative least squares, and the naive
  "last training point x P_last / P".

Extra-P's predictions exist for K = 5 only, so they are not compared here; the tool's
temperatures are the shipped ones, not chosen leaving the source out as in bench/accuracy.
Only the Python standard library is used.

Usage (from the repository root, after building):
  python3 bench/training_count_study.py [--bin build/qnm-predict] [--data bench/data] [K ...]
Prints, per K and method, the median |error| and the mean |log error| at the largest P, per
source and over all series, and the series where "per-series" is better or worse than the
default. Numbers: bench/README.md, "Round 16".
"""
import argparse
import collections
import csv
import math
import os
import statistics
import subprocess
import sys
import tempfile

TABLES = ("scaling/scaling_series.csv", "scaling2/series.csv")
COLUMNS = ("series", "procs", "time_s", "metric", "ranks_per_node", "threads", "nodes")


def amdahl(points, procs):
    """a + b/P minimising sum(((a + b/p) / t - 1)^2) with a, b >= 0 (two variables: exact)."""
    def solve(use_a, use_b):
        rows = [((1 / t) if use_a else 0.0, (1 / (p * t)) if use_b else 0.0) for p, t in points]
        saa = sum(r[0] * r[0] for r in rows)
        sbb = sum(r[1] * r[1] for r in rows)
        sab = sum(r[0] * r[1] for r in rows)
        sa = sum(r[0] for r in rows)
        sb = sum(r[1] for r in rows)
        if use_a and use_b:
            det = saa * sbb - sab * sab
            if det <= 0:
                return None
            return ((sa * sbb - sb * sab) / det, (sb * saa - sa * sab) / det)
        if use_a:
            return (sa / saa, 0.0)
        return (0.0, sb / sbb)

    def cost(c):
        return sum(((c[0] + c[1] / p) / t - 1) ** 2 for p, t in points)

    best = None
    for candidate in (solve(True, True), solve(True, False), solve(False, True)):
        if candidate is None or candidate[0] < 0 or candidate[1] < 0:
            continue
        if best is None or cost(candidate) < cost(best):
            best = candidate
    return best[0] + best[1] / procs


def ranks_per_node_of_scaling_series(name):
    """As bench/accuracy/corpus.cpp: cores per node of the machine (scaling/SOURCES.md) / threads."""
    cores = 0
    for machine, per_node in (("AWSc6gn", 64), ("SuperMUC", 28), ("MareNostrum4", 48),
                              ("niagara", 40), ("bbserv", 32)):
        if machine in name:
            cores = per_node
            break
    threads = 1
    if "-omp" in name:
        digits = ""
        for c in name[name.index("-omp") + 4:]:
            if not c.isdigit():
                break
            digits += c
        threads = max(1, int(digits or "1"))
    return cores // threads


def source_of(name):
    """As bench/accuracy/corpus.cpp: the series' prefix; trilinosML is amgcl's repository."""
    prefix = name.split("-")[0]
    return "amgcl" if prefix == "trilinosML" else prefix


def load(data):
    series = collections.OrderedDict()
    for table in TABLES:
        with open(os.path.join(data, table), newline="") as handle:
            for row in csv.DictReader(handle):
                if "ranks_per_node" not in row:
                    per_node = ranks_per_node_of_scaling_series(row["series"])
                    row["ranks_per_node"] = str(per_node) if per_node > 0 else ""
                series.setdefault(row["series"], []).append(row)
    return series


def write_training_table(rows, training, workdir):
    """The series' rows at the process counts in `training`, as a statistics table the tool reads
    (the columns of COLUMNS the rows fill); returns its path."""
    columns = [c for c in COLUMNS if c in rows[0] and any(r[c] for r in rows)]
    path = os.path.join(workdir, "training.csv")
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for row in rows:
            if int(row["procs"]) in training:
                writer.writerow([row[c] for c in columns])
    return path


def predict(binary, rows, training, target, configuration, workdir):
    path = write_training_table(rows, training, workdir)
    args = [binary, "predict", path, "--procs", str(target), "--format", "csv", "--configuration", configuration]
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit("training_count_study: " + out.stderr.strip())
    for row in csv.DictReader(out.stdout.splitlines()):
        if int(row["procs"]) == target and row["total_s"]:
            return float(row["total_s"])
    sys.exit(f"training_count_study: no prediction at P={target}")


def study(binary, series, k, workdir):
    errors = collections.defaultdict(list)  # (method, source) -> log(predicted / measured)
    for name, rows in series.items():
        by_procs = collections.defaultdict(list)
        for row in rows:
            by_procs[int(row["procs"])].append(float(row["time_s"]))
        procs = sorted(by_procs)
        if len(procs) <= k:
            continue
        training, target = procs[:k], procs[-1]
        measured = statistics.median(by_procs[target])
        points = [(p, statistics.median(by_procs[p])) for p in training]
        source = source_of(name)
        predicted = {c: predict(binary, rows, training, target, c, workdir)
                     for c in ("per-series", "nodes + split")}
        predicted["Amdahl"] = amdahl(points, target)
        predicted["naive"] = points[-1][1] * points[-1][0] / target
        for method, value in predicted.items():
            for key in (source, "all"):
                errors[(method, key)].append(math.log(value / measured))
    sources = sorted({key for _, key in errors if key != "all"}) + ["all"]
    print(f"\nK = {k}: median |error| / mean |log error| at the largest P (series)")
    print("| method | " + " | ".join(sources) + " |")
    print("|---|" + "---:|" * len(sources))
    for method in ("per-series", "nodes + split", "Amdahl", "naive"):
        cells = []
        for source in sources:
            e = errors[(method, source)]
            cells.append(f"{100 * statistics.median(abs(math.expm1(x)) for x in e):.1f}% / "
                         f"{statistics.fmean(abs(x) for x in e):.3f} ({len(e)})" if e else "-")
        print(f"| {method} | " + " | ".join(cells) + " |")
    chosen, default = errors[("per-series", "all")], errors[("nodes + split", "all")]
    better = sum(abs(a) < abs(b) - 1e-12 for a, b in zip(chosen, default))
    worse = sum(abs(a) > abs(b) + 1e-12 for a, b in zip(chosen, default))
    print(f"per-series better than the default on {better} series, worse on {worse}, of {len(chosen)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default="build/qnm-predict")
    parser.add_argument("--data", default="bench/data")
    parser.add_argument("k", nargs="*", type=int, default=[5, 6, 7, 8])
    args = parser.parse_args()
    series = load(args.data)
    with tempfile.TemporaryDirectory() as workdir:
        for k in args.k:
            study(args.bin, series, k, workdir)


if __name__ == "__main__":
    main()
