#!/usr/bin/env python3
"""Reads TAU profile folders with LLNL's Hatchet (github.com/LLNL/hatchet, MIT;
GraphFrame.from_tau) and with `qnm-predict ingest`, and says for each whether
the run-statistics record holds what Hatchet reads, to 1e-12 relative: the
number of ranks; per rank the application time (inclusive time of the call
tree's root, TAU's ".TAU application"), the MPI time (exclusive time of every
call-tree node named MPI_*, summed) and, per MPI routine, the calls. Hatchet
builds its tree from TAU's call-path lines ("a => b"); qnm-predict reads the
flat timers: the two agree when TAU's call paths account for every flat timer.

With --write FILE it also writes what Hatchet read as JSON (the acceptance
data of tests/tau_profile_test.cpp, tests/data/tau/hatchet_reads.json).

A peer check run by hand; CI does not depend on Hatchet. Hatchet's query
language (textX) and Cython helpers are not needed to read TAU profiles and are
stubbed when absent.

Usage: PYTHONPATH=<hatchet source tree> python3 compare_tau_reads_with_hatchet.py QNM_PREDICT [--write FILE] DIR [...]
(needs pandas, multiprocess, PyYAML, pydot: Debian's python3-pandas,
python3-multiprocess, python3-yaml, python3-pydot).
"""
import os
import sys
import types

from peer_check import ingest_record, parse_command_line, per_rank_problems, run_checks, same


def stub_missing_hatchet_dependencies():
    try:
        import textx  # noqa: F401
    except ImportError:
        textx = types.ModuleType('textx')
        textx.metamodel_from_str = lambda *args, **kwargs: None
        textx.__path__ = []
        exceptions = types.ModuleType('textx.exceptions')
        exceptions.TextXError = Exception
        sys.modules['textx'] = textx
        sys.modules['textx.exceptions'] = exceptions
    for name in ('graphframe_modules', 'reader_modules'):
        full = 'hatchet.cython_modules.libs.' + name
        try:
            __import__(full)
        except ImportError:
            sys.modules[full] = types.ModuleType(name)
            # Newer Hatchet imports them as attributes of the package (from .libs import name).
            import hatchet.cython_modules.libs as libs
            setattr(libs, name, sys.modules[full])


def hatchet_reads(folder):
    import hatchet
    frame = hatchet.GraphFrame.from_tau(folder).dataframe.reset_index()
    ranks = sorted(int(r) for r in frame['rank'].unique())
    roots = {}
    for node in frame['node'].unique():
        if not node.parents:
            roots[node] = True
    out = {'procs': len(ranks), 'app_time_s_per_rank': [], 'mpi_time_s_per_rank': [], 'calls_per_rank': {}}
    for rank in ranks:
        rows = frame[frame['rank'] == rank]
        root_rows = rows[rows['node'].map(lambda n: n in roots)]
        out['app_time_s_per_rank'].append(float(root_rows['time (inc)'].max()) * 1e-6)
        mpi = rows[rows['name'].str.startswith('MPI_')]
        out['mpi_time_s_per_rank'].append(float(mpi['time'].sum()) * 1e-6)
        for name, calls in mpi.groupby(mpi['name'].str.replace(r'\(.*$', '', regex=True).str.strip())['Calls'].sum().items():
            routine = name[4:]
            out['calls_per_rank'].setdefault(routine, [0.0] * len(ranks))[rank] = float(calls)
    return out


def compare(argv, hatchet_reads, fields, noun, doc):
    """The command line of a Hatchet peer check: QNM_PREDICT [--write FILE] PATH...; compares each
    PATH's procs, per-rank app and MPI time and, per MPI routine, each (routine_field, site_field) of
    `fields`: Hatchet's reading peer[routine_field][routine] (none: an empty list) with the record's
    call site's `site_field`. The routines are those of the first routine_field."""
    command_line = parse_command_line(argv, doc)
    if command_line is None:
        return 2
    qnm, write, args = command_line
    stub_missing_hatchet_dependencies()

    def check(path):
        peer = hatchet_reads(path)
        record = ingest_record(qnm, path)
        problems = per_rank_problems(record, peer)
        sites = {site['mpi_function']: site for site in record['call_sites']}
        routines = peer[fields[0][0]]
        if set(sites) != set(routines):
            problems.append(f"routines {sorted(sites)} vs {sorted(routines)}")
        for routine in routines:
            for routine_field, site_field in fields:
                values = peer[routine_field].get(routine, [])
                if routine in sites and not same(sites[routine][site_field], values):
                    problems.append(f"{site_field} of {routine}: {sites[routine][site_field]} vs {values}")
        return os.path.basename(os.path.normpath(path)), peer, problems

    return run_checks(args, check, 'Hatchet', noun, write)


def main():
    return compare(sys.argv, hatchet_reads, [('calls_per_rank', 'calls_per_rank')], 'folders', __doc__)


if __name__ == '__main__':
    sys.exit(main())
