#!/usr/bin/env python3
"""Score the installed tool on campaigns of raw files it has never seen, read as a user gives them.

bench/heldout_study.py scores a table of (series, P, time). This study is for the files themselves: a
folder per campaign holding one profile or output per run (mpiP reports, CUBE/TAU/IPM/Caliper profiles,
application logs). For each campaign folder under ROOT, as a user would run it:

1. `qnm-predict ingest --format csv FOLDER` reads every run; the series it forms are listed;
2. per series with 6 or more process counts, `qnm-predict validate FOLDER --series NAME --train <its 5
   smallest P> --format json` fits and predicts every larger P (the queueing model where the profiles
   hold MPI time and messages, else the runtime-only model: the `kind` printed);
3. Amdahl's law a + b/P is fitted to the same 5 measured times (bench/training_count_study.py) and the
   naive "last training time x P_last / P" is formed;
4. with `--expected FILE` (columns `campaign,file,procs,time_s`, an independent extraction of each run's
   process count and time), every run the tool read is matched to the extraction by file name and the
   process count and time compared.

Printed: per series the model kind, |error| at the largest P of the tool, Amdahl and naive, the interval
held; medians and largest over the queueing-model series and over all; the reading differences. The
measured time is the one the tool read (its `time_s`). Only the Python standard library is used.

Usage (from the repository root, after building):
  python3 bench/profile_heldout_study.py ROOT [--expected FILE] [--bin build/qnm-predict] [--train 5]
"""
import argparse
import csv
import io
import json
import math
import os
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from training_count_study import amdahl  # noqa: E402  (one definition)


def run(binary, args):
    done = subprocess.run([binary] + args, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr.strip()


def ingest(binary, folder):
    code, out, err = run(binary, ["ingest", "-q", "--format", "csv", folder])
    if code != 0:
        return None, err.splitlines()[-1] if err else f"exit {code}"
    return list(csv.DictReader(io.StringIO(out))), err


def series_points(binary, folder):
    """series name -> sorted distinct process counts, from `ingest --series` (name, P, runs, median, min, max)."""
    code, out, _ = run(binary, ["ingest", "-q", "--series", folder])
    by_series = {}
    for line in out.splitlines()[1:] if code == 0 else []:
        fields = line.rsplit(None, 5)
        if len(fields) == 6 and fields[1].isdigit():
            by_series.setdefault(fields[0].strip(), set()).add(int(fields[1]))
    return {name: sorted(procs) for name, procs in by_series.items()}


def validate(binary, folder, name, train):
    args = ["validate", folder, "--train", ",".join(map(str, train)), "--format", "json"]
    if name:
        args += ["--series", name]
    code, out, err = run(binary, args)
    if code != 0:
        return None, err.splitlines()[-1] if err else f"exit {code}"
    series = json.loads(out)["series"]
    return (series[0] if series else None), err


def score_series(doc):
    rows = sorted(doc["rows"], key=lambda r: r["predicted"]["procs"])
    training = [(r["predicted"]["procs"], r["measured_s"]) for r in rows if r["predicted"]["procs"] in doc["train"]]
    def fit(procs):
        return amdahl(training, procs)
    p_last, t_last = training[-1]
    points = []
    for r in rows:
        p = r["predicted"]["procs"]
        if p <= p_last:
            continue
        measured = r["measured_s"]
        ours = r["predicted"]["total"]["value_s"]
        points.append({
            "procs": p, "measured": measured, "ours": ours,
            "amdahl": fit(p), "naive": t_last * p_last / p,
            "inside": bool(r.get("inside_interval")), "flags": r["predicted"].get("flags", []),
        })
    return points


def rel(pred, measured):
    return abs(pred / measured - 1) if pred > 0 else float("inf")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--expected")
    parser.add_argument("--bin", default="build/qnm-predict")
    parser.add_argument("--train", type=int, default=5)
    options = parser.parse_args()

    campaigns = sorted(d for d in os.listdir(options.root) if os.path.isdir(os.path.join(options.root, d)))
    results, reads, problems = [], {}, []
    for campaign in campaigns:
        folder = os.path.join(options.root, campaign)
        rows, note = ingest(options.bin, folder)
        if rows is None:
            problems.append(f"{campaign}: ingest refused: {note}")
            continue
        reads[campaign] = rows
        for name, procs in series_points(options.bin, folder).items():
            if len(procs) < options.train + 1:
                problems.append(f"{campaign}: series '{name}' has {len(procs)} process counts: not scored")
                continue
            train = procs[:options.train]
            doc, note = validate(options.bin, folder, name, train)
            if doc is None:
                problems.append(f"{campaign}: validate refused series '{name}': {note}")
                continue
            doc["train"] = set(train)
            points = score_series(doc)
            if points:
                results.append({"campaign": campaign, "series": name, "kind": doc["model"]["kind"],
                                "train": train, "points": points})

    print("| campaign | series | model | train P | largest P | measured s | tool | Amdahl | naive | "
          "interval holds (points) | flags at largest P |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        last = r["points"][-1]
        inside = sum(p["inside"] for p in r["points"])
        print(f"| {r['campaign']} | {r['series']} | {r['kind']} | {','.join(map(str, r['train']))} | "
              f"{last['procs']} | {last['measured']:.4g} | {100 * rel(last['ours'], last['measured']):.1f}% | "
              f"{100 * rel(last['amdahl'], last['measured']):.1f}% | {100 * rel(last['naive'], last['measured']):.1f}% | "
              f"{inside}/{len(r['points'])} | {len(last['flags'])} |")

    def summary(label, chosen):
        if not chosen:
            print(f"{label}: no series")
            return
        line = [f"{label}: {len(chosen)} series;"]
        for method in ("ours", "amdahl", "naive"):
            errors = [rel(r["points"][-1][method], r["points"][-1]["measured"]) for r in chosen]
            logs = [abs(math.log(r["points"][-1][method] / r["points"][-1]["measured"])) for r in chosen
                    if r["points"][-1][method] > 0]
            line.append(f"{method} median {100 * statistics.median(errors):.1f}% max {100 * max(errors):.1f}% "
                        f"mean|log| {statistics.mean(logs):.3f};")
        nearer = sum(rel(r["points"][-1]["ours"], r["points"][-1]["measured"]) <
                     rel(r["points"][-1]["amdahl"], r["points"][-1]["measured"]) for r in chosen)
        points = [p for r in chosen for p in r["points"]]
        line.append(f"tool nearer than Amdahl on {nearer}/{len(chosen)}; "
                    f"interval holds {sum(p['inside'] for p in points)}/{len(points)} points")
        print(" ".join(line))

    print()
    summary("queueing model", [r for r in results if r["kind"] == "queueing"])
    summary("runtime-only", [r for r in results if r["kind"] != "queueing"])
    summary("all", results)

    if options.expected:
        print("\nReading against the independent extraction (by file name):")
        expected = {}
        with open(options.expected, newline="") as handle:
            for row in csv.DictReader(handle):
                expected.setdefault(row["campaign"], []).append(row)
        for campaign in campaigns:
            want = expected.get(campaign, [])
            got = reads.get(campaign, [])
            matched, differ = 0, []
            for row in want:
                base = os.path.basename(row["file"].rstrip("/"))
                hits = [g for g in got if base and base in g["source"]]
                if not hits:
                    differ.append(f"{base}: not read")
                    continue
                g = hits[0]
                ok = int(g["procs"]) == int(row["procs"])
                if row.get("time_s"):
                    ok = ok and abs(float(g["time_s"]) / float(row["time_s"]) - 1) <= 1e-3
                if ok:
                    matched += 1
                else:
                    differ.append(f"{base}: tool P={g['procs']} t={g['time_s']}, extraction P={row['procs']} "
                                  f"t={row['time_s']} ({row.get('time_field', '')})")
            print(f"- {campaign}: {matched}/{len(want)} runs agree; tool records {len(got)}"
                  + ("".join(f"\n  - {d}" for d in differ[:8])))
    if problems:
        print("\nNot scored:")
        for p in problems:
            print(f"- {p}")


if __name__ == "__main__":
    main()
