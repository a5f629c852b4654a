"""The command line shared by the peer checks (scripts/compare_*_reads_with_*.py):
QNM_PREDICT [--write FILE] PATH..., and the JSON file of what the peer read."""
import json
import subprocess


def parse_command_line(argv, doc):
    """(qnm-predict, the --write file or None, the paths), or None after printing `doc`."""
    args = argv[1:]
    if len(args) < 2:
        print(doc)
        return None
    qnm, args = args[0], args[1:]
    write = None
    if args[0] == '--write':
        write, args = args[1], args[2:]
    return qnm, write, args


def close(a, b):
    """Equal to 1e-12 relative (1e-12 absolute near 0)."""
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


def same(ours, theirs):
    """Two lists of numbers equal value by value (close)."""
    return len(ours) == len(theirs) and all(close(a, b) for a, b in zip(ours, theirs))


def ingest_record(qnm, path):
    """The first run-statistics record `qnm-predict ingest --strict --format json PATH` reads."""
    return json.loads(subprocess.run([qnm, 'ingest', '--strict', '--format', 'json', path], check=True,
                                     capture_output=True, text=True).stdout)['runs'][0]


def per_rank_problems(record, peer):
    """What differs between a record and a peer's reading of every rank: the process count, and per
    rank the application and MPI time (peer keys app_time_s_per_rank, mpi_time_s_per_rank)."""
    problems = []
    if record['procs'] != peer['procs']:
        problems.append(f"procs {record['procs']} vs {peer['procs']}")
    for field, ours_field in (('app_time_s_per_rank', 'app_time_s'), ('mpi_time_s_per_rank', 'mpi_time_s')):
        ours = record['per_rank'][ours_field]
        if not same(ours, peer[field]):
            problems.append(f'{field}: {ours} vs {peer[field]}')
    return problems


def write_peer_reads(path, written):
    """Writes {name: what the peer read} as sorted, indented JSON (tests/data/*/..._reads.json)."""
    with open(path, 'w') as out:
        json.dump(written, out, indent=1, sort_keys=True)
        out.write('\n')


def run_checks(paths, check, peer_name, noun, write):
    """Runs check(path) -> (key, what the peer read, problems) on each path, prints one line each
    and the count, writes the peer's readings under their keys to `write` (if given); the exit code."""
    written, failures = {}, 0
    for path in paths:
        key, peer, problems = check(path)
        print(f"{path}: {'same as ' + peer_name if not problems else 'DIFFERS: ' + '; '.join(problems)}")
        failures += bool(problems)
        written[key] = peer
    if write:
        write_peer_reads(write, written)
    print(f"{len(paths) - failures}/{len(paths)} {noun} read as {peer_name} reads them")
    return 1 if failures else 0
