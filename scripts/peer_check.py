"""The command line shared by the peer checks (scripts/compare_*_reads_with_*.py):
QNM_PREDICT [--write FILE] PATH..., and the JSON file of what the peer read."""
import json


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
