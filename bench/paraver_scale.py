#!/usr/bin/env python3
"""Writes a large Paraver trace (.prv, Extrae's records) for ingest's speed and memory: TASKS
MPI ranks on nodes of 48, each doing STEPS steps of computation (state Running, with two
hardware-counter events as Extrae writes them), an MPI_Sendrecv to its ring neighbour (state 16,
the events 50000001:41 and 0, one communication record) and an MPI_Allreduce (state 13, the
events 50000002:10 with its 8 bytes, 50100001:8, and 0); records in time order, as Extrae's
merger writes them; an EPOCH .pcf (MPI routine names) and a .row beside it.

Usage: paraver_scale.py OUT.prv [TASKS] [STEPS]   (default 1024, 600)
then time `qnm-predict ingest -q OUT.prv` (bench/README.md, "Paraver traces").
"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PCF = os.path.join(HERE, '..', 'tests', 'data', 'paraver', 'epoch', 'epoch_16proc.pcf')
PER_NODE = 48


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    out, tasks = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 600
    step_ns, compute_ns, sendrecv_ns = 100_000, 80_000, 5_000
    end = steps * step_ns
    nodes = (tasks + PER_NODE - 1) // PER_NODE
    layout = ','.join(f'1:{t // PER_NODE + 1}' for t in range(tasks))
    cpus = ','.join(str(min(PER_NODE, tasks - n * PER_NODE)) for n in range(nodes))
    with open(out, 'w') as f:
        f.write(f'#Paraver (01/01/2026 at 12:00):{end}_ns:{nodes}({cpus}):1:{tasks}({layout})\n')
        for s in range(steps):
            t0 = s * step_ns
            lines = []
            for t in range(1, tasks + 1):
                cpu = t
                a, b, c = t0 + compute_ns, t0 + compute_ns + sendrecv_ns, t0 + step_ns
                peer = t % tasks + 1
                lines.append(f'1:{cpu}:1:{t}:1:{t0}:{a}:1\n')
                lines.append(f'2:{cpu}:1:{t}:1:{a}:50000001:41:42000050:{1000 + s}:42000059:{2000 + s}\n')
                lines.append(f'1:{cpu}:1:{t}:1:{a}:{b}:16\n')
                lines.append(f'3:{cpu}:1:{t}:1:{a}:{a}:{peer}:1:{peer}:1:{a + 100}:{b}:65536:7\n')
                lines.append(f'2:{cpu}:1:{t}:1:{b}:50000001:0\n')
                lines.append(f'2:{cpu}:1:{t}:1:{b}:50000002:10:50100001:8\n')
                lines.append(f'1:{cpu}:1:{t}:1:{b}:{c}:13\n')
                lines.append(f'2:{cpu}:1:{t}:1:{c}:50000002:0\n')
            f.writelines(lines)
    stem = out[:-4] if out.endswith('.prv') else out
    shutil.copyfile(PCF, stem + '.pcf')
    with open(stem + '.row', 'w') as f:
        f.write(f'LEVEL NODE SIZE {nodes}\n' + ''.join(f'node{n:04d}\n' for n in range(nodes)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
