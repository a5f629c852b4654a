#!/usr/bin/env python3
"""Reads Darshan logs with darshan-util's `darshan-parser` (github.com/darshan-hpc/darshan, built from source:
Debian has no package) and with `qnm-predict ingest`, and says for each log whether the run-statistics record
holds what darshan-parser prints of its job: the processes (`# nprocs`), the run time (`# run time`, printed to
4 decimals), the program and its arguments (`# exe`: its first word's base name is the record's app, the words
after it `command.arguments`), the job id, Darshan's library version (`# metadata: lib_ver`) and the log format
version, and whether some module's records are incomplete (darshan-parser's and darshan-dxt-parser's
"contains incomplete data"). A log darshan-parser refuses must be refused by qnm-predict too; one whose run time darshan-parser prints as 0
(format 3.41 keeps no "+ 1" second) is refused by qnm-predict, by design. A peer check run by hand (bench/README.md,
"Darshan logs"); CI does not depend on darshan-util.

Usage: python3 compare_darshan_reads_with_darshan_parser.py DARSHAN_PARSER QNM_PREDICT LOG.darshan [...]
Exit status 0 when every log reads alike.
"""
import json
import os
import subprocess
import sys


def parser_job(darshan_parser, log):
    """The job summary darshan-parser prints ('# key: value' lines up to the first blank line), or its error."""
    # --show-incomplete: a log some module of which ran out of memory for its records keeps a whole job record
    # (without the option darshan-parser stops at that module, after printing the job's summary).
    out = subprocess.run([darshan_parser, "--show-incomplete", log], capture_output=True, text=True,
                         errors="replace", check=False)
    if out.returncode != 0 or "# darshan log version:" not in out.stdout[:2048]:
        return None, (out.stderr.strip().splitlines() or ["exit %d" % out.returncode])[0]
    job = {"metadata": {}}
    summary = out.stdout[out.stdout.index("# darshan log version:"):]
    # darshan-parser leaves the DXT modules out; darshan-dxt-parser (beside it) says when one of them is partial.
    dxt = subprocess.run([os.path.join(os.path.dirname(darshan_parser), "darshan-dxt-parser"), "--show-incomplete",
                          log], capture_output=True, text=True, errors="replace", check=False)
    job["partial"] = "module contains incomplete data!" in out.stdout + dxt.stdout + dxt.stderr
    for line in summary.splitlines():
        if not line.strip():
            break
        key, _, value = line[1:].partition(":")
        key, value = key.strip(), value.strip()
        if key == "metadata":
            name, _, setting = value.partition("=")
            job["metadata"][name.strip()] = setting.strip()
        else:
            job[key] = value
    return job, ""


def our_run(qnm_predict, log):
    out = subprocess.run([qnm_predict, "ingest", log, "--format", "json", "--strict"], capture_output=True,
                         text=True, errors="replace", check=False)
    if out.returncode != 0:
        return None, (out.stderr.strip().splitlines() or ["exit %d" % out.returncode])[-1]
    runs = json.loads(out.stdout)["runs"]
    return (runs[0] if len(runs) == 1 else None), ("" if len(runs) == 1 else "%d runs" % len(runs))


def differences(job, run):
    details = run.get("details", {})
    words = job["exe"].split()
    expected = {
        "procs": (int(job["nprocs"]), run["procs"]),
        "app": (os.path.basename(words[0]) if words else "", run["app"]),
        "command.arguments": (" ".join(words[1:]), details.get("command.arguments", "")),
        "jobid": (job["jobid"], details.get("jobid", "")),
        "log version": (job["darshan log version"], details.get("darshan.log_version", "")),
        "lib_ver": (job["metadata"].get("lib_ver", ""), details.get("darshan.lib_ver", "")),
        "partial": (job["partial"], "darshan.partial" in details),
    }
    if not words:  # no command line: the record's app comes from the log's name (docs/formats/darshan.md)
        del expected["app"]
    found = [f"{k}: parser {a!r}, ours {b!r}" for k, (a, b) in expected.items() if a != b]
    if abs(float(job["run time"]) - run["wall_time_s"]) > 0.00005 + 1e-12 * abs(run["wall_time_s"]):
        found.append(f"run time: parser {job['run time']}, ours {run['wall_time_s']!r}")
    return found


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[-3])
    darshan_parser, qnm_predict, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
    alike = 0
    for log in logs:
        job, why = parser_job(darshan_parser, log)
        run, ours_why = our_run(qnm_predict, log)
        if job is None:
            verdict = "both refuse" if run is None else "darshan-parser refuses (%s), qnm-predict reads it" % why
            ok = run is None
        elif run is None and float(job["run time"]) == 0 and "without a run time" in ours_why:
            verdict, ok = "darshan-parser prints a run time of 0, refused here (a run of no time)", True
        elif run is None:
            verdict, ok = "qnm-predict refuses: " + ours_why, False
        else:
            found = differences(job, run)
            verdict, ok = ("alike" if not found else "; ".join(found)), not found
        alike += ok
        print(f"{'ok  ' if ok else 'DIFF'} {log}: {verdict}")
    print(f"{alike} of {len(logs)} logs read alike")
    sys.exit(0 if alike == len(logs) else 1)


if __name__ == "__main__":
    main()
