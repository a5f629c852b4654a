#!/usr/bin/env python3
"""Score the installed tool's cross-machine prediction on a public study's raw files it has never seen.

converged-computing/performance-study ran the same problems of Kripke, LAMMPS ReaxFF and miniFE on six
cloud platforms (AWS EKS and ParallelCluster, Azure AKS and CycleCloud, Google Compute Engine and GKE) at
32, 64, 128 and 256 nodes, and measured each platform's network with the OSU micro-benchmarks. Laid out by
bench/cloud_study_campaigns.sh (one campaign folder per application and platform, one per platform's OSU
outputs), every ordered pair of platforms (A, B) of one application is scored as a user would ask "how
will it run on the new machine?", with the protocol of cross_machine_bench (bench/README.md,
"Cross-machine prediction"): the model is fitted on A's whole series and moved to B with B's run at its
smallest node count only,

    qnm-predict validate A --target B --ranks-per-node rA --target-ranks-per-node rB --format json

and scored at B's other node counts. Ranks per node are given as the user who ran the study knows them
(the study's runs name their node count in their folder, size<N>; rpn = P / N). For the queueing model
(LAMMPS, whose logs give the MPI part), a second variant also gives each platform's network profile
built by `qnm-predict profile` from its OSU outputs (`--machine A.json --target-machine B.json`), so the
switch delay and contention are re-evaluated on B's measured network. The naive transfer beside it is
A's measured curve (log-log between its points) at B's node counts times B(p0) / A(p0), the process
counts mapped by nodes. A pair is scored when both series are one configuration (the same
application, problem and threads per process); miniFE ran with 2, 24 or the default threads on different
platforms.

Printed: per pair the error at B's largest P of the tool (and with profiles), of the naive transfer,
and whether the 90% interval held; per application and over all, the medians, the pairs the tool is
nearer than the naive transfer (within 0.5% counts as tied) and the interval coverage over every
scored point. Only the Python standard library is used.

Usage (from the repository root, after building):
  bench/cloud_study_campaigns.sh STUDY/experiments OUT
  python3 bench/cloud_study_transfer.py OUT [--bin build/qnm-predict]
"""
import argparse
import csv
import io
import json
import math
import os
import re
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profile_heldout_study import rel, run  # noqa: E402  (one definition)

APPS = ("kripke", "lammps-reax", "minife")


def campaign_runs(binary, folder):
    """(configuration -> {P: median time}, ranks per node) of one campaign: a configuration is the
    application, class and threads per process; rpn from the size<N> folders."""
    code, out, err = run(binary, ["ingest", "-q", "--format", "csv", folder])
    if code != 0:
        raise SystemExit(f"{folder}: ingest refused: {err.splitlines()[-1] if err else code}")
    times, layouts = {}, set()
    for row in csv.DictReader(io.StringIO(out)):
        procs = int(row["procs"])
        name = f"{row['app']}.{row['class']} th={row['threads'] or 1}"  # one configuration
        times.setdefault(name, {}).setdefault(procs, []).append(float(row["time_s"]))
        nodes = re.search(r"/size(\d+)/", row["source"])
        if nodes:
            layouts.add(procs // int(nodes.group(1)))
    medians = {name: {p: statistics.median(t) for p, t in by_p.items()} for name, by_p in times.items()}
    return medians, (layouts.pop() if len(layouts) == 1 else 0)


def loglog(curve, procs):
    """The measured curve {P: t} at `procs`: log-log between its points, its end segments carried on."""
    points = sorted(curve.items())
    if len(points) == 1:
        return points[0][1] * points[0][0] / procs
    for (p0, t0), (p1, t1) in zip(points, points[1:]):
        if procs <= p1 or (p1, t1) == points[-1]:
            slope = math.log(t1 / t0) / math.log(p1 / p0)
            return t0 * math.exp(slope * math.log(procs / p0))
    return points[-1][1]


def transfer(binary, a, b, rpn_a, rpn_b, profiles=None, train=None):
    args = ["validate", a, "--target", b, "--format", "json"]
    if rpn_a and rpn_b:  # else the runs' own records say it (the Flux jobspecs in the study's outputs)
        args += ["--ranks-per-node", str(rpn_a), "--target-ranks-per-node", str(rpn_b)]
    if train:
        args += ["--train", ",".join(map(str, train))]
    if profiles:
        args += ["--machine", profiles[0], "--target-machine", profiles[1]]
    code, out, err = run(binary, args)
    if code != 0:
        return None, err.splitlines()[-1] if err else f"exit {code}"
    series = json.loads(out)["series"]
    return (series[0] if series else None), err


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--bin", default="build/qnm-predict")
    parser.add_argument("--paths", choices=["slowest", "median"], default="slowest",
                        help="`qnm-predict profile --paths`: the platform's OSU runs as different paths (the "
                             "slowest taken) or as repetitions of one path (the median)")
    parser.add_argument("--rpn-from-records", action="store_true",
                        help="give no --ranks-per-node: the tool takes each run's nodes from the Flux job record its "
                             "output ends with (qnm-predict round 34 on)")
    options = parser.parse_args()

    def given(rpn):  # the ranks per node passed on the command line, or none (--rpn-from-records)
        return 0 if options.rpn_from_records else rpn
    root = options.root
    scratch = tempfile.TemporaryDirectory(prefix="qnm-cloud-profiles-")  # removed when main returns
    profile_dir = scratch.name

    def profile(platform, rpn):
        folder = os.path.join(root, "osu__" + platform)
        if not os.path.isdir(folder):
            return None
        path = os.path.join(profile_dir, platform + ".json")
        files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
        code, _, err = run(options.bin, ["profile", *files, "--name", platform, "--cores-per-node", str(rpn),
                                         "--paths", options.paths, "-o", path])
        return path if code == 0 else None

    pairs, problems = [], []
    for app in APPS:
        platforms = sorted(d.split("__", 1)[1] for d in os.listdir(root) if d.startswith(app + "__"))
        data = {}
        for platform in platforms:
            medians, rpn = campaign_runs(options.bin, os.path.join(root, f"{app}__{platform}"))
            if len(medians) != 1 or not rpn:
                problems.append(f"{app} {platform}: {len(medians)} series, ranks per node {rpn or 'mixed'}: left out")
                continue
            (name, curve), = medians.items()
            if len(curve) < 2:
                problems.append(f"{app} {platform}: {len(curve)} process count: left out")
                continue
            data[platform] = (name, curve, rpn)
        for a in data:
            for b in data:
                name_a, curve_a, rpn_a = data[a]
                name_b, curve_b, rpn_b = data[b]
                if a == b or name_a != name_b:  # one configuration: problem, threads per process
                    continue
                folder_a, folder_b = (os.path.join(root, f"{app}__{p}") for p in (a, b))
                doc, note = transfer(options.bin, folder_a, folder_b, given(rpn_a), given(rpn_b))
                if doc is None:
                    problems.append(f"{app} {a} -> {b}: refused: {note}")
                    continue
                kind = doc["model"]["kind"]
                with_profiles = None
                if kind == "queueing":
                    pa, pb = profile(a, rpn_a), profile(b, rpn_b)
                    if pa and pb:
                        with_profiles, note = transfer(options.bin, folder_a, folder_b, given(rpn_a), given(rpn_b), (pa, pb))
                        if with_profiles is None:
                            problems.append(f"{app} {a} -> {b} with profiles: refused: {note}")
                two = None  # B's two smallest node counts calibrate (the ratio followed run by run)
                if len(curve_b) >= 3:
                    two, note = transfer(options.bin, folder_a, folder_b, given(rpn_a), given(rpn_b), train=sorted(curve_b)[:2])
                    if two is None:
                        problems.append(f"{app} {a} -> {b} with two runs: refused: {note}")
                p0 = min(curve_b)
                ratio = curve_b[p0] / loglog(curve_a, p0 // rpn_b * rpn_a)
                points = []
                rows = {r["predicted"]["procs"]: r for r in doc["rows"]}
                profiled = {r["predicted"]["procs"]: r for r in (with_profiles or {}).get("rows", [])}
                two_runs = {r["predicted"]["procs"]: r for r in (two or {}).get("rows", [])
                            if r["predicted"]["procs"] > sorted(curve_b)[1]}
                for p in sorted(curve_b):
                    if p == p0 or p not in rows:
                        continue
                    r = rows[p]
                    point = {"procs": p, "measured": r["measured_s"], "ours": r["predicted"]["total"]["value_s"],
                             "inside": bool(r.get("inside_interval")),
                             "naive": loglog(curve_a, p // rpn_b * rpn_a) * ratio}
                    if p in two_runs:
                        point["two"] = two_runs[p]["predicted"]["total"]["value_s"]
                        point["two_inside"] = bool(two_runs[p].get("inside_interval"))
                    if p in profiled:
                        point["profiles"] = profiled[p]["predicted"]["total"]["value_s"]
                        point["profiles_inside"] = bool(profiled[p].get("inside_interval"))
                    points.append(point)
                if points:
                    pairs.append({"app": app, "a": a, "b": b, "kind": kind, "points": points})

    print("| application | A -> B | model | B's largest P | measured s | tool | with both profiles | "
          "two B runs | naive | interval holds at B's points |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for pair in pairs:
        last = pair["points"][-1]
        profiles = f"{100 * rel(last['profiles'], last['measured']):.1f}%" if "profiles" in last else "–"
        two = f"{100 * rel(last['two'], last['measured']):.1f}%" if "two" in last else "–"
        held = sum(p["inside"] for p in pair["points"])
        print(f"| {pair['app']} | {pair['a']} -> {pair['b']} | {pair['kind']} | {last['procs']} | "
              f"{last['measured']:.4g} | {100 * rel(last['ours'], last['measured']):.1f}% | {profiles} | {two} | "
              f"{100 * rel(last['naive'], last['measured']):.1f}% | {held}/{len(pair['points'])} |")

    def summary(label, chosen):
        if not chosen:
            return
        last = [p["points"][-1] for p in chosen]
        ours = [rel(x["ours"], x["measured"]) for x in last]
        naive = [rel(x["naive"], x["measured"]) for x in last]
        better = sum(o < n - 0.005 for o, n in zip(ours, naive))
        tied = sum(abs(o - n) <= 0.005 for o, n in zip(ours, naive))
        points = [x for p in chosen for x in p["points"]]
        line = (f"| {label} | {len(chosen)} | {100 * statistics.median(ours):.1f}% | "
                f"{100 * statistics.median(naive):.1f}% | {better} | {tied} | "
                f"{sum(x['inside'] for x in points)}/{len(points)} |")
        with_two = [x for x in last if "two" in x]
        if with_two:
            inside = [x for p in chosen for x in p["points"] if "two" in x]
            line += (f" {100 * statistics.median(rel(x['two'], x['measured']) for x in with_two):.1f}% against "
                     f"{100 * statistics.median(rel(x['ours'], x['measured']) for x in with_two):.1f}% on the same "
                     f"{len(with_two)} pairs ({sum(x['two_inside'] for x in inside)}/{len(inside)} held) |")
        else:
            line += " – |"
        profiled = [x for x in last if "profiles" in x]
        if profiled:
            errors = [rel(x["profiles"], x["measured"]) for x in profiled]
            inside = [x for p in chosen for x in p["points"] if "profiles" in x]
            line += (f" {100 * statistics.median(errors):.1f}% "
                     f"({sum(x['profiles_inside'] for x in inside)}/{len(inside)} held) |")
        else:
            line += " – |"
        print(line)

    print()
    print("| application | pairs | tool: median \\|err\\| at B's largest P | naive | tool nearer | tied | "
          "90% interval holds (points) | two B runs (B's points beyond them) | with both profiles (queueing) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    for app in APPS:
        summary(app, [p for p in pairs if p["app"] == app])
    summary("**all**", pairs)
    kubernetes = ("eks", "aks", "gke")  # the study's Kubernetes services; the others are VM clusters
    on_vms = [p for p in pairs if not any(k in p["a"] or k in p["b"] for k in kubernetes)]
    summary("both sides VM clusters (ParallelCluster, CycleCloud, Compute Engine)", on_vms)
    summary("a side on Kubernetes (EKS, AKS, GKE)", [p for p in pairs if p not in on_vms])
    if problems:
        print("\nNot scored:")
        for problem in problems:
            print(f"- {problem}")


if __name__ == "__main__":
    main()
