#!/usr/bin/env python3
"""Deterministic corrupted copies of the project's real inputs.

Every case is a folder CASES/<category>/<nnnn>/ holding the damaged input
(and, for OTF2 traces, symbolic links to the undamaged files of the trace)
and case.json: the category, the damage done, the base file and the
qnm-predict arguments that read it ("{case}" = the case folder, "{repo}" =
the source tree). The same seed gives byte-identical cases on every machine.

Usage: generate.py REPO CASES [--seed N] [--scale F] [--every N]
  --scale multiplies the number of cases per category (default 1: 4,207,
  of which 83 are the generated structure, scale, walk, CLI and MVA cases of
  round 4, issue 19);
  --every N writes only every N-th case of each category (the same cases as
  the full set: the damage of the others is drawn but not written).
"""
import argparse
import gzip
import json
import os
import random
import re
import shutil
import struct
import sys
import zlib
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Numbers that a careless or hostile file may hold in place of a real one.
BAD_NUMBERS = ["NaN", "nan", "-nan", "inf", "-inf", "Infinity", "1e309", "-1e309",
               "1e30", "4.5e33", "3e30", "9.2e18", "1e19", "1.8e19", "1e-300", "-1",
               "-0.5", "-1e30", "0", "0.0", "-0", "2147483648", "9223372036854775808",
               "18446744073709551616", "1e15", "0x10", "1,5", "", "12abc"]


NUMBER = re.compile(r"(?<![A-Za-z_0-9.])-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def numbers_in(text):
    """(start, end) of every decimal number in `text` (not digits inside a word)."""
    return [m.span() for m in NUMBER.finditer(text)]


class TextDamage:
    """Damage to a text input; each method returns the new bytes."""

    def __init__(self, rng, data, kind):
        self.rng, self.data, self.kind = rng, data, kind

    def lines(self):
        return self.data.split(b"\n")

    def truncate(self):
        return self.data[:self.rng.randrange(0, max(1, len(self.data)))]

    def bit_flips(self):
        out = bytearray(self.data)
        for _ in range(self.rng.randint(1, 8)):
            if out:
                out[self.rng.randrange(len(out))] ^= 1 << self.rng.randrange(8)
        return bytes(out)

    def delete_line(self):
        lines = self.lines()
        del lines[self.rng.randrange(len(lines))]
        return b"\n".join(lines)

    def duplicate_line(self):
        lines = self.lines()
        k = self.rng.randrange(len(lines))
        lines.insert(k, lines[k])
        return b"\n".join(lines)

    def swap_lines(self):
        lines = self.lines()
        a, b = self.rng.randrange(len(lines)), self.rng.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines)

    def bad_number(self):
        text = self.data.decode("latin-1")
        spans = numbers_in(text)
        if not spans:
            return self.bit_flips()
        start, end = self.rng.choice(spans)
        return (text[:start] + self.rng.choice(BAD_NUMBERS) + text[end:]).encode("latin-1")

    def bad_numbers_everywhere(self):
        """The same bad value in place of every number on one line (a whole run's times)."""
        lines = self.lines()
        candidates = [k for k, l in enumerate(lines) if NUMBER.search(l.decode("latin-1"))]
        if not candidates:
            return self.bad_number()
        k = self.rng.choice(candidates)
        text = lines[k].decode("latin-1")
        value = self.rng.choice(BAD_NUMBERS)
        for start, end in reversed(numbers_in(text)):
            text = text[:start] + value + text[end:]
        lines[k] = text.encode("latin-1")
        return b"\n".join(lines)

    def scale_numbers(self):
        """Every number times 1e30 or 1e-300: finite but absurd values."""
        text = self.data.decode("latin-1")
        factor = self.rng.choice(["e30", "e-300", "e300", "e-30"])
        return NUMBER.sub(lambda m: m.group(0) if "e" in m.group(0).lower() else m.group(0) + factor,
                          text).encode("latin-1")

    def empty(self):
        return b""

    def garbage(self):
        size = self.rng.choice([1, 16, 1024, len(self.data)])
        return self.rng.randbytes(size)

    def insert_garbage(self):
        at = self.rng.randrange(len(self.data) + 1)
        chunk = self.rng.randbytes(self.rng.randint(1, 64))
        return self.data[:at] + chunk + self.data[at:]

    def long_line(self):
        lines = self.lines()
        k = self.rng.randrange(len(lines) + 1)
        filler = self.rng.choice([b"x", b"9", b" ", b"\t", b"1.5 "])
        lines.insert(k, filler * self.rng.choice([100_000, 100_000, 100_000, 1_000_000]))
        return b"\n".join(lines)

    def nul_bytes(self):
        at = self.rng.randrange(len(self.data) + 1)
        return self.data[:at] + b"\0" * self.rng.randint(1, 32) + self.data[at:]

    def crlf(self):
        return self.data.replace(b"\n", b"\r\n")

    # --- JSON only ---
    def deep_json(self):
        depth = self.rng.choice([1_000, 100_000])
        opener = self.rng.choice([b"[", b'{"a":'])
        closer = b"]" if opener == b"[" else b"}"
        return opener * depth + b"1" + closer * depth

    def json_wrong_type(self):
        text = self.data.decode("latin-1")
        spans = numbers_in(text)
        if not spans:
            return self.bit_flips()
        start, end = self.rng.choice(spans)
        value = self.rng.choice(['"3"', "null", "true", "[]", "{}", '"NaN"'])
        return (text[:start] + value + text[end:]).encode("latin-1")

    # --- CSV only ---
    def csv_column_fault(self):
        lines = self.lines()
        rows = [k for k, l in enumerate(lines) if b"," in l]
        if not rows:
            return self.delete_line()
        k = self.rng.choice(rows)
        cells = lines[k].split(b",")
        fault = self.rng.randrange(5)
        if fault == 0:
            del cells[self.rng.randrange(len(cells))]
        elif fault == 1:
            cells.insert(self.rng.randrange(len(cells) + 1), b"7")
        elif fault == 2:
            cells[self.rng.randrange(len(cells))] = b""
        elif fault == 3:
            cells[self.rng.randrange(len(cells))] = b'"unterminated'
        else:
            a, b = self.rng.randrange(len(cells)), self.rng.randrange(len(cells))
            cells[a], cells[b] = cells[b], cells[a]
        lines[k] = b",".join(cells)
        return b"\n".join(lines)

    def methods(self):
        common = [self.truncate, self.bit_flips, self.delete_line, self.duplicate_line,
                  self.swap_lines, self.bad_number, self.bad_number, self.bad_number,
                  self.bad_numbers_everywhere, self.scale_numbers, self.empty, self.garbage,
                  self.insert_garbage, self.long_line, self.nul_bytes, self.crlf]
        if self.kind == "json":
            common += [self.deep_json, self.json_wrong_type, self.json_wrong_type]
        if self.kind == "csv":
            common += [self.csv_column_fault] * 4
        if self.kind == "xml":
            common += [self.bad_number] * 3
        return common


class BinaryDamage:
    """Damage to an OTF2 file (anchor, definitions or events)."""

    def __init__(self, rng, data):
        self.rng, self.data = rng, data

    def truncate(self):
        return self.data[:self.rng.randrange(0, max(1, len(self.data)))]

    def bit_flips(self):
        out = bytearray(self.data)
        for _ in range(self.rng.randint(1, 16)):
            out[self.rng.randrange(len(out))] ^= 1 << self.rng.randrange(8)
        return bytes(out)

    def byte_run(self):
        out = bytearray(self.data)
        at = self.rng.randrange(len(out))
        value = self.rng.choice([0x00, 0xFF, 0x7F, 0x80])
        for k in range(at, min(len(out), at + self.rng.randint(1, 16))):
            out[k] = value
        return bytes(out)

    def big_word(self):
        """A little- or big-endian 64-bit value somewhere: a huge count, size or timestamp."""
        out = bytearray(self.data)
        if len(out) < 8:
            return self.bit_flips()
        at = self.rng.randrange(len(out) - 7)
        value = self.rng.choice([2**63, 2**64 - 1, 2**40, 2**32 + 1, 10**15, 2**62 + 12345])
        out[at:at + 8] = struct.pack(self.rng.choice(["<Q", ">Q"]), value)
        return bytes(out)

    def duplicate_chunk(self):
        a = self.rng.randrange(len(self.data))
        b = min(len(self.data), a + self.rng.randint(1, 256))
        return self.data[:b] + self.data[a:b] + self.data[b:]

    def delete_chunk(self):
        a = self.rng.randrange(len(self.data))
        b = min(len(self.data), a + self.rng.randint(1, 64))
        return self.data[:a] + self.data[b:]

    def empty(self):
        return b""

    def garbage(self):
        return self.rng.randbytes(len(self.data))

    def methods(self):
        return [self.truncate, self.bit_flips, self.bit_flips, self.byte_run, self.big_word,
                self.big_word, self.big_word, self.duplicate_chunk, self.delete_chunk,
                self.empty, self.garbage]


def sorted_files(folder, patterns):
    out = []
    for pattern in patterns:
        out += sorted(Path(folder).glob(pattern))
    return [p for p in out if p.is_file()]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("repo")
    parser.add_argument("cases")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--every", type=int, default=1)
    args = parser.parse_args()
    repo, cases = Path(args.repo).resolve(), Path(args.cases)
    rng = random.Random(args.seed)
    if cases.exists():
        shutil.rmtree(cases)
    data = repo / "tests" / "data"
    seeds = repo / "tests" / "robustness" / "seeds"
    series = repo / "data" / "default-series"
    synthetic = data / "otf2" / "synthetic-patterns-4rank"
    ingest = ["ingest", "--strict", "--quiet", "--format", "csv"]
    predict = ["predict", "--format", "csv", "--procs", "1..64"]

    # category: (base files, kind, cases, argv with {file} = the damaged file, output form)
    text_categories = {
        "mpip": (sorted_files(data / "mpip", ["*.mpiP", "*.mpip"]), "text", 380, ingest + ["{file}"], "csv"),
        "mpip-imbalance": (sorted_files(data / "mpip", ["cenat__*.mpiP", "bitonic__*.mpiP"]), "text", 100,
                           ["imbalance", "--format", "csv", "{file}"], "csv"),
        "npb": (sorted_files(data / "npb", ["*.out"])[::8] + sorted_files(data / "mpip" / "npb-stdout", ["*.dat"]),
                "text", 260, ingest + ["{file}"], "csv"),
        "npb-series": (sorted_files(series, ["*.dat"]), "text", 100, predict + ["{dir}"], "csv"),
        "table-csv": (sorted_files(data / "tables", ["lu_*.csv"]) + sorted_files(data / "npb", ["*.csv"]),
                      "csv", 200, ingest + ["{file}"], "csv"),
        "table-json": (sorted_files(data / "tables", ["bt_mz_cab.json"]), "json", 150, ingest + ["{file}"], "csv"),
        "machine": (sorted_files(repo / "data" / "machines", ["*.json"]), "json", 150,
                    predict + [str(series), "--machine", "{file}"], "csv"),
        "mva-json": (sorted_files(data / "mva-vectors", ["*.json"]), "json", 220,
                     ["mva", "--format", "json", "{file}"], "json"),
        "jmva-xml": (sorted_files(seeds, ["*.jmva"]), "xml", 200, ["mva", "--format", "json", "{file}"], "json"),
        "whatif-config": (sorted_files(seeds, ["*.cfg"]), "text", 150,
                          ["whatif", str(synthetic), "--config", "{file}", "--format", "json"], "json"),
        "reframe-perflog": (sorted_files(data / "reframe" / "layouts", ["rfm*/*.log"]) +
                            sorted_files(data / "reframe" / "excalibur-tests", ["csd3/*/castep/*/*.log"]),
                            "text", 150, ingest + ["{file}"], "csv"),
    }
    count = 0
    for category, (bases, kind, n, argv, output) in text_categories.items():
        n = int(n * args.scale)
        for k in range(n):
            # crc32, not k % len: a slice of every N-th case must not see one base only
            base = bases[zlib.crc32(f"{category}/{k}".encode()) % len(bases)]
            original = base.read_bytes()
            damage = TextDamage(rng, original, kind)
            method = rng.choice(damage.methods())
            damaged = method()
            if k % args.every:
                continue
            # npb-series: the whole series with one run damaged
            siblings = [s for s in sorted(series.iterdir()) if s.name != base.name] if category == "npb-series" else []
            count += write_file_case(cases, category, k, repo, base, damaged, method.__name__, argv, output, siblings)

    # What-if factors on the command line: every bad number for every factor option.
    options = [["--scale-computation", "{v}"], ["--scale-mpi", "{v}"], ["--scale-transfer", "{v}"],
               ["--scale", "main={v}"]]
    for k, (option, value) in enumerate((o, v) for o in options for v in BAD_NUMBERS + ["0.5", "1000"]):
        if k % args.every:
            continue
        folder = cases / "whatif-args" / f"{k:04d}"
        folder.mkdir(parents=True)
        argv = ["whatif", str(synthetic), option[0], option[1].replace("{v}", value), "--format", "json",
                "--no-wait-states"]
        (folder / "case.json").write_text(json.dumps({
            "category": "whatif-args", "damage": "factor " + value, "base": option[0],
            "damaged": option[0], "argv": argv, "output": "json"}, indent=1))
        count += 1

    # OTF2: one file of a real trace damaged, the others linked.
    traces = [data / "otf2" / name for name in ["pipit-ping-pong-otf2", "pipit-ping-pong-otf2-papi",
                                                  "sstelements-emberotf2-test", "synthetic-patterns-4rank",
                                                  "tracer-stencil4d-32"]]
    otf2_categories = {"otf2-anchor": ("traces.otf2", 200), "otf2-def": ("traces.def", 300),
                       "otf2-local-def": ("traces/*.def", 120), "otf2-evt": ("traces/*.evt", 300)}
    for category, (pattern, n) in otf2_categories.items():
        n = int(n * args.scale)
        for k in range(n):
            trace = traces[zlib.crc32(f"{category}/{k}".encode()) % len(traces)]
            choices = sorted(trace.glob(pattern))
            base = choices[rng.randrange(len(choices))]
            damage = BinaryDamage(rng, base.read_bytes())
            method = rng.choice(damage.methods())
            damaged = method()
            if k % args.every:
                continue
            folder = cases / category / f"{k:04d}"
            for source in sorted(trace.rglob("*")):
                if source.is_dir():
                    continue
                destination = folder / source.relative_to(trace)
                destination.parent.mkdir(parents=True, exist_ok=True)
                if source == base:
                    destination.write_bytes(damaged)
                else:
                    os.symlink(source, destination)
            command = ["trace", "analyze", "--format", "json"] if k % 3 else ["trace", "stats", "--format", "json"]
            (folder / "case.json").write_text(json.dumps({
                "category": category, "damage": method.__name__, "base": str(base.relative_to(repo)),
                "damaged": str(folder / base.relative_to(trace)), "argv": command + [str(folder)],
                "output": "json"}, indent=1))
            count += 1
    # Round 3: the CUBE4 and Extra-P readers (issue 11: "every new reader gets
    # the corrupted-file treatment the others have"). Appended after the OTF2
    # cases so that every earlier case stays byte-identical for the same seed.
    extrap = data / "extrap"
    late_text = {
        "extrap-text": ([extrap / "input.txt"], "text", 120),
        "extrap-json": ([extrap / "json_example.json", extrap / "jsonl_example.jsonl"], "json", 120),
    }
    for category, (bases, kind, n) in late_text.items():
        for k in range(int(n * args.scale)):
            base = bases[zlib.crc32(f"{category}/{k}".encode()) % len(bases)]
            damage = TextDamage(rng, base.read_bytes(), kind)
            method = rng.choice(damage.methods())
            damaged = method()
            if k % args.every:
                continue
            count += write_file_case(cases, category, k, repo, base, damaged, method.__name__, ingest + ["{file}"])
    cubes = sorted_files(data / "cube", ["*/*.cubex"])
    for k in range(int(150 * args.scale)):  # bytes of the archive: headers, compressed data, anchor
        base = cubes[zlib.crc32(f"cube-bytes/{k}".encode()) % len(cubes)]
        damage = BinaryDamage(rng, base.read_bytes())
        method = rng.choice(damage.methods())
        damaged = method()
        if k % args.every:
            continue
        count += write_file_case(cases, "cube-bytes", k, repo, base, damaged, method.__name__, ingest + ["{file}"])
    # The XML anchor damaged as text, the tar rebuilt around it (not the cube
    # with the Cube 4.8 tar-checksum bug: Python's tarfile refuses it).
    readable = [c for c in cubes if "checksum_bug" not in c.name]
    for k in range(int(150 * args.scale)):
        base = readable[zlib.crc32(f"cube-anchor/{k}".encode()) % len(readable)]
        members = read_tar(base)
        anchor = next(name for name, _, _ in members if name == "anchor.xml")
        damage = TextDamage(rng, dict((n, b) for n, _, b in members)[anchor], "xml")
        method = rng.choice(damage.methods())
        damaged_anchor = method()
        if k % args.every:
            continue
        damaged = write_tar([(n, info, damaged_anchor if n == anchor else b) for n, info, b in members])
        count += write_file_case(cases, "cube-anchor", k, repo, base, damaged, method.__name__, ingest + ["{file}"])
    count += round4_cases(cases, repo, rng, args, ingest, predict)
    count += compressed_cases(cases, repo, rng, args, ingest)
    count += tau_cases(cases, repo, rng, args, ingest)
    ipm_logs = sorted_files(repo / "tests" / "data" / "ipm", ["*.ipm.xml"])
    for k in range(int(100 * args.scale)):  # IPM XML logs (round 18), appended last
        base, damaged, name = drawn_text_damage(rng, ipm_logs, "ipm", k, "xml")
        if k % args.every:
            continue
        count += write_file_case(cases, "ipm", k, repo, base, damaged, name, ingest + ["{file}"])
    count += zip_cases(cases, repo, rng, args, ingest)
    count += hpctoolkit_cases(cases, repo, rng, args, ingest)
    count += hpctoolkit4_cases(cases, repo, rng, args, ingest)
    ipm_banners = sorted_files(repo / "tests" / "data" / "ipm", ["*.out", "*.ipm_parse.txt"])
    for k in range(int(80 * args.scale)):  # IPM banners read as runs (round 20), appended last
        base, damaged, name = drawn_text_damage(rng, ipm_banners, "ipm-banner", k, "text")
        if k % args.every:
            continue
        count += write_file_case(cases, "ipm-banner", k, repo, base, damaged, name, ingest + ["{file}"])
    caliper = sorted_files(repo / "tests" / "data" / "caliper", ["*/*.cali", "ring/*/*.cali"])
    for k in range(int(120 * args.scale)):  # Caliper .cali profiles (round 21), appended last
        base, damaged, name = drawn_text_damage(rng, caliper, "caliper", k, "text")
        if k % args.every:
            continue
        count += write_file_case(cases, "caliper", k, repo, base, damaged, name, ingest + ["{file}"])
    caliper_json = sorted_files(repo / "tests" / "data" / "caliper", ["ring/json-split/*.json", "json-split/thicket-*.json"])
    for k in range(int(60 * args.scale)):  # Caliper json-split profiles (round 21), appended last
        base, damaged, name = drawn_text_damage(rng, caliper_json, "caliper-json", k, "json")
        if k % args.every:
            continue
        count += write_file_case(cases, "caliper-json", k, repo, base, damaged, name, ingest + ["{file}"])
    count += paraver_cases(cases, repo, rng, args, ingest)
    count += paraver_cases(cases, repo, rng, args, ["efficiency", "--format", "csv"], category="paraver-efficiency",
                           n=60, partner=True)
    # Applications' own logs, appended last, each read by `ingest`: LAMMPS (app_outputs/lammps_log.h,
    # round 25), VASP OUTCARs and CASTEP outputs (app_outputs/vasp_outcar.h, castep_output.h, round 26:
    # the one file of each kept plain), GROMACS md.log files (app_outputs/gromacs_log.h, round 26) and
    # OpenFOAM solver logs (app_outputs/openfoam_log.h: the one job output kept plain) and CP2K outputs
    # (app_outputs/cp2k_output.h: the H2O-64 run kept plain) and PETSc -log_view summaries (app_outputs/petsc_log.h),
    # NAMD logs (app_outputs/namd_log.h), Slurm accounting tables and PBS job records (job_records/slurm_accounting.h,
    # pbs_job_status.h, round 28), CrayPat reports (profiles/craypat_report.h).
    for category, folder, patterns, n in (("lammps", "lammps", ["log.*"], 100), ("vasp", "vasp", ["*.OUTCAR"], 60),
                                          ("castep", "castep", ["*.castep"], 60),
                                          ("gromacs", "gromacs", ["*/*.log"], 100),
                                          ("openfoam", "openfoam", ["*/*.out"], 60), ("cp2k", "cp2k", ["*/*.out"], 60),
                                          ("petsc", "petsc", ["*/*.log"], 60),
                                          ("namd", "namd", ["*/*.testlog", "*/*.log"], 60),
                                          ("lulesh", "lulesh", ["*.out"], 40),  # app_outputs/lulesh_output.h, round 29
                                          ("slurm", "slurm", ["qnmtest-sacct-[Pp].txt", "qnmtest-sacct-table.txt"], 60),
                                          ("pbs", "pbs", ["*.txt"], 40),
                                          ("abinit", "abinit", ["*/*.abo", "*/*/*.abo"], 60),
                                          ("wrf", "wrf", ["*/em_real/rsl.error.0000"], 60),  # app_outputs/wrf_rsl.h
                                          ("craypat", "craypat", ["*/*.report", "*/*.pat", "*/*.out"], 60),
                                          ("nwchem", "nwchem", ["qa/*.out", "*/*/*.out"], 60)):
        count += application_log_cases(cases, repo, rng, args, ingest, category, folder, patterns, n)
    count += application_log_cases(cases, repo, rng, args, ingest, "qe", "qe", ["*/*.ref", "*/benchmark.out*"], 60)  # app_outputs/qe_output.h
    count += application_log_cases(cases, repo, rng, args, ingest, "amber", "amber",  # app_outputs/amber_mdout.h
                                   ["*/*.out", "*/*/*.save", "*/*/*/*.out", "*/*/*.sander"], 60)
    count += slurm_json_cases(cases, repo, rng, args, ingest)
    # CloverLeaf and TeaLeaf outputs (app_outputs/cloverleaf_output.h), round 30, appended last.
    count += application_log_cases(cases, repo, rng, args, ingest, "cloverleaf", "cloverleaf", ["*.out"], 40)
    # mpitrace profiles (profiles/mpitrace_profile.h), round 30: rank 0's file damaged alone.
    count += application_log_cases(cases, repo, rng, args, ingest, "mpitrace", "mpitrace", ["*/mpi_profile.*.0"], 40)
    # HPL outputs (app_outputs/hpl_output.h), round 30.
    count += application_log_cases(cases, repo, rng, args, ingest, "hpl", "hpl", ["*.out"], 40)
    # CoMD outputs and YAML (app_outputs/comd_output.h), round 30.
    count += application_log_cases(cases, repo, rng, args, ingest, "comd", "comd", ["*/comd.out", "*/*.yaml"], 40)
    # miniFE YAML documents and a job log printing them (app_outputs/minife_output.h), round 31.
    count += application_log_cases(cases, repo, rng, args, ingest, "minife", "minife", ["*/*.yaml", "*/*.out"], 40)
    # Kripke outputs (app_outputs/kripke_output.h), round 31.
    count += application_log_cases(cases, repo, rng, args, ingest, "kripke", "kripke", ["*/*/*.out"], 40)
    # Laghos outputs (app_outputs/laghos_output.h), round 31.
    count += application_log_cases(cases, repo, rng, args, ingest, "laghos", "laghos", ["*/*/*.out"], 40)
    # AMG outputs, one run or a job's log of several (app_outputs/amg_output.h), round 31.
    count += application_log_cases(cases, repo, rng, args, ingest, "amg", "amg", ["*/amg.out", "*/*.log"], 40)
    # Quicksilver outputs (app_outputs/quicksilver_output.h), round 31.
    count += application_log_cases(cases, repo, rng, args, ingest, "quicksilver", "quicksilver", ["*/*.out"], 40)
    # Micro-benchmark outputs read into a machine profile (microbench/), round 32: HPC Challenge's
    # hpccoutf.txt (new), and the OSU and IMB outputs whose dispatch it changed.
    profile = ["profile", "--name", "damaged"]
    count += application_log_cases(cases, repo, rng, args, profile, "hpcc", "hpcc", ["*.txt"], 40, "json")
    count += application_log_cases(cases, repo, rng, args, profile, "osu", "osu", ["*.log", "*.txt"], 20, "json")
    count += application_log_cases(cases, repo, rng, args, profile, "imb", "imb", ["*.txt"], 20, "json")
    # Flux job records in jobs' outputs (job_records/flux_job_record.h), round 34, appended last: the cloud study's
    # mt-gemm outputs (the record is the run) and LAMMPS outputs (the record adds nodes), damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "flux", "flux", ["*/*/*.out", "*/*.out"], 60)
    # ... and `flux jobs --json` listings (job_records/flux_jobs_listing.h), round 34, appended last.
    count += application_log_cases(cases, repo, rng, args, ingest, "flux-jobs", "flux", ["jobs-listing/*.json"], 40)
    # Any program's output read by --pattern (app_outputs/pattern_output.h), round 35, appended last: PENNANT's
    # outputs (the repository's samples and the runs made here, the short ones), damaged as text.
    pennant = ["--pattern", r"time=hydro cycle run time=\s*(\S+)", "--pattern", r"procs=Running on (\d+) MPI PE",
               "--pattern", r"threads=Running on (\d+) thread", "--pattern", r"class=^Zones:\s+(\d+)"]
    count += application_log_cases(cases, repo, rng, args, ingest + pennant, "patterns", "pennant",
                                   ["sedovbig-c300/*.out", "sample_outputs/*/leblancbig*.out",
                                    "sample_outputs/*/nohpoly*.out", "sample_outputs/vulcan/sedovflat.out"], 60)
    # ... and a program's own MPI time and messages by --pattern with reductions, round 36, appended last:
    # miniAMR's two outputs made here, damaged as text.
    miniamr = ["--pattern", r"time=^Summary: .* time (\S+)", "--pattern", r"procs=^Summary: ranks (\d+)",
               "--pattern", r"mpi_time:first=^\s+Wait time\s+:\s*(\S+)",
               "--pattern", r"messages:first=^\s+Messages sent\s+:\s*(\S+)",
               "--pattern", r"bytes:sum=^\s+Bytes sent\s+:\s*(\S+)"]
    count += application_log_cases(cases, repo, rng, args, ingest + miniamr, "patterns-mpi", "miniamr", ["*.out"], 40)
    # HPCG reports (app_outputs/hpcg_output.h), round 37, appended last: the 3.1 key=value and 3.0 YAML
    # layouts, Intel's builds, the Arm fork's reports and a job's output printing one, damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "hpcg", "hpcg",
                                   ["*.txt", "*.yaml", "intel/*", "strong/f*.txt"], 40)
    # Intel APS reports (profiles/intel_aps_report.cpp), round 37, appended last: the two layouts written in
    # tests/data/aps, damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "aps", "aps", ["*.txt"], 40)
    # AMReX programs' outputs (app_outputs/amrex_output.h), round 44, appended last, damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "amrex", "amrex-output", ["*.out"], 40)
    # Tables in Markdown and Org documents (tables/document_tables.h), round 44, appended last: the report and
    # the notebook of tests/data/document-tables, damaged as text, each under its own name (.md, .org).
    count += application_log_cases(cases, repo, rng, args, ingest, "documents", "document-tables",
                                   ["shallow-water-*"], 40)
    # Nalu-Wind logs (app_outputs/nalu_log.h), round 45, appended last: the three logs of
    # tests/data/nalu-wind-log, damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "nalu", "nalu-wind-log", ["*.log"], 40)
    # FMS timing tables (app_outputs/fms_clocks.h), round 45, appended last: access-profiling's two readable
    # test inputs in tests/data/fms-clocks, damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "fms", "fms-clocks", ["*.stdout"], 40)
    # ESMF profile summaries (app_outputs/esmf_profile.h), round 45, appended last: access-profiling's two
    # readable test inputs in tests/data/esmf-profile, damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "esmf", "esmf-profile",
                                   ["ESMF_Profile.summary", "duplicate-region/*"], 40)
    # The Unified Model's timer output (app_outputs/um_timers.h), round 45, appended last: access-profiling's
    # UM 7 log, its end-of-run block and a whole log, damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "um", "um-timers",
                                   ["um7-*.fort6", "um7-run/*"], 40)
    # Darshan logs (profiles/darshan_log.h), round 46, appended last: the real logs of tests/data/darshan, their
    # head (the header and the job region, all the reader reads) damaged as bytes.
    count += darshan_cases(cases, repo, rng, args, ingest)
    # JUBE result tables (tables/jube_result.h), round 46, appended last: `jube result`'s printout of
    # tests/data/jube, damaged as text (read by its "<name>:" line and pipe table, wherever it lies).
    count += application_log_cases(cases, repo, rng, args, ingest, "jube", "jube", ["jube-result.txt"], 40)
    # hyperfine exports and reports of time (timing_tools/), round 47, appended last: the real JSON and CSV
    # exports of tests/data/hyperfine and the real outputs of tests/data/time-report, damaged as text under
    # their own names (a name's np4 is a report's process count).
    count += application_log_cases(cases, repo, rng, args, ingest, "hyperfine", "hyperfine",
                                   ["scan/*.json", "sizes/*.json", "csv-only/*.csv", "failed/*.json"], 40)
    count += application_log_cases(cases, repo, rng, args, ingest, "time-report", "time-report",
                                   ["bash/*", "gnu-verbose/*", "gnu/*", "zsh/*", "tcsh/*", "loop/*", "posix/*"], 40)
    # hyperfine's Markdown, Org and AsciiDoc exports (timing_tools/hyperfine_export.h), round 48, appended last:
    # the real exports of tests/data/hyperfine/markup, damaged as text under their own names.
    count += application_log_cases(cases, repo, rng, args, ingest, "hyperfine-markup", "hyperfine",
                                   ["markup/*"], 40)
    # fish's report of time (timing_tools/time_report.h), round 48, appended last.
    count += application_log_cases(cases, repo, rng, args, ingest, "time-report-fish", "time-report", ["fish/*"], 20)
    # ONETEP outputs (app_outputs/onetep_output.h), round 48, appended last: the tutorials' two outputs, damaged.
    count += application_log_cases(cases, repo, rng, args, ingest, "onetep", "onetep", ["*.out"], 40)
    # LSF job reports (job_records/lsf_job_output.h), round 48, appended last: tests/data/lsf, damaged as text.
    count += application_log_cases(cases, repo, rng, args, ingest, "lsf", "lsf", ["*.out"], 40)
    print(f"{count} cases in {cases}")


def darshan_cases(cases, repo, rng, args, ingest, n=60):
    """Darshan logs: one of tests/data/darshan's real logs with its first 8 KB (the header and the compressed job
    region) cut, flipped or overwritten as bytes, the module records after it kept."""
    logs = sorted_files(repo / "tests" / "data" / "darshan", ["*.darshan"])
    count = 0
    for k in range(int(n * args.scale)):
        base = rng.choice(logs)
        data = base.read_bytes()
        damage = BinaryDamage(rng, data[:8192])
        method = rng.choice(damage.methods())
        damaged = method() + (data[8192:] if method.__name__ != "truncate" else b"")
        if k % args.every:
            continue
        count += write_file_case(cases, "darshan", k, repo, base, damaged, method.__name__, ingest + ["{file}"])
    return count


def slurm_json_cases(cases, repo, rng, args, ingest, n=60):
    """sacct --json (job_records/slurm_accounting_json.h), round 29, appended last: Slurm 22.05.8's real
    record of the test campaign, unpacked, damaged as text, and gzipped again as the file it was."""
    base = repo / "tests" / "data" / "slurm" / "qnmtest-sacct-json.json.gz"
    text = gzip.decompress(base.read_bytes())
    count = 0
    for k in range(int(n * args.scale)):
        damage = TextDamage(rng, text, "text")
        method = rng.choice(damage.methods())
        damaged = method()
        if k % args.every:
            continue
        count += write_file_case(cases, "slurm-json", k, repo, base, gzip.compress(damaged, mtime=0), method.__name__,
                                 ingest + ["{file}"])
    return count


def application_log_cases(cases, repo, rng, args, ingest, category, folder, patterns, n, output="csv"):
    """n cases of one application's logs in tests/data/<folder>: a real log, cut or flipped as text,
    read by `ingest` + the file (any command printing `output`)."""
    logs = sorted_files(repo / "tests" / "data" / folder, patterns)
    count = 0
    for k in range(int(n * args.scale)):
        base, damaged, name = drawn_text_damage(rng, logs, category, k, "text")
        if k % args.every:
            continue
        count += write_file_case(cases, category, k, repo, base, damaged, name, ingest + ["{file}"], output)
    return count


def paraver_cases(cases, repo, rng, args, command, category="paraver", n=100, partner=False):
    """Paraver traces (paraver/paraver_trace.h), round 22, appended last: one of pypop's two smallest
    EPOCH traces, unpacked, damaged as text beside its .pcf and .row (three cases in four), or its
    .pcf or .row damaged beside the trace (one in four). Round 23, category paraver-efficiency: the
    same damage read by `qnm-predict efficiency` (POP's factors, hardware counters included), with
    the other trace undamaged beside it (`partner`), so the damaged run is part of a series."""
    import gzip
    folder = repo / "tests" / "data" / "paraver" / "epoch"
    stems = [folder / "epoch_1proc", folder / "epoch_2proc"]
    count = 0
    for k in range(int(n * args.scale)):
        stem = stems[zlib.crc32(f"{category}/{k}".encode()) % len(stems)]
        name = stem.name
        pcf, row, trace = (stem.with_suffix(".pcf"), stem.with_suffix(".row"), Path(str(stem) + ".prv.gz"))
        which = rng.choice(["prv", "prv", "prv", "pcf" if k % 2 else "row"])
        data = gzip.decompress(trace.read_bytes()) if which == "prv" else (pcf if which == "pcf" else row).read_bytes()
        damage = TextDamage(rng, data, "text")
        method = rng.choice(damage.methods())
        damaged = method()
        if k % args.every:
            continue
        run = cases / category / f"{k:04d}" / "traces"
        run.mkdir(parents=True)
        target = run / (name + "." + which)
        target.write_bytes(damaged)
        for part in ([pcf, row] if which == "prv" else [trace, row if which == "pcf" else pcf]):
            os.symlink(part, run / part.name)
        if partner:
            other = stems[1] if stem == stems[0] else stems[0]
            for suffix in [".prv.gz", ".pcf", ".row"]:
                os.symlink(Path(str(other) + suffix), run / (other.name + suffix))
        (run.parent / "case.json").write_text(json.dumps({
            "category": category, "damage": f"{which}:{method.__name__}", "base": str(trace.relative_to(repo)),
            "damaged": str(target), "argv": command + [str(run)], "output": "csv"}, indent=1))
        count += 1
    return count


def hpctoolkit4_cases(cases, repo, rng, args, ingest):
    """HPCToolkit databases of format 4 (hpctoolkit/hpctoolkit_v4_database.h), round 20: in a copy of
    Hatchet's cpi database, meta.db's (half the cases) or profile.db's bytes damaged; the other
    files linked. Appended last: earlier cases unchanged."""
    database = repo / "tests" / "data" / "hpctoolkit" / "hatchet-cpi-v4-database"
    files = sorted(p for p in database.iterdir() if p.is_file())
    count = 0
    for k in range(int(80 * args.scale)):
        base = database / ("meta.db" if k % 2 else "profile.db")
        count += damaged_folder_case(cases, "hpctoolkit4", k, repo, rng, args, database, files, base,
                                     BinaryDamage(rng, base.read_bytes()), ingest)
    return count


def damaged_folder_case(cases, category, k, repo, rng, args, folder, files, base, damage, ingest):
    """One of `damage`'s methods drawn and applied to `base`, written as the run folder case k of
    `category` (every args.every-th k; the draw is made for every k, so --every keeps the cases)."""
    method = rng.choice(damage.methods())
    damaged = method()
    if k % args.every:
        return 0
    return write_run_folder_case(cases, category, k, repo, folder.name, files, base, damaged, method.__name__, ingest)


def hpctoolkit_cases(cases, repo, rng, args, ingest):
    """HPCToolkit databases (hpctoolkit/hpctoolkit_database.h), round 19: in a copy of one of Hatchet's
    two databases, experiment.xml damaged as XML (half the cases) or one metric-db file's bytes
    damaged; the other files linked. Appended last: earlier cases unchanged."""
    databases = sorted(p for p in (repo / "tests" / "data" / "hpctoolkit").iterdir()
                       if (p / "experiment.xml").is_file())
    count = 0
    for k in range(int(80 * args.scale)):
        database = databases[zlib.crc32(f"hpctoolkit/{k}".encode()) % len(databases)]
        files = sorted(p for p in database.iterdir() if p.is_file())
        if k % 2:
            base = database / "experiment.xml"
            damage = TextDamage(rng, base.read_bytes(), "xml")
        else:
            dbs = [p for p in files if p.name.endswith(".metric-db")]
            base = dbs[zlib.crc32(f"hpctoolkit-db/{k}".encode()) % len(dbs)]
            damage = BinaryDamage(rng, base.read_bytes())
        count += damaged_folder_case(cases, "hpctoolkit", k, repo, rng, args, database, files, base, damage, ingest)
    return count


def zip_cases(cases, repo, rng, args, ingest):
    """Zip archives of runs (ingest/run_archive.h), round 19: the zip's bytes damaged (half the
    cases: local headers, deflate streams, the central directory), or one member's text damaged
    and the zip written again with the same names. Appended last: earlier cases unchanged."""
    import io
    import zipfile
    archives = repo / "tests" / "data" / "compressed" / "archives"
    bases = [archives / "campaign.zip", archives / "trace-and-profile.zip"]
    count = 0
    for k in range(int(80 * args.scale)):
        base = bases[zlib.crc32(f"zip/{k}".encode()) % len(bases)]
        original = base.read_bytes()
        if k % 2:
            with zipfile.ZipFile(io.BytesIO(original)) as z:
                members = [(info, z.read(info)) for info in z.infolist()]
            texts = [i for i, (info, _) in enumerate(members)
                     if not info.filename.endswith((".evt", ".def", ".cubex", ".otf2"))]
            victim = texts[zlib.crc32(f"zip-member/{k}".encode()) % len(texts)]
            damage = TextDamage(rng, members[victim][1], "text")
            method = rng.choice(damage.methods())
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w") as z:
                for i, (info, data) in enumerate(members):
                    z.writestr(info, method() if i == victim else data)
            damaged, name = out.getvalue(), f"member {members[victim][0].filename} {method.__name__}"
        else:
            damage = BinaryDamage(rng, original)
            method = rng.choice(damage.methods())
            damaged, name = method(), "bytes " + method.__name__
        if k % args.every:
            continue
        # The trace-and-profile zip holds files that are no runs (a MANIFEST.md, scorep.cfg): read
        # without --strict, which would refuse the first of them whatever the damage.
        argv = ingest + ["{file}"] if base.name == "campaign.zip" else [a for a in ingest if a != "--strict"] + ["{file}"]
        count += write_file_case(cases, "zip", k, repo, base, damaged, name, argv)
    return count


def drawn_text_damage(rng, bases, category, k, kind):
    """(base, damaged bytes, damage name) of case k: the base chosen by crc32, not k % len,
    so a slice of every N-th case sees every base."""
    base = bases[zlib.crc32(f"{category}/{k}".encode()) % len(bases)]
    damage = TextDamage(rng, base.read_bytes(), kind)
    method = rng.choice(damage.methods())
    return base, method(), method.__name__


def tau_cases(cases, repo, rng, args, ingest):
    """TAU profile folders (profiles/tau_profile.h), round 18: one rank's profile
    of Hatchet's 4-rank cpi run damaged, the other ranks linked. Appended last."""
    folder = repo / "tests" / "data" / "tau" / "hatchet-tau-cpi-mpi"
    profiles = sorted(folder.glob("profile.*"))
    count = 0
    for k in range(int(100 * args.scale)):
        base, damaged, name = drawn_text_damage(rng, profiles, "tau", k, "text")
        if k % args.every:
            continue
        count += write_run_folder_case(cases, "tau", k, repo, "profiles", profiles, base, damaged, name, ingest)
    return count


def compressed_cases(cases, repo, rng, args, ingest):
    """Files compressed as a whole (textio/compressed_file.h), round 18: the
    compressed bytes damaged (half the cases), or the text they hold damaged and
    compressed again with gzip under the same name (the magic bytes, not the
    name, say how a file is compressed). Appended last: earlier cases unchanged."""
    import gzip
    import lzma
    import bz2
    compressed = repo / "tests" / "data" / "compressed"
    bases = (sorted_files(compressed / "per-run", ["*/*.gz", "*/*.xz", "*/*.bz2", "*/*.zst", "*/*.lz4"]) +
             sorted_files(compressed / "extrap", ["*.gz"]))
    openers = {".gz": gzip.decompress, ".xz": lzma.decompress, ".bz2": bz2.decompress}
    count = 0
    for k in range(int(120 * args.scale)):
        base = bases[zlib.crc32(f"compressed/{k}".encode()) % len(bases)]
        original = base.read_bytes()
        unpack = openers.get(base.suffix)
        if k % 2 and unpack:
            damage = TextDamage(rng, unpack(original), "text")
            method = rng.choice(damage.methods())
            damaged, name = gzip.compress(method(), mtime=0), "text " + method.__name__
        else:
            damage = BinaryDamage(rng, original)
            method = rng.choice(damage.methods())
            damaged, name = method(), "bytes " + method.__name__
        if k % args.every:
            continue
        count += write_file_case(cases, "compressed", k, repo, base, damaged, name, ingest + ["{file}"])
    return count


def walk_runs_folder(folder, series):
    """FOLDER/runs holding links to the first six runs of `series`: valid runs to walk beside the damage."""
    runs = folder / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    for source in sorted(series.iterdir())[:6]:
        os.symlink(source, runs / source.name)
    return runs


def make_over_long_path(folder):
    """Nested folders under `folder` until the path is longer than the system allows."""
    deep = folder
    for _ in range(400):
        try:
            deep = deep / "dddddddddd"
            os.mkdir(deep)
        except OSError:
            break


def write_argv_case(cases, category, k, damage, damaged, argv, output="csv", max_memory_mb=None):
    """Case CASES/<category>/<k> made by `make(folder)`-style callers: case.json only."""
    folder = cases / category / f"{k:04d}"
    folder.mkdir(parents=True, exist_ok=True)
    case = {"category": category, "damage": damage, "base": "(generated)", "damaged": damaged,
            "argv": argv, "output": output}
    if max_memory_mb:
        case["max_memory_mb"] = max_memory_mb
    (folder / "case.json").write_text(json.dumps(case, indent=1))
    return 1


def round4_cases(cases, repo, rng, args, ingest, predict):
    """Round 4 (issue 19): structure, scale, outputs and CLI misuse, each case
    generated from scratch (not a damaged copy), with a memory limit where the
    campaign found runs over 2 GB. Appended last: earlier cases stay identical."""
    import cube_structure as C
    count = 0
    data = repo / "tests" / "data"
    series = repo / "data" / "default-series"
    synthetic = data / "otf2" / "synthetic-patterns-4rank"
    mpip = sorted_files(data / "mpip", ["*.mpiP"])[0]

    def case_file(category, k, name, payload, argv, damage, output="csv", max_memory_mb=1024, named=None):
        folder = cases / category / f"{k:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / name
        target.write_bytes(payload if isinstance(payload, bytes) else payload.encode())
        full = [a.replace("{file}", str(target)).replace("{dir}", str(folder)) for a in argv]
        return write_argv_case(cases, category, k, damage, named or str(target), full, output, max_memory_mb)

    # CUBE structure: valid archives whose trees, indexes and declared sizes are hostile.
    structures = [
        ("deep chain", lambda r: C.profile(r.choice([2000, 20000, 50000]), 1, chain=True, gz=True)),
        ("sparse index listing nothing", lambda r: C.profile(
            r.choice([1000, 20000]), r.choice([20000, 100000]), gz=True, time_positions=[], time_values=[])),
        ("sparse position listed twice", lambda r: C.profile(
            6, 4, time_positions=[0, 0] + list(range(1, 5)), time_values=[1.0] * 24)),
        ("absurd stored time", lambda r: C.profile(
            6, 4, leaf_time_s=r.choice([1e300, 1e15, 5e-324, 1e-300, 0.0, -0.0]))),
        ("byte-swapped endianness mark", lambda r: C.profile(6, 4, time_endian=0x01000000)),
        ("integer visits declared DOUBLE", lambda r: C.profile(6, 4, visits_dtype="DOUBLE")),
        ("empty process groups", lambda r: C.profile(8, 1, groups=r.choice([1000, 200000]), gz=True)),
        ("anchor of millions of elements", lambda r: C.profile(
            6, 4, gz=True, extra_anchor=b"<a/>" * r.choice([3_000_000, 6_000_000]))),
    ]
    for k in range(int(40 * args.scale)):
        damage, make = structures[k % len(structures)]
        payload = make(rng)
        if k % args.every:
            continue
        count += case_file("cube-structure", k, "profile.cubex", payload, ingest + ["{file}"], damage)

    # Extra-P: parts larger than the whole, and scale (100,000 points must stay linear).
    for k in range(int(12 * args.scale)):
        part = ["main->MPI", "main->compute"][k % 2]
        factor = rng.choice([2.0, 40.0, 1e4])
        points = [4, 8, 16, 32, 64]
        text = "PARAMETER p\nPOINTS " + " ".join(f"({p})" for p in points) + "\n\nREGION main\n"
        text += "".join(f"DATA {100.0 / p:.6g}\n" for p in points) + f"REGION {part}\n"
        text += "".join(f"DATA {factor * 100.0 / p:.6g}\n" for p in points)
        if k % args.every:
            continue
        count += case_file("extrap-parts", k, "parts.txt", text, ingest + ["{file}"], f"{part} x{factor}")
    for k in range(int(2 * args.scale)):
        n = [100000, 50000][k % 2]
        text = "PARAMETER p\nPOINTS " + " ".join(f"({p})" for p in range(1, n + 1)) + "\nREGION main\n"
        text += "".join(f"DATA {100.0 / p + 1:.9g}\n" for p in range(1, n + 1))
        if k % args.every:
            continue
        count += case_file("scale", k, f"extrap-{n}-points.txt", text, ingest + ["{file}"], f"Extra-P {n} points")
    for k in range(2, 2 + int(2 * args.scale)):
        n = [100000, 30000][k % 2]
        text = "series,procs,time_s\n" + "".join(f"s,{p},{100.0 / p + 0.001 * p:.6g}\n" for p in range(1, n + 1))
        if k % args.every:
            continue
        argv = ingest + ["{file}"] if k % 2 == 0 else ["predict", "--format", "csv", "--procs", "1..64", "{file}"]
        count += case_file("scale", k, f"series-{n}P.csv", text, argv, f"one series x {n} P")

    # Walking a folder: a huge sparse file and an over-long path beside valid runs (not --strict).
    for k in range(int(4 * args.scale)):
        kind = ["sparse 3 GB core", "sparse 1 TB .csv", "over-long path", "sparse 40 GB .mpiP"][k % 4]
        if k % args.every:
            continue
        folder = cases / "walk" / f"{k:04d}"
        runs = walk_runs_folder(folder, series)
        if kind == "over-long path":
            make_over_long_path(runs)
        else:
            name, size = {"sparse 3 GB core": ("core", 3 << 30), "sparse 1 TB .csv": ("tera.csv", 1 << 40),
                          "sparse 40 GB .mpiP": ("big.mpiP", 40 << 30)}[kind]
            with open(runs / name, "wb") as f:
                f.truncate(size)
        argv = ["ingest", "--quiet", "--format", "csv", str(runs)]
        count += write_argv_case(cases, "walk", k, kind, str(runs), argv, "csv", 1024)

    # Empty option values: refused by every command, naming the option.
    empties = [
        (["whatif", str(synthetic), "--scale-computation", ""], "--scale-computation"),
        (["whatif", str(synthetic), "--scale-mpi", ""], "--scale-mpi"),
        (["whatif", str(synthetic), "--scale-transfer", ""], "--scale-transfer"),
        (["whatif", str(synthetic), "--scale-computation", "0.5", "--write-trace", ""], "--write-trace"),
        (["whatif", str(synthetic), "--config", ""], "--config"),
        (["trace", "analyze", str(synthetic), "--cube", ""], "--cube"),
        (["imbalance", str(mpip), "--threshold", ""], "--threshold"),
        (["efficiency", str(series), "--format", ""], "--format"),
        (["predict", str(series), "--procs", ""], "--procs"),
        (["predict", str(series), "--machine", ""], "--machine"),
        (["ingest", str(series), "-o", ""], "--output"),
        (["mva", str(data / "mva-vectors" / "balanced_K4_N100_exact.json"), "--tolerance", ""],
         "--tolerance"),
        (["predict", ""], "RUNS"),
    ]
    for k, (argv, option) in enumerate(empties):
        if k % args.every:
            continue
        count += write_argv_case(cases, "cli-empty", k, "empty " + option, option, argv, "json")

    # MVA: tolerances out of range and multi-server stations on the Schweitzer path.
    tolerances = ["1e6", "1e9", "0.5", "0.1", "0", "-1e-9", "nan", "2147483648"]
    for k, tolerance in enumerate(tolerances):
        if k % args.every:
            continue
        network = {"classes": [{"name": "jobs", "population": 50}],
                   "stations": [{"name": "cpu", "type": "queue", "demands": [0.01]},
                                {"name": "disk", "type": "queue", "demands": [0.02]}]}
        count += case_file("mva-numeric", k, "net.json", json.dumps(network),
                           ["mva", "--algorithm", "schweitzer", "--tolerance", tolerance, "--format", "json",
                            "{file}"], "tolerance " + tolerance, "json", named="--tolerance")
    for k, population in enumerate([100000, 300000, 1000000], start=len(tolerances)):
        if k % args.every:
            continue
        network = {"classes": [{"name": "jobs", "population": population, "think_time": 1.0}],
                   "stations": [{"name": "cpu", "type": "multi_server", "servers": 64, "demands": [0.01]},
                                {"name": "disk", "type": "queue", "demands": [0.001]}]}
        count += case_file("mva-numeric", k, "net.json", json.dumps(network),
                           ["mva", "--format", "json", "{file}"], f"multi-server N={population}", "json")
    return count


def write_file_case(cases, category, k, repo, base, damaged, damage_name, argv, output="csv", siblings=()):
    """Case CASES/<category>/<k>: the damaged copy of `base`, symbolic links to
    `siblings`, and case.json with {file} and {dir} of `argv` filled in; returns 1."""
    folder = cases / category / f"{k:04d}"
    folder.mkdir(parents=True)
    for sibling in siblings:
        os.symlink(sibling, folder / sibling.name)
    target = folder / base.name
    target.write_bytes(damaged)
    case_argv = [a.replace("{file}", str(target)).replace("{dir}", str(folder)) for a in argv]
    (folder / "case.json").write_text(json.dumps({
        "category": category, "damage": damage_name, "base": str(base.relative_to(repo)),
        "damaged": str(target), "argv": case_argv, "output": output}, indent=1))
    return 1


def write_run_folder_case(cases, category, k, repo, folder_name, files, base, damaged, damage_name, ingest):
    """Case CASES/<category>/<k>: a run folder `folder_name` (inside the case folder: case.json beside
    it is no file of the run) holding the damaged copy of `base` and symbolic links to the other
    `files` of the run, read by `ingest` + the folder; returns 1."""
    run = cases / category / f"{k:04d}" / folder_name
    run.mkdir(parents=True)
    for sibling in files:
        if sibling != base:
            os.symlink(sibling, run / sibling.name)
    (run / base.name).write_bytes(damaged)
    (run.parent / "case.json").write_text(json.dumps({
        "category": category, "damage": damage_name, "base": str(base.relative_to(repo)),
        "damaged": str(run / base.name), "argv": ingest + [str(run)], "output": "csv"}, indent=1))
    return 1


def read_tar(path):
    """[(name, TarInfo, bytes)] of every regular member, in archive order."""
    import tarfile
    out = []
    with tarfile.open(path, "r:") as tar:
        for info in tar.getmembers():
            if info.isfile():
                out.append((info.name, info, tar.extractfile(info).read()))
    return out


def write_tar(members):
    """A ustar archive of (name, TarInfo, bytes), deterministic: the original headers' fields."""
    import io
    import tarfile
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:", format=tarfile.USTAR_FORMAT) as tar:
        for name, info, data in members:
            copy = tarfile.TarInfo(name)
            copy.size, copy.mtime, copy.mode = len(data), info.mtime, info.mode
            copy.uid, copy.gid, copy.uname, copy.gname = info.uid, info.gid, info.uname, info.gname
            tar.addfile(copy, io.BytesIO(data))
    return buffer.getvalue()


if __name__ == "__main__":
    main()
