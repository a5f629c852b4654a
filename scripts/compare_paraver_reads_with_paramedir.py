#!/usr/bin/env python3
"""Reads Paraver traces with BSC's paramedir (paraver-kernel, the command-line Paraver; LGPL-2.1) and
with `qnm-predict ingest`, and says for each whether the run-statistics record holds what paramedir
computes, to 1e-12 relative: per rank the time inside MPI calls, and per MPI routine its time and
calls per rank.

paramedir computes statistics over a "window" (a semantic function of a thread's records) given by a
configuration file. The three written here share one window: a thread's last value of Extrae's MPI
event types 50000001-50000005 (the routine while a call runs, 0 between calls), and ask for the time
with a value >= 1 (MPI time), the time per value (per routine) and the number of bursts per value
(calls). A burst of zero duration (a call whose begin and end carry one timestamp, Extrae's
MPI_Cart_create in the EPOCH traces) is no burst for paramedir: such a routine must then have no time
in the record either, and its calls are not compared.

With --write FILE it also writes what paramedir read as JSON (the acceptance data of
tests/paraver_trace_test.cpp, tests/data/paraver/paramedir_reads.json).

A peer check run by hand; CI does not depend on paramedir.

Usage: PARAMEDIR=<paramedir> python3 compare_paraver_reads_with_paramedir.py QNM_PREDICT [--write FILE] TRACE.prv[.gz] ...
(paraver-kernel built from github.com/bsc-performance-tools/paraver-kernel; Debian's
libboost-serialization-dev, libboost-date-time-dev, libxml2-dev, libssl-dev).
"""
import os
import subprocess
import sys
import tempfile

from peer_check import close, ingest_record, parse_command_line, run_checks, same

CONFIG = """#ParaverCFG
ConfigFile.Version: 3.4
ConfigFile.NumWindows: 1

< NEW DISPLAYING WINDOW MPI call >
window_name MPI call
window_type single
window_id 1
window_level thread
window_units Nanoseconds
window_object appl { 1, { All } }
window_logical_filtered true
window_physical_filtered false
window_selected_functions { 14, { {cpu, Active Thd}, {appl, Adding}, {task, Adding}, {thread, Last Evt Val}, {node, Adding}, {system, Adding}, {workload, Adding}, {from_obj, All}, {to_obj, All}, {tag_msg, All}, {size_msg, All}, {bw_msg, All}, {evt_type, =}, {evt_value, All} } }
window_compose_functions { 9, { {compose_cpu, As Is}, {compose_appl, As Is}, {compose_task, As Is}, {compose_thread, As Is}, {compose_node, As Is}, {compose_system, As Is}, {compose_workload, As Is}, {topcompose1, As Is}, {topcompose2, As Is} } }
window_filter_module evt_type 5 50000001 50000002 50000003 50000004 50000005

< NEW ANALYZER2D >
Analyzer2D.Name: {name}
Analyzer2D.ControlWindow: 1
Analyzer2D.DataWindow: 1
Analyzer2D.Accumulator: Semantic
Analyzer2D.Statistic: {statistic}
Analyzer2D.CalculateAll: True
Analyzer2D.HideCols: False
Analyzer2D.HorizVert: Horizontal
Analyzer2D.AnalysisLimits: Alltrace
Analyzer2D.ComputeYScale: False
Analyzer2D.Minimum: {low}
Analyzer2D.Maximum: {high}
Analyzer2D.Delta: {delta}
"""
STATISTICS = {  # name: (statistic, first value, last value, bin width)
    'mpi_time': ('Time', 1, 100000, 100000),
    'routine_time': ('Time', 1, 400, 1),
    'routine_calls': ('# Bursts', 1, 400, 1),
}


def paramedir_table(trace, name, folder):
    """{column: [value per thread, in the trace's thread order]} of one statistic."""
    statistic, low, high, delta = STATISTICS[name]
    config = os.path.join(folder, name + '.cfg')
    with open(config, 'w') as out:
        out.write(CONFIG.replace('{name}', name).replace('{statistic}', statistic)
                  .replace('{low}', f'{low:.1f}').replace('{high}', f'{high:.1f}').replace('{delta}', f'{delta:.1f}'))
    result = os.path.join(folder, name + '.txt')
    subprocess.run([os.environ.get('PARAMEDIR', 'paramedir'), trace, config, result], check=True,
                   capture_output=True)
    lines = open(result).read().split('\n')
    columns = [c.strip() for c in lines[0].rstrip('\t').split('\t')[1:]]  # rows end in a tab
    table = {c: [] for c in columns}
    for line in lines[1:]:
        if not line.startswith('THREAD '):
            continue  # Total, Average, ... below the threads
        for column, value in zip(columns, line.rstrip('\t').split('\t')[1:]):
            table[column].append(float(value))
    return table


def check(trace):
    record = ingest_record(QNM, trace)
    with tempfile.TemporaryDirectory() as folder:
        mpi = paramedir_table(trace, 'mpi_time', folder)
        times = paramedir_table(trace, 'routine_time', folder)
        calls = paramedir_table(trace, 'routine_calls', folder)
    ranks = record['procs']
    threads = len(next(iter(mpi.values())))
    if threads != ranks:
        return os.path.basename(trace), {}, [f'{threads} threads: the check reads one thread per rank']
    peer = {'procs': ranks, 'mpi_time_s_per_rank': [v * 1e-9 for v in next(iter(mpi.values()))],
            'time_s_per_routine': {}, 'calls_per_routine': {}}
    for column in times:
        if column.startswith('MPI_') and (any(times[column]) or any(calls[column])):
            peer['time_s_per_routine'][column[4:]] = [v * 1e-9 for v in times[column]]
            peer['calls_per_routine'][column[4:]] = calls[column]
    problems = []
    if not same(record['per_rank']['mpi_time_s'], peer['mpi_time_s_per_rank']):
        problems.append(f"mpi_time_s_per_rank: {record['per_rank']['mpi_time_s']} vs {peer['mpi_time_s_per_rank']}")
    sites = {site['mpi_function']: site for site in record['call_sites']}
    for routine, site in sites.items():
        if routine not in peer['time_s_per_routine']:
            if any(site['time_s_per_rank']):
                problems.append(f'{routine}: time {site["time_s_per_rank"]} where paramedir has none')
            continue  # calls of zero duration: no burst for paramedir
        if not same(site['time_s_per_rank'], peer['time_s_per_routine'][routine]):
            problems.append(f'{routine} time: {site["time_s_per_rank"]} vs {peer["time_s_per_routine"][routine]}')
        if not same(site['calls_per_rank'], peer['calls_per_routine'][routine]):
            problems.append(f'{routine} calls: {site["calls_per_rank"]} vs {peer["calls_per_routine"][routine]}')
    for routine in peer['time_s_per_routine']:
        if routine not in sites:
            problems.append(f'{routine}: paramedir has it, the record does not')
    return os.path.basename(trace), peer, problems


if __name__ == '__main__':
    parsed = parse_command_line(sys.argv, __doc__)
    if parsed is None:
        sys.exit(2)
    QNM, write, paths = parsed
    sys.exit(run_checks(paths, check, 'paramedir', 'traces', write))
