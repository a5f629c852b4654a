#!/usr/bin/env python3
"""Reads hyperfine JSON exports with hyperfine's own analysis scripts (github.com/sharkdp/hyperfine, scripts/:
`advanced_statistics.py` prints each command's runs, mean, median, min and max of its "times";
`plot_parametrized.py` takes each benchmark's one parameter) and with `qnm-predict ingest --format json`, and
says for each export whether the run-statistics records of each command hold what the scripts read: the
number of timed runs, their mean, median, minimum and maximum (printed to 3 decimals), and, where the command
has one parameter, its value as the records' process count when the parameter names it. A command whose runs
failed (an exit code other than 0) is not read by qnm-predict, by design; the scripts count its times. A peer
check run by hand (bench/README.md, "Round 47"); CI does not depend on hyperfine's scripts.

Usage: python3 compare_hyperfine_reads_with_hyperfine_scripts.py HYPERFINE_SCRIPTS_DIR QNM_PREDICT EXPORT.json [...]
(Debian's /usr/bin/python3 with python3-numpy; the scripts folder of a hyperfine checkout.)
Exit status 0 when every export reads alike.
"""
import json
import os
import re
import statistics
import subprocess
import sys


def script_reads(scripts, export):
    """advanced_statistics.py's figures per command: {command: {runs, mean, median, min, max}}."""
    out = subprocess.run([sys.executable, os.path.join(scripts, "advanced_statistics.py"), export],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None, (out.stderr.strip().splitlines() or ["exit %d" % out.returncode])[-1]
    figures, command = {}, None
    for line in out.stdout.splitlines():
        match = re.match(r"Command '(.*)'$", line)
        if match:
            command = match.group(1)
            figures[command] = {}
            continue
        match = re.match(r"\s+(runs|mean|median|min|max):\s+(\S+)", line)
        if match and command is not None:
            figures[command][match.group(1)] = float(match.group(2))
    return figures, None


def parameter_of(export):
    """plot_parametrized.py's reading of each benchmark's one parameter: {command: (name, value)}."""
    with open(export) as f:
        results = json.load(f)["results"]
    out = {}
    for b in results:
        params = b.get("parameters", {})
        if len(params) == 1:
            (name, value), = params.items()
            out[b["command"]] = (name, float(value))
    return out


def failed_commands(export):
    with open(export) as f:
        results = json.load(f)["results"]
    return {b["command"] for b in results if any(code != 0 for code in b.get("exit_codes", []))}


def qnm_reads(qnm, export):
    out = subprocess.run([qnm, "ingest", "--format", "json", export], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None, (out.stderr.strip().splitlines() or ["exit %d" % out.returncode])[-1]
    runs = {}
    for run in json.loads(out.stdout)["runs"]:
        runs.setdefault(run["details"]["hyperfine_command"], []).append(run)
    return runs, None


def compare(scripts, qnm, export):
    figures, why = script_reads(scripts, export)
    if figures is None:
        return ["hyperfine's script refuses it: " + why]
    runs, why = qnm_reads(qnm, export)
    if runs is None:
        return ["qnm-predict refuses it: " + why]
    failed = failed_commands(export)
    parameters = parameter_of(export)
    differences = []
    for command, figure in figures.items():
        if command in failed:
            if command in runs and len(runs[command]) >= figure["runs"]:
                differences.append(f"'{command}': its failed runs were read")
            continue
        records = runs.get(command, [])
        times = [r["time_s"] for r in records]
        if len(times) != figure["runs"]:
            differences.append(f"'{command}': {len(times)} runs read, the script counts {figure['runs']:.0f}")
            continue
        ours = {"mean": statistics.mean(times), "median": statistics.median(times), "min": min(times),
                "max": max(times)}
        for key, value in ours.items():
            if abs(value - figure[key]) > 0.0005 + 1e-9:
                differences.append(f"'{command}': {key} {value:.6f} s read, the script prints {figure[key]:.3f}")
        if command in parameters:
            name, value = parameters[command]
            derivation = records[0]["derivations"].get("procs", "")
            if derivation == "hyperfine parameter " + name and any(r["procs"] != value for r in records):
                differences.append(f"'{command}': processes {records[0]['procs']}, parameter {name} = {value:g}")
    return differences


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    scripts, qnm, exports = argv[1], argv[2], argv[3:]
    alike = 0
    for export in exports:
        differences = compare(scripts, qnm, export)
        if differences:
            print(f"{export}: DIFFERS")
            for line in differences:
                print("  " + line)
        else:
            alike += 1
            print(f"{export}: alike")
    print(f"{alike} of {len(exports)} exports read alike")
    return 0 if alike == len(exports) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
