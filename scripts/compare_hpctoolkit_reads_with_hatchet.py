#!/usr/bin/env python3
"""Reads HPCToolkit databases with LLNL's Hatchet (github.com/LLNL/hatchet,
MIT; GraphFrame.from_hpctoolkit) and with `qnm-predict ingest`, and says for
each whether the run-statistics record holds what Hatchet reads, to 1e-12
relative: the number of ranks; per rank (thread 0) the application time (the
inclusive time of the tree's roots, summed) and the MPI time (the inclusive
time of every MPI_*/PMPI_* procedure node with no such node above it, summed),
and that time per MPI routine.

With --write FILE it also writes what Hatchet read as JSON (the acceptance
data of tests/hpctoolkit_database_test.cpp, tests/data/hpctoolkit/hatchet_reads.json).

A peer check run by hand; CI does not depend on Hatchet. Hatchet's query
language (textX) and Cython helpers are stubbed when absent, the one the
HPCToolkit reader calls (subtract_exclusive_metric_vals) in plain Python.

Usage: PYTHONPATH=<hatchet source tree> python3 compare_hpctoolkit_reads_with_hatchet.py QNM_PREDICT [--write FILE] DIR [...]
(needs Debian's python3-pandas, python3-multiprocess, python3-yaml, python3-pydot).
"""
import os
import re
import sys

from compare_tau_reads_with_hatchet import compare

MPI = re.compile(r'^(?:\d+:)?p?mpi_([a-z][a-z0-9_]*?)_*$', re.IGNORECASE)


def subtract_exclusive_metric_vals(nid, parent_nid, metrics, num_stmt_nodes, stride):
    """hatchet/cython_modules/reader_modules.pyx, in Python."""
    for k in range(num_stmt_nodes):
        metrics[parent_nid - 1 + k * stride] -= metrics[nid - 1 + k * stride]


def routine_of(name):
    # hpcprof 2022.10 and later (database format 4) name a function of a binary without sources
    # with its load module: "PMPI_Bcast [libmpi.so.40.30.1]".
    name = re.sub(r' \[[^\]]*\]$', '', str(name))
    match = MPI.match(name)
    return match.group(1).capitalize() if match else None


def hatchet_reads(folder):
    import hatchet
    import hatchet.cython_modules.libs.reader_modules as crm
    if not hasattr(crm, 'subtract_exclusive_metric_vals'):
        crm.subtract_exclusive_metric_vals = subtract_exclusive_metric_vals
    graphframe = hatchet.GraphFrame.from_hpctoolkit(folder)
    frame = graphframe.dataframe.reset_index()
    if 'thread' in frame.columns:
        frame = frame[frame['thread'] == 0]
    ranks = sorted(int(r) for r in frame['rank'].unique())
    # The outermost MPI nodes: an MPI name and no MPI name above.
    outermost = {}
    for root in graphframe.graph.roots:
        stack = [(root, False)]
        while stack:
            node, under = stack.pop()
            routine = None if under else routine_of(node.frame.get('name', ''))
            if routine:
                outermost[node] = routine
            for child in node.children:
                stack.append((child, under or routine is not None))
    roots = set(graphframe.graph.roots)
    # experiment.xml databases: Hatchet's times in microseconds; format 4 (meta.db): in seconds.
    unit = 1.0 if os.path.exists(os.path.join(folder, 'meta.db')) else 1e-6
    out = {'procs': len(ranks), 'app_time_s_per_rank': [], 'mpi_time_s_per_rank': [], 'time_s_per_routine': {}}
    for rank in ranks:
        rows = frame[frame['rank'] == rank]
        out['app_time_s_per_rank'].append(float(rows[rows['node'].map(lambda n: n in roots)]['time (inc)'].sum()) * unit)
        mpi = rows[rows['node'].map(lambda n: n in outermost)]
        out['mpi_time_s_per_rank'].append(float(mpi['time (inc)'].sum()) * unit)
        for node, time in zip(mpi['node'], mpi['time (inc)']):
            per_rank = out['time_s_per_routine'].setdefault(outermost[node], [0.0] * len(ranks))
            per_rank[rank] += float(time) * unit
    return out


def main():
    return compare(sys.argv, hatchet_reads, [('time_s_per_routine', 'time_s_per_rank')], 'databases', __doc__)


if __name__ == '__main__':
    sys.exit(main())
