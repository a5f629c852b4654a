#!/usr/bin/env python3
"""Reads Caliper json-split profiles of a time per rank (runtime-profile with
output.format=json-split) with LLNL's Hatchet (GraphFrame.from_caliper, MIT)
and with `qnm-predict ingest`, and says for each whether the run-statistics
record holds what Hatchet reads, to 1e-12 relative: the process count (the
ranks Hatchet shows); per rank the application time (Hatchet's exclusive
"time" of every node, summed, plus the records without a region, which Hatchet
leaves out of its graph and this script takes from the file itself), the MPI
time (the nodes named MPI_* and every node below them) and, per MPI routine,
its time and calls ("Calls", when the file has them) per rank.

With --write FILE it also writes what Hatchet read as JSON (the acceptance
data of tests/caliper_profile_test.cpp, tests/data/caliper/hatchet_json_reads.json).

A peer check run by hand; CI does not depend on Hatchet (Debian's python3-pandas).

Usage: PYTHONPATH=<hatchet source tree> python3 compare_caliper_json_reads_with_hatchet.py QNM_PREDICT [--write FILE] FILE.json [...]
"""
import json
import sys

from compare_tau_reads_with_hatchet import compare


def hatchet_reads(path):
    import hatchet
    graphframe = hatchet.GraphFrame.from_caliper(path)
    frame = graphframe.dataframe.reset_index()
    ranks = sorted(int(r) for r in frame['rank'].unique())
    # The outermost MPI node of each node's path, if any.
    routine_of = {}
    for root in graphframe.graph.roots:
        stack = [(root, None)]
        while stack:
            node, above = stack.pop()
            name = node.frame.get('name', '')
            routine = above or (name if str(name).startswith('MPI_') else None)
            routine_of[node] = routine
            stack.extend((child, routine) for child in node.children)
    out = {'procs': len(ranks), 'app_time_s_per_rank': [0.0] * len(ranks), 'mpi_time_s_per_rank': [0.0] * len(ranks),
           'time_s_per_routine': {}, 'calls_per_routine': {}}
    for node, rank, time, name in zip(frame['node'], frame['rank'], frame['time'], frame['name']):
        out['app_time_s_per_rank'][int(rank)] += float(time)
        routine = routine_of[node]
        if routine:
            key = routine[4:]
            out['mpi_time_s_per_rank'][int(rank)] += float(time)
            out['time_s_per_routine'].setdefault(key, [0.0] * len(ranks))[int(rank)] += float(time)
    if 'Calls' in frame.columns:
        for node, rank, calls, name in zip(frame['node'], frame['rank'], frame['Calls'], frame['name']):
            if routine_of[node] and routine_of[node] == name:
                out['calls_per_routine'].setdefault(name[4:], [0.0] * len(ranks))[int(rank)] += float(calls)
    # The records without a region (time outside any annotation): not in Hatchet's graph.
    with open(path) as file:
        document = json.load(file)
    columns = document['columns']
    for row in document['data']:
        if row[columns.index('path')] is None and row[columns.index('time')] is not None:
            out['app_time_s_per_rank'][int(row[columns.index('mpi.rank')])] += float(row[columns.index('time')])
    return out


def main():
    return compare(sys.argv, hatchet_reads, [('time_s_per_routine', 'time_s_per_rank'), ('calls_per_routine', 'calls_per_rank')],
                   'json-split profiles', __doc__)


if __name__ == '__main__':
    sys.exit(main())
