#!/usr/bin/env python3
"""Reads CUBE4 profiles with pyCubexR (github.com/extra-p/pycubexr, BSD-3) and with
`qnm-predict ingest`, and says for each whether the run-statistics record holds
what pyCubexR reads: the number of processes, the nodes (system-tree nodes of
class `node` above every process; pyCubexR keeps no class, so it is read from
the anchor's XML here), and per rank the application time (inclusive `time` of
the call-tree roots, longest location of the rank) and the MPI time (exclusive
`time` of MPI call paths summed over the rank's locations; MPI = paradigm mpi,
or name MPI_* when the paradigm is unknown, never an artificial region), equal
to 1e-12 relative. A peer check run by hand beside check_cube_with_pycubexr.py;
CI does not depend on pyCubexR. pyCubexR refuses profiles of more than one
call-tree root; those are reported as refused by the peer.

Usage: PYTHONPATH=<pycubexr source tree> python3 compare_cube_reads_with_pycubexr.py QNM_PREDICT A.cubex [...]
(needs numpy, e.g. Debian's python3-numpy).
"""
import gzip
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

from pycubexr import CubexParser


def node_classes(parser):
    anchor = parser._cubex_file.extractfile('anchor.xml').read()
    if not anchor.startswith(b'<?xml'):
        anchor = gzip.decompress(anchor)
    return {int(n.get('Id')): (n.findtext('class') or '').strip() for n in ET.fromstring(anchor).iter('systemtreenode')}


def process_groups(tree_node, classes, node_above, out):
    """(location group, the system-tree node of class node above it or None), in tree order."""
    here = tree_node if classes.get(tree_node.id) == 'node' else node_above
    for group in tree_node._location_group_children:
        out.append((group, here))
    for child in tree_node._system_tree_node_children:
        process_groups(child, classes, here, out)
    return out


def is_mpi(region):
    if region.role == 'artificial':
        return False
    if region.paradigm in (None, '', 'unknown'):
        return region.name.startswith('MPI_')
    return region.paradigm == 'mpi'


def read_with_peer(path):
    with CubexParser(path) as parser:
        groups = process_groups(parser._anchor_result.system_tree_nodes[0], node_classes(parser), None, [])
        processes = [(g, n) for g, n in groups if g.type == 'process' and g._locations]
        nodes = len({id(n) for _, n in processes}) if all(n is not None for _, n in processes) else 0
        rank_of_location = {}
        for index, (group, _) in enumerate(processes):
            for location in group.all_locations():
                rank_of_location[location.id] = group.rank if group.rank is not None else index
        locations = parser.get_locations()
        time = parser.get_metric_values(parser.get_metric_by_name('time'))
        app = [0.0] * len(processes)
        mpi = [0.0] * len(processes)
        roots = parser.get_root_cnodes()
        for column, location in enumerate(locations):
            rank = int(rank_of_location.get(location.id, 0))
            inclusive = sum(time.location_value(root, column, convert_to_inclusive=True) for root in roots)
            app[rank] = max(app[rank], inclusive)
        for cnode in parser._anchor_result.all_cnodes.values():
            if not is_mpi(cnode.region):
                continue
            exclusive = time.cnode_values(cnode, convert_to_exclusive=True)
            for column, location in enumerate(locations):
                mpi[int(rank_of_location.get(location.id, 0))] += float(exclusive[column])
        return len(processes), nodes, app, mpi


def read_with_qnm(qnm, path):
    out = subprocess.run([qnm, 'ingest', path, '--format', 'json'], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    run = json.loads(out.stdout)['runs'][0]
    per_rank = run.get('per_rank', {})
    return run['procs'], run.get('nodes') or 0, per_rank.get('app_time_s') or [], per_rank.get('mpi_time_s') or []


def largest_relative_difference(ours, theirs):
    if len(ours) != len(theirs):
        return float('inf')
    return max((abs(a - b) / max(abs(b), 1e-300) for a, b in zip(ours, theirs)), default=0.0)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    qnm, paths = argv[1], argv[2:]
    same = 0
    for path in paths:
        try:
            procs, nodes, app, mpi = read_with_peer(path)
        except Exception as error:  # the peer's own refusals (e.g. several call-tree roots)
            print(f'{path}: refused by pyCubexR ({type(error).__name__})')
            continue
        ours = read_with_qnm(qnm, path)
        if ours is None:
            print(f'{path}: refused by qnm-predict, read by pyCubexR')
            continue
        our_procs, our_nodes, our_app, our_mpi = ours
        app_diff = largest_relative_difference(our_app, app)
        mpi_diff = largest_relative_difference(our_mpi, mpi)
        ok = our_procs == procs and our_nodes == nodes and app_diff <= 1e-12 and mpi_diff <= 1e-12
        same += ok
        print(f'{path}: procs {our_procs}/{procs}, nodes {our_nodes}/{nodes}, app time {app_diff:.1e}, '
              f'MPI time {mpi_diff:.1e} (largest relative difference) -> {"same" if ok else "DIFFERENT"}')
    print(f'{same}/{len(paths)} read as pyCubexR reads them')
    return 0 if same == len(paths) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
