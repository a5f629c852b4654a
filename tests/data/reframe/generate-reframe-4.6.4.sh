#!/usr/bin/env bash
# Regenerates tests/data/reframe/reframe-4.6.4 with ReFrame itself: runs heat_test.py (a model
# code printing its elapsed time; tasks = 1..32, P = 32 fails its sanity check) twice over
# (--repeat 2) on ReFrame's built-in generic system and keeps its perflog and JSON run report.
# Usage: generate-reframe-4.6.4.sh REFRAME_4_6_4_SOURCE_TREE
# (git clone --branch v4.6.4 https://github.com/reframe-hpc/reframe; Debian 12's python3 with
# python3-jsonschema python3-lxml python3-yaml python3-requests python3-semver python3-argcomplete.
# archspec is not packaged in Debian 12: a stand-in that names the CPU is put on PYTHONPATH.)
set -euo pipefail
reframe=$1
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stub/archspec"
: > "$work/stub/archspec/__init__.py"
cat > "$work/stub/archspec/cpu.py" <<'PY'
class _Host:
    name = 'x86_64'
    vendor = 'GenuineIntel'
def host():
    return _Host()
class detect:
    @staticmethod
    def raw_info_dictionary():
        return {'model name': 'generic'}
PY
PYTHONPATH="$work/stub" /usr/bin/python3 "$reframe/bin/reframe" -c "$here/heat_test.py" -r --repeat 2 \
  --prefix "$work/out" --report-file "$work/out/run-report.json" ||
  [ -s "$work/out/run-report.json" ]  # ReFrame exits 1: the P = 32 case fails, as it should
out="$here/reframe-4.6.4"
mkdir -p "$out/perflogs/generic/default"
cp "$work/out/perflogs/generic/default/HeatScaling.log" "$out/perflogs/generic/default/"
cp "$work/out/run-report.json" "$out/"
