"""Structurally valid but hostile CUBE4 profiles (.cubex), built from scratch.

Round 4 of the campaign (issue 19): the damage is not in the bytes but in the
structure a careful writer could produce - deep call chains, sparse indexes
that list nothing or a position twice, declared sizes far beyond the data,
absurd stored times, values of the wrong width, empty process groups, and
anchors of millions of elements. Deterministic: the same arguments give the
same bytes.
"""
import gzip
import io
import struct
import tarfile

REGIONS = [("main", "user", "artificial"), ("MPI_Send", "mpi", "point2point"),
           ("compute", "user", "function"), ("MPI_Allreduce", "mpi", "other collective")]


def anchor(cnodes, locations, chain=False, groups=None, time_dtype="DOUBLE", visits_dtype="UINT64",
           time_type="INCLUSIVE", extra=b""):
    """anchor.xml: `cnodes` call nodes under one root (or a chain), `locations`
    threads in `groups` process groups (default one per location; groups beyond
    the locations are empty)."""
    out = io.StringIO()
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<cube version="4.4">\n'
              '<attr key="Creator" value="robustness round 4"/>\n<metrics>\n'
              f'<metric id="0" type="EXCLUSIVE"><uniq_name>visits</uniq_name><dtype>{visits_dtype}</dtype></metric>\n'
              f'<metric id="1" type="{time_type}"><uniq_name>time</uniq_name><dtype>{time_dtype}</dtype></metric>\n'
              '</metrics>\n<program>\n')
    for k, (name, paradigm, role) in enumerate(REGIONS):
        out.write(f'<region id="{k}"><name>{name}</name><paradigm>{paradigm}</paradigm><role>{role}</role></region>\n')
    if chain:  # main -> compute -> compute -> ... -> MPI_Send at the bottom
        for n in range(cnodes):
            callee = 0 if n == 0 else (1 if n == cnodes - 1 else 2)
            out.write(f'<cnode id="{n}" calleeId="{callee}">')
        out.write("</cnode>" * cnodes + "\n")
    else:
        out.write('<cnode id="0" calleeId="0">')
        for n in range(1, cnodes):
            out.write(f'<cnode id="{n}" calleeId="{1 + (n - 1) % 3}"/>')
        out.write("</cnode>\n")
    out.write('</program>\n<system>\n<systemtreenode Id="0"><name>machine</name><class>machine</class>\n')
    groups = locations if groups is None else groups
    for g in range(groups):
        out.write(f'<locationgroup Id="{g}"><name>rank {g}</name><rank>{g}</rank><type>process</type>')
        if g < locations:
            out.write(f'<location Id="{g}"><name>t</name><rank>0</rank><type>thread</type></location>')
        out.write("</locationgroup>\n")
    out.write("</systemtreenode>\n</system>\n")
    return out.getvalue().encode() + extra + b"</cube>\n"


def index(positions=None, endian=1):
    """A CUBEX.INDEX: dense (positions None) or sparse listing `positions`."""
    head = b"CUBEX.INDEX" + struct.pack("<IHB", endian, 0, 0 if positions is None else 1)
    if positions is None:
        return head
    return head + struct.pack("<I", len(positions)) + b"".join(struct.pack("<I", p) for p in positions)


def data(values, fmt="<d"):
    return b"CUBEX.DATA" + b"".join(struct.pack(fmt, v) for v in values)


def tar_bytes(members, gz=False):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:", format=tarfile.USTAR_FORMAT) as tar:
        for name, payload in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(payload), 0, 0o600
            tar.addfile(info, io.BytesIO(payload))
    raw = buffer.getvalue()
    return gzip.compress(raw, compresslevel=9, mtime=0) if gz else raw


def inclusive_times(cnodes, locations, chain, leaf_time_s):
    """Inclusive times in Cube's wide order (a node, then all its children):
    every node `leaf_time_s` exclusive; for a chain, wide order is anchor order."""
    if chain:
        return [leaf_time_s * (cnodes - n) for n in range(cnodes) for _ in range(locations)]
    return [leaf_time_s * (cnodes if n == 0 else 1) for n in range(cnodes) for _ in range(locations)]


def profile(cnodes, locations, chain=False, leaf_time_s=0.5, gz=False, groups=None, time_positions=None,
            time_values=None, time_dtype="DOUBLE", time_endian=1, visits_dtype="UINT64", visits_fmt="<Q",
            extra_anchor=b""):
    """A whole .cubex; by default a valid one (visits 1 per call path, time
    `leaf_time_s` exclusive per call path and location)."""
    members = {"anchor.xml": anchor(cnodes, locations, chain, groups, time_dtype, visits_dtype, extra=extra_anchor)}
    if time_positions == []:  # nothing stored for any metric: only the declared sizes are large
        members["0.index"], members["0.data"] = index([]), data([])
    else:
        members["0.index"] = index(None)
        members["0.data"] = data([1] * (cnodes * locations), visits_fmt)
    if time_values is None:
        time_values = inclusive_times(cnodes, locations, chain, leaf_time_s)
    members["1.index"] = index(time_positions, time_endian)
    members["1.data"] = data(time_values)
    return tar_bytes(members, gz)
