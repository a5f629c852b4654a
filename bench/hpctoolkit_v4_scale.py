#!/usr/bin/env python3
"""Writes a large HPCToolkit database of format 4 for ingest's speed: Hatchet's cpi
database (tests/data/hpctoolkit/hatchet-cpi-v4-database) with its meta.db unchanged and a
profile.db of RANKS ranks x 4 threads, each profile's value block copied from the cpi
profile of rank (r mod 4) and the same thread, laid out as FORMATS.md (beside the
database) describes: the header, the Profile Info section (the summary first), the
identifier tuples (NODE r // RANKS_PER_NODE, RANK r, THREAD t), then the value blocks.

Usage: hpctoolkit_v4_scale.py OUT_DIR [RANKS] [RANKS_PER_NODE]   (default 1024, 64)
then time `qnm-predict ingest -q OUT_DIR` (bench/README.md, "HPCToolkit databases").
"""
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CPI = os.path.join(HERE, '..', 'tests', 'data', 'hpctoolkit', 'hatchet-cpi-v4-database')


def read_profiles(data):
    """{(rank, thread): (values bytes, index bytes, n values, n contexts)} and the summary's."""
    infos = struct.unpack_from('<Q', data, 0x18)[0]
    plist, count, stride = struct.unpack_from('<QIB', data, infos)
    out, summary = {}, None
    for p in range(count):
        at = plist + p * stride
        n_values, p_values, n_ctxs, p_index, p_tuple, flags = struct.unpack_from('<QQIxxxxQQI', data, at)
        block = (data[p_values:p_values + 10 * n_values], data[p_index:p_index + 12 * n_ctxs], n_values, n_ctxs)
        if flags & 1:
            summary = block
            continue
        ids = {}
        n_ids = struct.unpack_from('<H', data, p_tuple)[0]
        for k in range(n_ids):
            kind, _, logical, _ = struct.unpack_from('<BxHIQ', data, p_tuple + 8 + 16 * k)
            ids[kind] = logical
        out[(ids.get(2, 0), ids.get(3, 0))] = block  # kinds 2 RANK, 3 THREAD in this database
    return out, summary


def main():
    out_dir = sys.argv[1]
    ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    per_node = int(sys.argv[3]) if len(sys.argv) > 3 else 64
    data = open(os.path.join(CPI, 'profile.db'), 'rb').read()
    blocks, summary = read_profiles(data)
    threads = 4
    profiles = [(None, None, summary)] + [(r, t, blocks[(r % 4, t)]) for r in range(ranks) for t in range(threads)]
    header = 0x30
    infos_at = header
    infos_size = 0x10 + 0x30 * len(profiles)
    tuples_at = (infos_at + infos_size + 7) // 8 * 8
    tuple_size = 8 + 16 * 3
    tuples_size = tuple_size * (len(profiles) - 1)
    blob_at = tuples_at + tuples_size
    body, infos, tuples = bytearray(), bytearray(), bytearray()
    infos += struct.pack('<QIBxxx', infos_at + 0x10, len(profiles), 0x30)
    for n, (rank, thread, (values, index, n_values, n_ctxs)) in enumerate(profiles):
        p_values = blob_at + len(body)
        body += values
        body += b'\0' * ((-len(body)) % 4)
        p_index = blob_at + len(body)
        body += index
        body += b'\0' * ((-len(body)) % 8)
        p_tuple = 0
        if rank is not None:
            p_tuple = tuples_at + len(tuples)
            tuples += struct.pack('<Hxxxxxx', 3)
            tuples += struct.pack('<BxHIQ', 1, 1, rank // per_node, 0x1000 + rank // per_node)  # NODE
            tuples += struct.pack('<BxHIQ', 2, 0, rank, rank)                                 # RANK
            tuples += struct.pack('<BxHIQ', 3, 0, thread, thread)                             # THREAD
        infos += struct.pack('<QQIxxxxQQIxxxx', n_values, p_values, n_ctxs, p_index, p_tuple, 1 if rank is None else 0)
    infos += b'\0' * (tuples_at - infos_at - len(infos))
    head = b'HPCTOOLKIT' + b'prof' + bytes([4, 0]) + struct.pack('<QQQQ', infos_size, infos_at, tuples_size, tuples_at)
    head += b'\0' * (header - len(head))
    os.makedirs(out_dir, exist_ok=True)
    shutil.copy(os.path.join(CPI, 'meta.db'), os.path.join(out_dir, 'meta.db'))
    with open(os.path.join(out_dir, 'profile.db'), 'wb') as out:
        out.write(head + infos + tuples + body + b'_prof.db')
    print(f"{out_dir}: {ranks} ranks x {threads} threads, profile.db {os.path.getsize(os.path.join(out_dir, 'profile.db')):,} bytes")


if __name__ == '__main__':
    main()
