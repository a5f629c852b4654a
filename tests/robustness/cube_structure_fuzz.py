#!/usr/bin/env python3
"""Random structure-aware CUBE4 profiles (cube_structure.py) through
`qnm-predict ingest --strict` under an address-space limit, for a time budget.

Each draw picks a shape (chain or flat tree, depth/width, locations, process
groups), sparse or dense indexes with random, repeated or out-of-range
positions, declared sizes beyond the data, stored times from the absurd to
the normal, byte order marks and value types. An outcome other than exit 0
with a plausible CSV or exit 1 with one stderr line naming the file is
printed and counted.

Usage: cube_structure_fuzz.py QNM SECONDS [--seed N] [--memory-mb M]
"""
import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cube_structure as C  # noqa: E402
from run import check_csv  # noqa: E402


def draw(rng):
    chain = rng.random() < 0.4
    cnodes = rng.choice([2, 3, 6, 50, 1000, 20000, 60000]) if chain else rng.choice([2, 6, 50, 500, 5000])
    locations = rng.choice([1, 2, 4, 16, 200, 5000, 100000])
    if cnodes * locations > 3_000_000:  # keep the file itself small: declared-only then
        return dict(cnodes=cnodes, locations=min(locations, 100000), chain=chain, gz=True,
                    time_positions=[], time_values=[]), "declared only"
    kw = dict(cnodes=cnodes, locations=locations, chain=chain, gz=rng.random() < 0.5)
    what = []
    r = rng.random()
    if r < 0.15:
        kw["leaf_time_s"] = rng.choice([1e300, 1e15, 1e8, 5e-324, 1e-300, 1e-7, 0.0, -0.0, -1.0, float("inf")])
        what.append(f"leaf {kw['leaf_time_s']}")
    elif r < 0.3:
        n = rng.randrange(0, cnodes + 2)
        positions = [rng.randrange(0, cnodes + 1) for _ in range(n)]
        kw["time_positions"] = positions
        kw["time_values"] = [rng.choice([0.5, 1.0, 2.0]) for _ in range(len(positions) * locations)]
        what.append(f"sparse {len(positions)} rows")
    if rng.random() < 0.1:
        kw["time_endian"] = rng.choice([0x01000000, 2, 0])
        what.append("endian mark")
    if rng.random() < 0.1:
        kw["visits_dtype"] = rng.choice(["DOUBLE", "INT8", "FLOAT", "UINT32", "BOGUS"])
        what.append("visits dtype " + kw["visits_dtype"])
    if rng.random() < 0.1:
        kw["groups"] = rng.choice([0, 1, locations + 1000])
        what.append(f"groups {kw['groups']}")
    return kw, ", ".join(what) or "valid"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("qnm")
    parser.add_argument("seconds", type=float)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--memory-mb", type=int, default=1024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    limit = args.memory_mb << 20
    counts, bad = {}, 0
    end = time.monotonic() + args.seconds
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "profile.cubex")
        while time.monotonic() < end:
            kw, what = draw(rng)
            try:
                payload = C.profile(**kw)
            except (OverflowError, ValueError, struct_error()):
                continue
            with open(path, "wb") as f:
                f.write(payload)
            proc = subprocess.run([args.qnm, "ingest", "--strict", "-q", "--format", "csv", path],
                                  capture_output=True, timeout=120,
                                  preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
            err = [l for l in proc.stderr.decode("utf-8", "replace").splitlines() if l.strip()]
            if proc.returncode == 0:
                why = check_csv(proc.stdout.decode("utf-8", "replace"))
                outcome = "nonsense: " + why if why else "success"
            elif proc.returncode == 1 and len(err) == 1 and path in err[0] and "bad_alloc" not in err[0]:
                outcome = "clean"
            else:
                outcome = f"unclean/crash (exit {proc.returncode}): " + " | ".join(err)[:200]
            key = outcome.split(":")[0]
            counts[key] = counts.get(key, 0) + 1
            if key not in ("success", "clean"):
                bad += 1
                print(f"{outcome} [{what}; {kw.get('cnodes')} x {kw.get('locations')}]")
    print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())), f"bad={bad}")
    return 1 if bad else 0


def struct_error():
    import struct
    return struct.error


if __name__ == "__main__":
    sys.exit(main())
