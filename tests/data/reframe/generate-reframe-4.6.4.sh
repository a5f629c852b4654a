#!/usr/bin/env bash
# Regenerates tests/data/reframe/reframe-4.6.4 with ReFrame itself: runs heat_test.py (a model
# code printing its elapsed time; tasks = 1..32, P = 32 fails its sanity check) twice over
# (--repeat 2) on ReFrame's built-in generic system and keeps its perflog and JSON run report;
# then once with perflog_compat (one line per variable, ReFrame 3's layout under a header line)
# on a system "lab" into tests/data/reframe/reframe-4.6.4-compat.
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

cat > "$work/compat.py" <<'PY'
site_configuration = {
    'systems': [{'name': 'lab', 'descr': 'local', 'hostnames': ['.*'],
                 'partitions': [{'name': 'cpu', 'scheduler': 'local', 'launcher': 'local',
                                 'environs': ['builtin']}]}],
    'environments': [{'name': 'builtin', 'cc': 'cc', 'cxx': '', 'ftn': ''}],
    'logging': [{
        'perflog_compat': True,
        'handlers_perflog': [{
            'type': 'filelog', 'prefix': '%(check_system)s/%(check_partition)s', 'level': 'info',
            'format': ('%(check_job_completion_time)s|reframe %(version)s|%(check_info)s|jobid=%(check_jobid)s|'
                       'num_tasks=%(check_num_tasks)s|%(check_perf_var)s=%(check_perf_value)s|'
                       'ref=%(check_perf_ref)s (l=%(check_perf_lower_thres)s, u=%(check_perf_upper_thres)s)|'
                       '%(check_perf_unit)s'),
            'append': True}]
    }]
}
PY
PYTHONPATH="$work/stub" /usr/bin/python3 "$reframe/bin/reframe" -C "$work/compat.py" -c "$here/heat_test.py" -r \
  --prefix "$work/compat" || [ -s "$work/compat/perflogs/lab/cpu/HeatScaling.log" ]
mkdir -p "$here/reframe-4.6.4-compat/perflogs/lab/cpu"
cp "$work/compat/perflogs/lab/cpu/HeatScaling.log" "$here/reframe-4.6.4-compat/perflogs/lab/cpu/"
