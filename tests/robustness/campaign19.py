#!/usr/bin/env python3
"""The categories of issue 19's campaign, drawn afresh from a seed.

Where generate.py keeps round 4's 83 cases byte-identical, this script draws
every case of issue 19's categories from its own seed - shapes, sizes,
numbers, options and folder contents - so that a new seed is a new campaign:
CUBE4 structure (random trees, sparse indexes, declared sizes, absurd and
byte-swapped values) and CUBE4 profiles whose declared tables exceed 2^24
values; Extra-P parts larger than the whole, 10^5-10^6 repetitions and
number syntax; statistics tables of random shape up to 20 MB (memory per
record); folder walks beside huge sparse files, over-long paths, FIFOs and
link loops; output destinations beside the user's own files (which must be
kept byte for byte); empty option values; MVA numeric edges; and scale.

Every case runs under run.py with a 1 GiB address-space limit where the
input is under 20 MB (`max_memory_mb`) and records its peak RSS; `keep`
lists files that must be unchanged afterwards (a deleted or changed user
file is a silent wrong result).

Usage: campaign19.py REPO CASES [--seed N] [--every N]
"""
import argparse
import json
import os
import random
import shutil
import struct
import sys
import zlib
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cube_structure as C  # noqa: E402
import cube_structure_fuzz as F  # noqa: E402
from generate import make_over_long_path, walk_runs_folder  # noqa: E402

INGEST = ["ingest", "--strict", "--quiet", "--format", "csv"]
PREDICT = ["predict", "--format", "csv", "--procs", "1..64"]


class Campaign:
    def __init__(self, repo, cases, rng, every):
        self.repo, self.cases, self.rng, self.every = repo, cases, rng, every
        self.count = 0
        self.k = {}

    def folder(self, category):
        """The next case folder of `category`, or None when --every skips it
        (the case is still drawn, so the others stay the same)."""
        k = self.k.get(category, 0)
        self.k[category] = k + 1
        if k % self.every:
            return None
        folder = self.cases / category / f"{k:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def write(self, folder, category, damage, argv, named, output="csv", memory_mb=1024, keep=None):
        if folder is None:
            return
        case = {"category": category, "damage": damage, "base": "(generated)", "damaged": str(named),
                "argv": [str(a) for a in argv], "output": output}
        if memory_mb:  # peak RSS checked by run.py; the address space may reach twice that
            case["max_memory_mb"] = memory_mb
            case["max_address_mb"] = 2 * memory_mb
        if keep:
            case["keep"] = keep
        (folder / "case.json").write_text(json.dumps(case, indent=1))
        self.count += 1

    def file_case(self, category, name, payload, argv, damage, output="csv", memory_mb=1024):
        folder = self.folder(category)
        if folder is None:
            return
        target = folder / name
        target.write_bytes(payload if isinstance(payload, bytes) else payload.encode())
        full = [a.replace("{file}", str(target)).replace("{dir}", str(folder)) for a in argv]
        self.write(folder, category, damage, full, target, output, memory_mb)


# ---- CUBE4 -------------------------------------------------------------------

def big_cube(rng, mpi_paths, compute_paths, locations):
    """A valid profile whose declared table (call paths x locations) is large
    but whose index lists only the root and the MPI call paths: the reader
    keeps those rows only (cube/cube_memory_budget.h)."""
    regions = [("main", "user", "artificial"), ("MPI_Send", "mpi", "point2point"),
               ("compute", "user", "function"), ("MPI_Allreduce", "mpi", "other collective")]
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<cube version="4.4">\n<attr key="Creator" value="campaign19"/>\n'
           '<metrics>\n<metric id="0" type="EXCLUSIVE"><uniq_name>visits</uniq_name><dtype>UINT64</dtype></metric>\n'
           '<metric id="1" type="INCLUSIVE"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype></metric>\n</metrics>\n'
           '<program>\n']
    for k, (name, paradigm, role) in enumerate(regions):
        out.append(f'<region id="{k}"><name>{name}</name><paradigm>{paradigm}</paradigm><role>{role}</role></region>\n')
    out.append('<cnode id="0" calleeId="0">')
    mpi_nodes = []
    for n in range(1, 1 + mpi_paths + compute_paths):
        is_mpi = n <= mpi_paths
        out.append(f'<cnode id="{n}" calleeId="{(1 if n % 2 else 3) if is_mpi else 2}"/>')
        if is_mpi:
            mpi_nodes.append(n)
    out.append("</cnode>\n</program>\n<system>\n<systemtreenode Id=\"0\"><name>m</name><class>machine</class>\n")
    for g in range(locations):
        out.append(f'<locationgroup Id="{g}"><name>r</name><rank>{g}</rank><type>process</type>'
                   f'<location Id="{g}"><name>t</name><rank>0</rank><type>thread</type></location></locationgroup>\n')
    out.append("</systemtreenode>\n</system>\n</cube>\n")
    # Inclusive time in wide order: the root, then its children (position = node).
    root = [10.0 + rng.random() for _ in range(locations)]
    mpi = [[0.01 + 0.01 * rng.random() for _ in range(locations)] for _ in mpi_nodes]
    time_values = root + [v for row in mpi for v in row]
    visits = [float(rng.randrange(1, 1000)) for _ in range(len(mpi_nodes) * locations)]
    members = {"anchor.xml": "".join(out).encode(),
               "0.index": C.index(mpi_nodes), "0.data": C.data([int(v) for v in visits], "<Q"),
               "1.index": C.index([0] + mpi_nodes), "1.data": C.data(time_values)}
    return C.tar_bytes(members, gz=rng.random() < 0.5)


def cube_cases(c, n_structure, n_large):
    for _ in range(n_structure):
        kw, what = F.draw(c.rng)
        try:
            payload = C.profile(**kw)
        except (OverflowError, ValueError, struct.error):
            payload = C.profile(6, 4)
            what = "valid (drawn shape not encodable)"
        c.file_case("cube-structure", "profile.cubex", payload, INGEST + ["{file}"],
                    f"{what}; {kw.get('cnodes')} x {kw.get('locations')}")
    for _ in range(n_large):
        mpi = c.rng.choice([2, 4, 8])
        locations = c.rng.choice([20000, 50000, 100000])
        compute = (1 << 24) // locations + c.rng.randrange(10, 400)
        payload = big_cube(c.rng, mpi, compute, locations)
        declared = (1 + mpi + compute) * locations
        c.file_case("cube-large", "profile.cubex", payload, INGEST + ["{file}"],
                    f"{1 + mpi + compute} call paths x {locations} locations = {declared} declared values, "
                    f"{(1 + mpi) * locations} kept")


# ---- Extra-P -----------------------------------------------------------------

def extrap_cases(c, n_parts, n_reps, n_numbers):
    for _ in range(n_parts):
        part = c.rng.choice(["main->MPI", "main->compute"])
        factor = c.rng.choice([1.5, 3.0, 40.0, 1e3, 1e5])
        points = sorted(c.rng.sample([2, 4, 8, 16, 32, 64, 128], c.rng.randrange(3, 7)))
        base = c.rng.uniform(10, 1000)
        text = "PARAMETER p\nPOINTS " + " ".join(f"({p})" for p in points) + "\n\nREGION main\n"
        text += "".join(f"DATA {base / p:.6g}\n" for p in points) + f"REGION {part}\n"
        text += "".join(f"DATA {factor * base / p:.6g}\n" for p in points)
        c.file_case("extrap-parts", "parts.txt", text, INGEST + ["{file}"], f"{part} x{factor}")
    for _ in range(n_reps):
        reps = c.rng.choice([100000, 300000, 1000000])
        points = c.rng.choice([1, 2, 4])
        text = "PARAMETER p\nPOINTS " + " ".join(f"({4 << i})" for i in range(points)) + "\n\nREGION main\n"
        for i in range(points):
            value = 100.0 / (4 << i)
            text += "DATA " + " ".join(f"{value * (1 + 0.01 * ((j * 7919) % 13)):.5g}" for j in range(reps // points))
            text += "\n"
        argv = INGEST + ["{file}"] if c.rng.random() < 0.5 else PREDICT + ["{file}"]
        c.file_case("extrap-repetitions", "reps.txt", text, argv,
                    f"{reps} repetitions over {points} points ({len(text) >> 20} MB), {argv[0]}")
    bad = ["12abc", "0x10", "1e", "--1", "1.2.3", "١٢", "1_000", "+inf", "0x1p3", "1e5000", "", "NaN"]
    for _ in range(n_numbers):
        number = c.rng.choice(bad)
        where = c.rng.choice(["point", "value"])
        points = ["4", "8", "16"]
        values = ["25.1", "12.7", "6.4"]
        (points if where == "point" else values)[c.rng.randrange(3)] = number
        text = ("PARAMETER p\nPOINTS " + " ".join(f"({p})" for p in points) + "\n\nREGION main\n" +
                "".join(f"DATA {v}\n" for v in values))
        c.file_case("extrap-numbers", "numbers.txt", text, INGEST + ["{file}"], f"{where} '{number}'")


# ---- statistics tables (memory per record) -----------------------------------

def table_cases(c, n):
    for _ in range(n):
        shape = c.rng.choice(["many series", "one long series", "repetitions", "wide columns"])
        limit = c.rng.choice([2, 8, 16, 19]) << 20
        rows = []
        size = len("series,procs,time_s\n")
        header = "series,procs,time_s\n"
        if shape == "wide columns":
            header = "series,procs,time_s,mpi_time_s,app_time_s,messages,bytes,machine\n"
        s = 0
        while size < limit:
            if shape == "many series":
                line = [f"s{s // 100}", str(1 + s % 100)]
            elif shape == "one long series":
                line = ["long", str(1 + s)]
            elif shape == "repetitions":
                line = [f"r{s % 7}", str(1 << (s % 10))]
            else:
                line = [f"w{s // 50}", str(1 + s % 50)]
            procs = int(line[1])
            time_s = (100.0 + s % 37) / procs + 0.001 * procs
            line.append(f"{time_s:.6g}")
            if shape == "wide columns":
                line += [f"{0.3 * time_s:.6g}", f"{time_s:.6g}", str(100 + s % 9), str(4096 * (1 + s % 5)), "cluster-a"]
            text = ",".join(line) + "\n"
            rows.append(text)
            size += len(text)
            s += 1
        payload = header + "".join(rows)
        command = c.rng.choice(["ingest", "predict", "predict --series", "validate"])
        if command == "ingest":
            argv = INGEST + ["{file}"]
        elif command == "predict":
            argv = PREDICT + ["{file}"]
        elif command == "predict --series":
            argv = PREDICT + ["--series", "1", "{file}"]  # ambiguous: refused naming --series
        else:
            argv = ["validate", "--format", "csv", "{file}"]
        folder = c.folder("table-memory")
        if folder is None:
            continue
        target = folder / "table.csv"
        target.write_text(payload)
        full = [a.replace("{file}", str(target)) for a in argv]
        # "--series 1" matches many names: the one-line refusal names the option, not the file.
        c.write(folder, "table-memory", f"{shape}, {len(rows)} rows, {len(payload) / 1e6:.1f} MB, {command}", full,
                "--series" if command == "predict --series" else target)


# ---- walking a folder --------------------------------------------------------

def walk_cases(c, series, n):
    for _ in range(n):
        folder = c.folder("walk")
        kinds = c.rng.sample(["sparse core", "sparse csv", "sparse mpiP", "long path", "fifo", "link loop",
                              "unreadable", "empty files", "binary junk"], c.rng.randrange(1, 4))
        if folder is None:
            for _ in kinds:
                c.rng.random()
            continue
        runs = walk_runs_folder(folder, series)
        for kind in kinds:
            size = c.rng.choice([70 << 20, 3 << 30, 1 << 40])
            if kind.startswith("sparse"):
                name = {"sparse core": "core", "sparse csv": "big.csv", "sparse mpiP": "big.mpiP"}[kind]
                with open(runs / name, "wb") as f:
                    f.truncate(size)
            elif kind == "long path":
                make_over_long_path(runs)
            elif kind == "fifo":
                os.mkfifo(runs / "pipe.csv")
            elif kind == "link loop":
                os.symlink("loop-b", runs / "loop-a")
                os.symlink("loop-a", runs / "loop-b")
            elif kind == "unreadable":
                (runs / "secret.mpiP").write_text("@ mpiP\n")
                os.chmod(runs / "secret.mpiP", 0)
            elif kind == "empty files":
                for k in range(c.rng.randrange(1, 50)):
                    (runs / f"empty{k}.csv").write_bytes(b"")
            else:
                (runs / "junk.dat").write_bytes(bytes(c.rng.randrange(256) for _ in range(4096)))
        c.write(folder, "walk", "+".join(kinds), ["ingest", "--quiet", "--format", "csv", str(runs)], runs)


# ---- output destinations -----------------------------------------------------

def output_cases(c, series, synthetic, n):
    for _ in range(n):
        kind = c.rng.choice(["tmp lookalikes", "write-trace over user folder", "same file twice",
                             "output over input", "output is a folder", "symlinked output", "token lookalike"])
        folder = c.folder("outputs")
        pid = c.rng.randrange(2, 4_000_000)
        token = "".join(c.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(12))
        if folder is None:
            continue
        keep = {}

        def user_file(path, text):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            keep[str(path)] = text

        out = folder / "out.csv"
        argv = PREDICT + [str(series), "-o", str(out)]
        named = out
        if kind == "tmp lookalikes":
            for name in [f"out.csv.tmp.{pid}", "out.csv.tmp.99999", f"out.csv.tmp.{pid}.x"]:
                user_file(folder / name, f"precious {name}")
        elif kind == "token lookalike":
            user_file(folder / f"out.csv.tmp.{pid}.{token}", "precious: named like our temporaries")
        elif kind == "write-trace over user folder":
            target = folder / "whatif"
            user_file(target / "traces" / "notes.txt", "my notes")
            argv = ["whatif", str(synthetic), "--scale-computation", "0.5", "--no-wait-states", "--format", "json",
                    "--write-trace", str(target)]
            named = target
        elif kind == "same file twice":
            user_file(folder / "keep.txt", "mine")
            argv = ["trace", "analyze", str(synthetic), "--format", "json", "-o", str(out), "--cube", str(out)]
        elif kind == "output over input":
            table = folder / "input.csv"
            user_file(table, "series,procs,time_s\na,1,10\na,2,5.2\na,4,2.8\n")
            argv = PREDICT + [str(table), "-o", str(table)]
            named = table
        elif kind == "output is a folder":
            (folder / "outdir").mkdir()
            user_file(folder / "outdir" / "x.csv", "mine")
            argv = PREDICT + [str(series), "-o", str(folder / "outdir")]
            named = folder / "outdir"
        else:
            user_file(folder / "real.csv", "old output")
            os.symlink("real.csv", out)
            keep.pop(str(folder / "real.csv"))  # replaced through the link: that is asked for
        c.write(folder, "outputs", kind, argv, named, "json" if argv[0] in ("whatif", "trace") else "csv",
                keep=keep)


# ---- CLI misuse and numbers --------------------------------------------------

def cli_cases(c, repo, series, synthetic, n_empty, n_mva):
    data = repo / "tests" / "data"
    mpip = sorted((data / "mpip").glob("*.mpiP"))[0]
    model = data / "mva-vectors" / "balanced_K4_N100_exact.json"
    empties = [
        ["whatif", synthetic, "--scale-computation", ""], ["whatif", synthetic, "--scale-mpi", ""],
        ["whatif", synthetic, "--scale-transfer", ""], ["whatif", synthetic, "--config", ""],
        ["whatif", synthetic, "--scale-computation", "0.5", "--write-trace", ""],
        ["trace", "analyze", synthetic, "--cube", ""], ["trace", "analyze", synthetic, "-o", ""],
        ["imbalance", mpip, "--threshold", ""], ["predict", series, "--procs", ""],
        ["predict", series, "--machine", ""], ["predict", series, "--series", ""], ["ingest", series, "-o", ""],
        ["mva", model, "--tolerance", ""], ["predict", ""], ["ingest", ""], ["validate", ""],
        ["predict", series, "--parameter", ""], ["plot", series, "-o", ""],
    ]
    for _ in range(n_empty):
        argv = c.rng.choice(empties)
        empty_at = argv.index("")
        option = argv[empty_at - 1] if empty_at > 1 and str(argv[empty_at - 1]).startswith("-") else "RUNS"
        folder = c.folder("cli-empty")
        # An empty input path is named by its positional ("RUNS", "paths"): the message is the match.
        named = option if option != "RUNS" else "an empty value is not accepted"
        c.write(folder, "cli-empty", "empty " + option, argv, named, "json")
    for _ in range(n_mva):
        folder = c.folder("mva-numeric")
        if c.rng.random() < 0.5:
            tolerance = c.rng.choice(["1e6", "1e3", "0.5", "0.1", "0", "-1e-9", "nan", "inf", "1e-400", "2147483648",
                                      "0x10", "12abc"])
            network = {"classes": [{"name": "jobs", "population": c.rng.choice([5, 50, 500])}],
                       "stations": [{"name": "cpu", "type": "queue", "demands": [c.rng.uniform(0.001, 0.1)]},
                                    {"name": "disk", "type": "queue", "demands": [c.rng.uniform(0.001, 0.1)]}]}
            damage = "tolerance " + tolerance
            argv_tail = ["--algorithm", "schweitzer", "--tolerance", tolerance]
            named = "--tolerance"
        else:
            population = c.rng.choice([10000, 100000, 250000, 1000000, 5000000])
            servers = c.rng.choice([2, 16, 64, 256])
            network = {"classes": [{"name": "jobs", "population": population, "think_time": c.rng.uniform(0.1, 10)}],
                       "stations": [{"name": "cpu", "type": "multi_server", "servers": servers,
                                     "demands": [c.rng.uniform(0.001, 0.05)]},
                                    {"name": "disk", "type": "queue", "demands": [c.rng.uniform(0.0001, 0.002)]}]}
            damage = f"multi-server x{servers} N={population}"
            argv_tail = []
            named = "net.json"
        if folder is None:
            continue
        path = folder / "net.json"
        path.write_text(json.dumps(network))
        fmt = c.rng.choice(["json", "table", "jmva"])
        c.write(folder, "mva-numeric", damage + " --format " + fmt,
                ["mva"] + argv_tail + ["--format", fmt, path], named if named != "net.json" else path,
                "json" if fmt == "json" else "text")


# ---- scale -------------------------------------------------------------------

def scale_cases(c, n):
    for _ in range(n):
        kind = c.rng.choice(["one series", "many series"])
        if kind == "one series":
            procs = c.rng.choice([30000, 60000, 100000])
            text = "series,procs,time_s\n" + "".join(f"s,{p},{100.0 / p + 0.001 * p:.6g}\n" for p in range(1, procs + 1))
            argv = c.rng.choice([INGEST, PREDICT]) + ["{file}"]
            damage = f"one series x {procs} P, {argv[0]}"
        else:
            series = c.rng.choice([2000, 5000, 10000])
            text = "series,procs,time_s\n" + "".join(
                f"s{s},{p},{(50.0 + s % 17) / p + 0.01 * p:.6g}\n" for s in range(series) for p in range(1, 11))
            argv = ["validate", "--format", "csv", "{file}"]
            damage = f"{series} series x 10 P, validate"
        c.file_case("scale", "scale.csv", text, argv, damage)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("cases")
    parser.add_argument("--seed", type=int, default=1925)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies the cases per category")
    args = parser.parse_args()
    repo, cases = Path(args.repo).resolve(), Path(args.cases)
    if cases.exists():
        for root, dirs, _ in os.walk(cases):  # unreadable cases from an earlier run
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        shutil.rmtree(cases)
    rng = random.Random(args.seed)
    c = Campaign(repo, cases, rng, args.every)
    series = repo / "data" / "default-series"
    synthetic = repo / "tests" / "data" / "otf2" / "synthetic-patterns-4rank"

    def n(k):
        return max(1, int(k * args.scale))
    cube_cases(c, n(120), n(12))
    extrap_cases(c, n(30), n(12), n(24))
    table_cases(c, n(24))
    walk_cases(c, series, n(20))
    output_cases(c, series, synthetic, n(28))
    cli_cases(c, repo, series, synthetic, n(36), n(30))
    scale_cases(c, n(10))
    print(f"{c.count} cases in {cases} (seed {args.seed})")


if __name__ == "__main__":
    main()
