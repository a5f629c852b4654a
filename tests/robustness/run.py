#!/usr/bin/env python3
"""Runs qnm-predict on every generated case and classifies the outcome.

Outcomes:
  clean      non-zero exit, exactly one stderr line, naming the damaged file
             (or its trace folder)
  success    exit 0 and an output with no NaN, inf, negative or absurd number
  unclean    non-zero exit, but not one line naming the file
  nonsense   exit 0 with NaN/inf, a negative value where none can be, or an
             absurd magnitude (> 1e12 or below 1e-100 and not 0) in the output
  crash      killed by a signal, or a sanitizer report on stderr
  hang       more than the timeout of CPU time (or blocked for 20x as long)
  memory     ran out of the address-space limit (std::bad_alloc), or (Release
             build) a peak RSS above the case's max_memory_mb
A case's "keep" (path -> text) lists user files that must be unchanged after
the run: one deleted or changed is "nonsense" (silent data loss). Every
outcome line of --report carries the run's peak RSS (wait4), in MB.

Usage: run.py QNM CASES [--every N] [--timeout S] [--jobs J] [--report FILE]
                        [--allow OUTCOME ...]
Exits 1 if any case has an outcome other than clean/success (or --allow'ed).
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

SANITIZER = re.compile(r"runtime error:|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer")
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|nan|infinity)(?![\w.])",
                    re.IGNORECASE)
# Output fields that may be negative: differences and signed changes.
SIGNED_KEYS = re.compile(r"gain|change|delta|diff|error|residual|slope|intercept|log|correlation|exponent",
                         re.IGNORECASE)
# Output fields that hold text, even when the text looks like a number.
TEXT_KEYS = re.compile(r"^(series|app|class|size|machine|allocation|verification|version|source|run|name)$",
                       re.IGNORECASE)
# Output fields that hold counts of bytes or events, which may be large.
LARGE_KEYS = re.compile(r"bytes|count|events|messages|calls|ticks|resolution|records|size", re.IGNORECASE)
ABSURD_LARGE, ABSURD_SMALL = 1e12, 1e-100


def absurd(value, key=""):
    if math.isnan(value) or math.isinf(value):
        return "non-finite"
    if value < 0 and not SIGNED_KEYS.search(key):
        return "negative"
    if abs(value) > ABSURD_LARGE and not LARGE_KEYS.search(key):
        return "absurd magnitude"
    if value != 0 and abs(value) < ABSURD_SMALL:
        return "absurd magnitude"
    return None


def check_json(text):
    def constant(name):
        raise ValueError(name)
    try:
        doc = json.loads(text, parse_constant=constant)
    except ValueError as error:
        if "NaN" in str(error) or "Infinity" in str(error):
            return f"non-finite ({error})"
        return check_text(text)  # not JSON (a table or a message)

    def walk(node, key):
        if isinstance(node, dict):
            for k, v in node.items():
                found = walk(v, k)
                if found:
                    return found
        elif isinstance(node, list):
            for v in node:
                found = walk(v, key)
                if found:
                    return found
        elif isinstance(node, float) or (isinstance(node, int) and not isinstance(node, bool)):
            why = absurd(float(node), key)
            if why:
                return f"{why}: {key}={node}"
        elif isinstance(node, str) and re.fullmatch(r"-?(nan|inf|infinity)", node, re.IGNORECASE):
            return f"non-finite: {key}={node}"
        return None
    return walk(doc, "")


def check_csv(text):
    lines = text.splitlines()
    if not lines:
        return None
    header = lines[0].split(",")
    for line in lines[1:]:
        for k, cell in enumerate(line.split(",")):
            key = header[k] if k < len(header) else ""
            cell = cell.strip().strip('"')
            if NUMBER.fullmatch(cell) and not TEXT_KEYS.match(key):
                why = absurd(float(cell), key)
                if why:
                    return f"{why}: {key}={cell}"
    return None


def check_text(text):
    for match in NUMBER.finditer(text):
        value = float(match.group(0))
        if math.isnan(value) or math.isinf(value):
            return f"non-finite: {match.group(0)}"
    return None


def limits(cpu_seconds, sanitized, memory_mb=None, address_mb=None):
    """CPU time, not wall time, decides a hang: on a shared, loaded machine a
    run of 0.3 s of CPU can take 10 s of wall time. ASan reserves terabytes of
    address space, so only the Release build gets the 6 GB address limit, or
    the case's own max_address_mb, else max_memory_mb (round 4: a memory
    test per reader; campaign19.py sets 2 GiB of address space and checks
    1 GB of resident memory)."""
    address_bytes = (address_mb or memory_mb or 6 << 10) << 20
    def apply():
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_seconds), int(cpu_seconds) + 1))
        if not sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (address_bytes, address_bytes))
    return apply


class Finished:
    """What a run left: exit code (negative = signal), output, peak RSS."""

    def __init__(self, returncode, stdout, stderr, rss_mb):
        self.returncode, self.stdout, self.stderr, self.rss_mb = returncode, stdout, stderr, rss_mb


def run_measured(argv, wall_limit, preexec, env):
    """Runs `argv` with stdout/stderr in files and waits with wait4, so that
    the peak RSS is this run's own (getrusage of all children mixes parallel
    runs). Raises subprocess.TimeoutExpired after `wall_limit` seconds."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, preexec_fn=preexec, env=env)
        timed_out = threading.Event()

        def stop():
            timed_out.set()
            proc.kill()
        timer = threading.Timer(wall_limit, stop)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        if timed_out.is_set():
            raise subprocess.TimeoutExpired(argv, wall_limit)
        out.seek(0)
        err.seek(0)
        return Finished(proc.returncode, out.read(), err.read(), usage.ru_maxrss / 1024.0)


def changed_user_files(case):
    """The files of case["keep"] (path -> text) that are gone or changed."""
    lost = []
    for path, text in case.get("keep", {}).items():
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                if f.read() != text:
                    lost.append(path + " changed")
        except OSError:
            lost.append(path + " deleted")
    return lost


def run_case(qnm, case_dir, timeout, sanitized):
    case = json.loads((case_dir / "case.json").read_text())
    argv = [qnm] + case["argv"]
    env = dict(os.environ, QNM_DATA_DIR=os.environ.get("QNM_DATA_DIR", ""))
    if not env["QNM_DATA_DIR"]:
        del env["QNM_DATA_DIR"]
    started = time.monotonic()
    try:
        proc = run_measured(argv, max(20 * timeout, 300), limits(timeout, sanitized, case.get("max_memory_mb"), case.get("max_address_mb")), env)
    except subprocess.TimeoutExpired:  # blocked without using CPU (e.g. reading a FIFO)
        return case, "hang", f"no exit within {max(20 * timeout, 300)} s of wall time", time.monotonic() - started
    seconds = time.monotonic() - started
    case["rss_mb"] = round(proc.rss_mb, 1)
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    lost = changed_user_files(case)
    if lost:  # a user's file deleted or changed: silent data loss, whatever the exit
        return case, "nonsense", "user file " + "; ".join(lost)[:280], seconds
    # A Release run's resident memory above the case's limit (ASan's shadow memory is not the program's).
    if not sanitized and case.get("max_memory_mb") and proc.rss_mb > case["max_memory_mb"]:
        return case, "memory", f"peak RSS {proc.rss_mb:.0f} MB over {case['max_memory_mb']} MB", seconds
    err_lines = [l for l in err.split("\n") if l.strip()]
    if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL) and not SANITIZER.search(err):
        return case, "hang", f"more than {timeout} s of CPU time", seconds
    if proc.returncode < 0 or SANITIZER.search(err):
        first = next((l for l in err_lines if SANITIZER.search(l)), f"signal {-proc.returncode}")
        return case, "crash", first[:300], seconds
    if "bad_alloc" in err or "cannot allocate memory" in err.lower():
        return case, "memory", err_lines[-1][:300] if err_lines else "", seconds
    if proc.returncode != 0:
        damaged = case["damaged"]
        names = {damaged, str(case_dir), os.path.basename(damaged)}
        if len(err_lines) == 1 and any(name in err_lines[0] for name in names):
            return case, "clean", err_lines[0][:300], seconds
        return case, "unclean", " | ".join(err_lines)[:300] or f"exit {proc.returncode}, no message", seconds
    why = check_json(out) if case["output"] == "json" else check_csv(out)
    if why:
        return case, "nonsense", why[:300], seconds
    return case, "success", "", seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("qnm")
    parser.add_argument("cases")
    parser.add_argument("--every", type=int, default=1, help="run every N-th case of each category")
    parser.add_argument("--timeout", type=float, default=10.0, help="CPU seconds before a run is a hang")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--report", help="write every case's outcome here (JSON lines)")
    parser.add_argument("--sanitized", action="store_true", help="ASan build: no address-space limit")
    parser.add_argument("--allow", nargs="*", default=[], help="outcomes that do not fail the run")
    parser.add_argument("--known", help="file of 'category/case outcome reason' lines that do not fail the run")
    args = parser.parse_args()
    cases = []
    for category in sorted(Path(args.cases).iterdir()):
        if category.is_dir():
            cases += sorted(p for p in category.iterdir() if (p / "case.json").exists())[::args.every]
    known = {}
    if args.known:
        for line in open(args.known):
            if line.strip() and not line.startswith("#"):
                case_id, outcome, _ = line.split("\t") if "\t" in line else line.split(maxsplit=2)
                known[case_id] = outcome
    table = defaultdict(Counter)
    bad = []
    known_seen = 0
    report = open(args.report, "w") if args.report else None
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_case, args.qnm, c, args.timeout, args.sanitized) for c in cases]
        for case_dir, future in zip(cases, futures):
            case, outcome, detail, seconds = future.result()
            table[case["category"]][outcome] += 1
            record = {"case": str(case_dir), "category": case["category"], "damage": case["damage"],
                      "outcome": outcome, "detail": detail, "seconds": round(seconds, 3),
                      "rss_mb": case.get("rss_mb")}
            if report:  # one line per case as it ends, so a stopped campaign keeps what it measured
                report.write(json.dumps(record) + "\n")
                report.flush()
            case_id = f"{case_dir.parent.name}/{case_dir.name}"
            if case_id not in known:  # or by damage: "whatif-args:factor 12abc"
                case_id = f"{case['category']}:{case['damage']}"
            if case_id in known:
                if known[case_id] == outcome:
                    known_seen += 1
                    continue
                print(f"note: known case {case_id} ({known[case_id]}) now ends {outcome}", file=sys.stderr)
            if outcome not in ("clean", "success") and outcome not in args.allow:
                bad.append(record)
    if report:
        report.close()
    outcomes = ["clean", "success", "unclean", "nonsense", "crash", "hang", "memory"]
    print("| category | cases | " + " | ".join(outcomes) + " |")
    print("|---|---:|" + "---:|" * len(outcomes))
    total = Counter()
    for category in sorted(table):
        row = table[category]
        total.update(row)
        print(f"| {category} | {sum(row.values())} | " + " | ".join(str(row[o]) for o in outcomes) + " |")
    print(f"| **all** | {sum(total.values())} | " + " | ".join(str(total[o]) for o in outcomes) + " |")
    for record in bad[:40]:
        print(f"{record['outcome']}: {record['case']} ({record['damage']}): {record['detail']}", file=sys.stderr)
    if len(bad) > 40:
        print(f"... and {len(bad) - 40} more", file=sys.stderr)
    if known_seen:
        print(f"{known_seen} known outcomes (see --known file) not counted as failures")
    print(f"{sum(total.values()) - len(bad)} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
