#!/usr/bin/env python3
"""Writes a large Caliper runtime-profile (.cali) for ingest's speed and memory: the
records of tests/data/caliper/ring/runtime-profile/ring-p4.cali (its metadata nodes
unchanged, 9 regions per rank) repeated for RANKS ranks with REGIONS extra nested regions
per rank (main/compute/k), each with its mpi.rank and a time; mpi.world.size set to RANKS.

Usage: caliper_scale.py OUT.cali [RANKS] [REGIONS]   (default 8192, 50)
then time `qnm-predict ingest -q OUT.cali` (bench/README.md, "Caliper profiles").
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RING = os.path.join(HERE, '..', 'tests', 'data', 'caliper', 'ring', 'runtime-profile', 'ring-p4.cali')


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    out, ranks = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 8192
    regions = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    lines = open(RING).read().splitlines()
    nodes = [l for l in lines if l.startswith('__rec=node')]
    rank0 = [l for l in lines if l.startswith('__rec=ctx') and re.search(r'data=0=', l)]
    globals_at = next(i for i, l in enumerate(nodes) if 'attr=16,data=4,' in l)  # mpi.world.size
    region_attr = re.search(r'id=(\d+),attr=8,data=region,', '\n'.join(nodes)).group(1)
    compute = re.search(r'id=(\d+),attr=' + region_attr + r',data=compute', '\n'.join(nodes)).group(1)
    first_id = 10000
    extra = [f'__rec=node,id={first_id + k},attr={region_attr},data=kernel{k},parent={compute}' for k in range(regions)]
    head = [l for i, l in enumerate(nodes) if i != globals_at]
    world = nodes[globals_at].replace('data=4,', f'data={ranks},')
    time_attr = re.search(r"id=(\d+),attr=8,data=sum#sum#time.duration,", "\n".join(nodes)).group(1)
    rank_attr = rank0[0].split('attr=')[1].split('=')[0]
    with open(out, 'w') as f:
        f.write('\n'.join(head[:len(head)]) + '\n' + '\n'.join(extra) + '\n')
        for r in range(ranks):
            for l in rank0:
                f.write(l.replace('data=0=', f'data={r}=', 1) + '\n')
            for k in range(regions):
                f.write(f'__rec=ctx,ref={first_id + k},attr={rank_attr}={time_attr},data={r}={0.001 * (k + 1):.6f}\n')
        f.write(world + '\n')
        f.write([l for l in lines if l.startswith('__rec=globals')][0] + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
