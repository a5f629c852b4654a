#!/usr/bin/env python3
"""Score the installed tool on a table of series it has never seen, as the held-back sets are scored.

bench/accuracy scores the series of bench/data leaving one source out. This study is for a table
that took no part in any choice of the tool: the tool is run as a user would run it (`qnm-predict
predict` of a table holding a series' 5 smallest process counts, every larger count asked for),
with its shipped constants, and compared with

- Extra-P, from a file in the layout of `extrap_baseline.csv` (`series,p_test,extrap_pred`; the
  shared data's baselines and the output of an Extra-P run on the same protocol both have it),
- Amdahl's law a + b/P by non-negative relative least squares (bench/training_count_study.py),
- the naive "last training point x P_last / P".

The table has the columns of `scaling2/series.csv` (`series,procs,time_s`, and where known
`metric,ranks_per_node,threads,nodes`); a series' source is its id up to the first '-'.
Printed, per source and over all series: median and largest |error| at each series' largest P,
the same over every predicted point, mean |log error| at the largest P, the series where the tool
is nearer than Extra-P and than Amdahl, how many measured points lie inside the tool's 90%
interval, and its mean interval score in log space (width + 20 x the log distance outside;
Gneiting & Raftery 2007, s6.2; lower is better). Only the Python standard library is used.

Usage (from the repository root, after building):
  python3 bench/heldout_study.py TABLE.csv [--extrap BASELINE.csv] [--bin build/qnm-predict]
                                 [--configuration NAME] [--train 5] [--dump OUT.csv]
                                 [--tool-arg=ARG]...
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

sys.dont_write_bytecode = True  # no __pycache__ in bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from training_count_study import amdahl, write_training_table  # noqa: E402  (one definition each)

METHODS = ("qnm-predict", "Extra-P", "Amdahl", "naive")


def load_series(path):
    series = collections.OrderedDict()
    with open(path, newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            try:
                procs, seconds = int(row["procs"]), float(row["time_s"])
            except (KeyError, TypeError, ValueError):
                sys.exit(f"heldout_study: {path}:{line}: needs integer procs and numeric time_s")
            if procs < 1 or not seconds > 0 or not math.isfinite(seconds):
                sys.exit(f"heldout_study: {path}:{line}: procs >= 1 and a positive finite time_s")
            series.setdefault(row["series"], []).append(row)
    return series


def load_extrap(path):
    predictions = {}
    if not path:
        return predictions
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            predictions[(row["series"], int(float(row["p_test"])))] = float(row["extrap_pred"])
    return predictions


def run_tool(binary, rows, training, targets, configuration, tool_args, workdir):
    """{P: (total, lower, upper, flags)} of `qnm-predict predict` on the training rows."""
    path = write_training_table(rows, training, workdir)
    args = [binary, "predict", path, "--procs", ",".join(map(str, targets)), "--format", "csv"]
    if configuration:
        args += ["--configuration", configuration]
    args += tool_args
    out = subprocess.run(args, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"heldout_study: {rows[0]['series']}: " + out.stderr.strip())
    result = {}
    for row in csv.DictReader(out.stdout.splitlines()):
        if row["total_s"]:
            result[int(row["procs"])] = (float(row["total_s"]), float(row["total_lower_s"]),
                                         float(row["total_upper_s"]), row["flags"])
    return result


def interval_score(lower, upper, measured, level=0.9):
    """The interval score in log space (Gneiting & Raftery 2007, s6.2; bench/accuracy prints the same):
    the width log(upper/lower) plus 2/(1 - level) times the log distance of a measurement outside."""
    outside = max(0.0, math.log(lower / measured), math.log(measured / upper))
    return math.log(upper / lower) + 2 / (1 - level) * outside


def median_max(values):
    return (f"{100 * statistics.median(values):.1f}% / {100 * max(values):.1f}%" if values else "-")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("table")
    parser.add_argument("--extrap", default="")
    parser.add_argument("--bin", default="build/qnm-predict")
    parser.add_argument("--configuration", default="")
    parser.add_argument("--train", type=int, default=5)
    parser.add_argument("--dump", default="")
    parser.add_argument("--tool-arg", action="append", default=[],
                        help="one more argument of `qnm-predict predict` (repeat; e.g. --tool-arg=--no-hold)")
    args = parser.parse_args()
    series = load_series(args.table)
    extrap = load_extrap(args.extrap)

    last = collections.defaultdict(lambda: collections.defaultdict(list))  # source -> method -> log err
    every = collections.defaultdict(lambda: collections.defaultdict(list))
    inside = collections.defaultdict(lambda: [0, 0])
    score = collections.defaultdict(list)  # interval score of every predicted point
    wins = collections.defaultdict(lambda: collections.Counter())
    flagged = collections.Counter()
    dump = []
    with tempfile.TemporaryDirectory() as workdir:
        for name, rows in series.items():
            by_procs = collections.defaultdict(list)
            for row in rows:
                by_procs[int(row["procs"])].append(float(row["time_s"]))
            procs = sorted(by_procs)
            if len(procs) <= args.train:
                print(f"skipped {name}: {len(procs)} process counts", file=sys.stderr)
                continue
            training, targets = procs[:args.train], procs[args.train:]
            points = [(p, statistics.median(by_procs[p])) for p in training]
            ours = run_tool(args.bin, rows, set(training), targets, args.configuration, args.tool_arg, workdir)
            source = name.split("-")[0]
            errors_last = {}
            for p in targets:
                measured = statistics.median(by_procs[p])
                predicted = {"qnm-predict": ours[p][0], "Amdahl": amdahl(points, p),
                             "naive": points[-1][1] * points[-1][0] / p}
                if (name, p) in extrap and extrap[(name, p)] > 0:
                    predicted["Extra-P"] = extrap[(name, p)]
                for method, value in predicted.items():
                    error = math.log(value / measured)
                    for key in (source, "all"):
                        every[key][method].append(error)
                    if p == targets[-1]:
                        errors_last[method] = error
                for key in (source, "all"):
                    inside[key][0] += ours[p][1] <= measured <= ours[p][2]
                    inside[key][1] += 1
                    score[key].append(interval_score(ours[p][1], ours[p][2], measured))
                flagged[source] += bool(ours[p][3])
                dump.append([name, p, measured] + [predicted.get(m, "") for m in METHODS] +
                            [ours[p][1], ours[p][2], ours[p][3]])
            for method, error in errors_last.items():
                for key in (source, "all"):
                    last[key][method].append(error)
            for rival in ("Extra-P", "Amdahl"):
                if rival in errors_last:
                    for key in (source, "all"):
                        wins[key][rival] += abs(errors_last["qnm-predict"]) < abs(errors_last[rival])
    keys = sorted(k for k in last if k != "all") + ["all"]
    rel = lambda errors: [abs(math.expm1(e)) for e in errors]  # noqa: E731
    print(f"Train on the {args.train} smallest process counts, predict every larger one "
          f"({args.table}; tool {args.configuration or 'as shipped'}).")
    print("Median / largest |error| at each series' largest P:")
    print("| source | series | " + " | ".join(METHODS) + " | nearer than Extra-P | nearer than Amdahl "
          "| 90% interval holds | interval score | flagged points |")
    print("|---|---:|" + "---|" * len(METHODS) + "---:|---:|---:|---:|---:|")
    for key in keys:
        n = len(last[key]["qnm-predict"])
        n_extrap = len(last[key]["Extra-P"])
        cells = [median_max(rel(last[key][m])) for m in METHODS]
        extrap_wins = f"{wins[key]['Extra-P']}/{n_extrap}" if n_extrap else "-"
        held = inside[key]
        flags = sum(flagged.values()) if key == "all" else flagged[key]
        print(f"| {key} | {n} | " + " | ".join(cells) + f" | {extrap_wins} | {wins[key]['Amdahl']}/{n} | "
              f"{100 * held[0] / held[1]:.1f}% | {statistics.fmean(score[key]):.3f} | {flags} |")
    print("\nMean |log error| at the largest P; median / largest |error| over every predicted point:")
    print("| source | " + " | ".join(METHODS) + " |")
    print("|---|" + "---|" * len(METHODS))
    for key in keys:
        cells = []
        for m in METHODS:
            e = last[key][m]
            cells.append(f"{statistics.fmean(abs(x) for x in e):.3f}; {median_max(rel(every[key][m]))}"
                         if e else "-")
        print(f"| {key} | " + " | ".join(cells) + " |")
    if args.dump:
        with open(args.dump, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["series", "procs", "measured_s"] + [m + "_s" for m in METHODS] +
                            ["lower_s", "upper_s", "flags"])
            writer.writerows(dump)


if __name__ == "__main__":
    main()
