#!/usr/bin/env python3
"""Reads Caliper .cali profiles with Caliper's own Python reader
(caliperreader, github.com/LLNL/Caliper python/caliper-reader, BSD-3-Clause;
the reader Hatchet and Thicket use) and with `qnm-predict ingest`, and says for
each whether the run-statistics record holds what caliperreader reads, to
1e-12 relative:

- the process count (global mpi.world.size, else Adiak jobsize, else the
  largest mpi.rank + 1, else 1);
- profiles with statistics over the ranks (CALI_CONFIG=spot): the mean
  application time (sum#inclusive#sum#time.duration of the records with at
  most one region on their path, summed, over the process count), the mean MPI
  time (the same of the records whose last region is their only mpi.function
  region) and that time per MPI routine, summed over the ranks, and its calls
  (sum#sum#rc.count, when every such record has one);
- profiles with a time per rank (runtime-profile; mpi.rank): per rank the
  application time (sum#time.duration of every record, summed), the MPI time
  (of every record with an mpi.function region on its path) and that time per
  MPI routine, and its calls per rank (sum#rc.count of the MPI regions
  themselves, when every one has it).

With --write FILE it also writes what caliperreader read as JSON, keyed by
<folder>/<file> (the
acceptance data of tests/caliper_profile_test.cpp,
tests/data/caliper/caliperreader_reads.json).

A peer check run by hand; CI does not depend on caliperreader (pure Python,
no dependencies).

Usage: PYTHONPATH=<Caliper>/python/caliper-reader python3 compare_caliper_reads_with_caliperreader.py QNM_PREDICT [--write FILE] FILE.cali [...]
"""
import os
import sys

from peer_check import close, ingest_record, parse_command_line, per_rank_problems, run_checks, same

SPOT = '#inclusive#sum#time.duration'
RANK_METRICS = ('sum#sum#time.duration', 'sum#time.duration', 'time.duration')


def as_list(value):
    return value if isinstance(value, list) else [value]


def caliperreader_reads(path):
    import caliperreader
    reader = caliperreader.CaliperReader()
    reader.read(path)
    records = [r for r in reader.records if r.get('spot.channel', 'regionprofile') == 'regionprofile']
    glob = reader.globals
    ranks = [int(r['mpi.rank']) for r in records if 'mpi.rank' in r]
    if 'mpi.world.size' in glob:
        procs = int(glob['mpi.world.size'])
    elif 'jobsize' in glob:
        procs = int(glob['jobsize'])
    elif ranks:
        procs = max(ranks) + 1
    else:
        procs = 1  # no MPI service, no Adiak: one process's profile
    out = {'procs': procs}
    if any('avg' + SPOT in r for r in records):
        app = mpi = 0.0
        per_routine, calls = {}, {}
        for r in records:
            if 'avg' + SPOT not in r:
                continue
            total = float(r['sum' + SPOT])
            path = as_list(r.get('path', []))
            if len(path) <= 1:
                app += total
            routines = as_list(r.get('mpi.function', []))
            if len(routines) == 1 and path and path[-1] == routines[0]:
                mpi += total
                name = routines[0][4:] if routines[0].startswith('MPI_') else routines[0]
                per_routine[name] = per_routine.get(name, 0.0) + total
                count = r.get('sum#sum#rc.count')
                calls[name] = None if count is None or calls.get(name, 0) is None else calls.get(name, 0.0) + float(count)
        out.update({'app_time_mean_s': app / procs, 'mpi_time_mean_s': mpi / procs, 'total_time_s_per_routine': per_routine})
        if calls and all(c is not None for c in calls.values()):
            out['total_calls_per_routine'] = calls
        return out
    metric = next(m for m in RANK_METRICS if any(m in r for r in records))
    app, mpi, per_routine, calls, complete = [0.0] * procs, [0.0] * procs, {}, {}, True
    for r in records:
        if metric not in r:
            continue
        rank = int(r.get('mpi.rank', 0))
        value = float(r[metric])
        app[rank] += value
        routines = as_list(r.get('mpi.function', []))
        if routines:
            mpi[rank] += value
            name = routines[0][4:] if routines[0].startswith('MPI_') else routines[0]
            per_routine.setdefault(name, [0.0] * procs)[rank] += value
            path = as_list(r.get('path', []))
            if len(routines) == 1 and path and path[-1] == routines[0]:
                count = r.get('sum#rc.count', r.get('sum#sum#rc.count'))
                if count is None:
                    complete = False
                else:
                    calls.setdefault(name, [0.0] * procs)[rank] += float(count)
    out.update({'app_time_s_per_rank': app, 'mpi_time_s_per_rank': mpi, 'time_s_per_routine': per_routine})
    if calls and complete:
        out['calls_per_routine'] = calls
    return out


def compare_one(qnm, path):
    peer = caliperreader_reads(path)
    record = ingest_record(qnm, path)
    sites = {site['mpi_function']: site for site in record['call_sites']}
    if 'app_time_mean_s' in peer:
        problems = [] if record['procs'] == peer['procs'] else [f"procs {record['procs']} vs {peer['procs']}"]
        for field, ours in (('app_time_mean_s', record['app_time_s']), ('mpi_time_mean_s', record['mpi_time_s'])):
            if ours is None and peer[field] == 0 and not peer['total_time_s_per_routine']:
                continue  # no MPI regions: the record leaves the MPI time unknown
            if ours is None or not close(ours, peer[field]):
                problems.append(f'{field}: {ours} vs {peer[field]}')
        routines = peer['total_time_s_per_routine']
        for routine, total in routines.items():
            if routine not in sites or not close(sites[routine]['total_time_s'], total):
                problems.append(f"total time of {routine}: {sites.get(routine, {}).get('total_time_s')} vs {total}")
        for routine, site in sites.items():
            ours, theirs = site['total_calls'], peer.get('total_calls_per_routine', {}).get(routine)
            if (ours is None) != (theirs is None) or (ours is not None and not close(ours, theirs)):
                problems.append(f"calls of {routine}: {ours} vs {theirs}")
    else:
        problems = per_rank_problems(record, peer)
        routines = peer['time_s_per_routine']
        for routine, values in routines.items():
            ours = sites.get(routine, {}).get('time_s_per_rank', [])
            if not same(ours, values):
                problems.append(f"time of {routine}: {ours} vs {values}")
        for routine, site in sites.items():
            theirs = peer.get('calls_per_routine', {}).get(routine, [])
            if 'calls_per_routine' in peer and routine not in peer['calls_per_routine']:
                theirs = [0.0] * record['procs']
            ours = site['calls_per_rank']
            if not same(ours, theirs):
                problems.append(f"calls of {routine}: {ours} vs {theirs}")
    if set(sites) != set(routines):
        problems.append(f"routines {sorted(sites)} vs {sorted(routines)}")
    return peer, problems


def main():
    command_line = parse_command_line(sys.argv, __doc__)
    if command_line is None:
        return 2
    qnm, write, args = command_line

    def check(path):
        peer, problems = compare_one(qnm, path)
        key = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(path))), os.path.basename(path))
        return key, peer, problems

    return run_checks(args, check, 'caliperreader', 'profiles', write)


if __name__ == '__main__':
    sys.exit(main())
