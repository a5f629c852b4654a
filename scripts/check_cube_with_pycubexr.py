#!/usr/bin/env python3
"""Opens .cubex files written by `qnm-predict trace analyze --cube` with pyCubexR
(github.com/extra-p/pycubexr, BSD-3) and compares them with the JSON report of
the same analysis: one call-tree root, the root's inclusive `time` summed over
locations equals the JSON's total, and every metric's sum equals the JSON's
value. A peer check run by hand (docs/formats/scalasca-patterns.md section 9);
CI does not depend on pyCubexR.

Usage: PYTHONPATH=<pycubexr source tree> python3 check_cube_with_pycubexr.py A.cubex A.json [...]
(pairs of files; needs numpy, e.g. Debian's python3-numpy).
"""
import json
import sys

from pycubexr import CubexParser
from pycubexr.utils.exceptions import MissingMetricError


def check(cubex_path, json_path):
    report = json.load(open(json_path))
    json_metrics = {key: value["value"] for key, value in report["metrics"].items()}
    json_metrics["time"] = sum(v for k, v in json_metrics.items()
                               if report["metrics"][k].get("parent") == "time")
    failures = []
    with CubexParser(cubex_path) as cube:
        roots = cube.get_root_cnodes()
        root_names = [cube.get_region(root).name for root in roots]
        if len(roots) != 1:
            failures.append(f"{len(roots)} roots: {root_names}")
        time = cube.get_metric_by_name("time")
        values = cube.get_metric_values(metric=time)
        root_inclusive = float(sum(values.cnode_values(roots[0], convert_to_inclusive=True)))
        compared = 0
        for metric in cube.all_metrics():
            if metric.name not in json_metrics:
                continue
            try:
                metric_values = cube.get_metric_values(metric=metric)
            except MissingMetricError:  # no .index/.data: all zeros (our writer skips them)
                metric_values = None
            if metric_values is None:
                total = 0.0
                expected = json_metrics[metric.name]
                if abs(expected) > 1e-12:
                    failures.append(f"metric {metric.name}: no data in the cube, JSON {expected!r}")
                compared += 1
                continue
            total = 0.0
            for cnode in cube.all_cnodes():
                try:
                    total += float(sum(metric_values.cnode_values(cnode)))
                except Exception:  # no data row for this call path
                    pass
            expected = json_metrics[metric.name]
            if abs(total - expected) > 1e-9 * max(1.0, abs(expected)):
                failures.append(f"metric {metric.name}: cube {total!r} vs JSON {expected!r}")
            compared += 1
        if abs(root_inclusive - json_metrics["time"]) > 1e-9 * max(1.0, json_metrics["time"]):
            failures.append(f"root inclusive time {root_inclusive!r} vs JSON total {json_metrics['time']!r}")
        print(f"{cubex_path}: roots {root_names}, root inclusive time {root_inclusive:.9g} s, "
              f"JSON total {json_metrics['time']:.9g} s, {compared} metrics compared, "
              f"{len(cube.all_cnodes())} call paths, {len(cube.get_locations())} locations: "
              + ("OK" if not failures else "FAIL " + "; ".join(failures)))
    return not failures


if __name__ == "__main__":
    paths = sys.argv[1:]
    if len(paths) < 2 or len(paths) % 2:
        sys.exit(__doc__)
    ok = all([check(paths[i], paths[i + 1]) for i in range(0, len(paths), 2)])
    sys.exit(0 if ok else 1)
