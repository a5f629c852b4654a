#!/usr/bin/env python3
"""Merge the helpers' folders into S/series.csv, mechanically (PREREGISTRATION.md's merge rules)."""
import csv, glob, os, re, sys
from collections import defaultdict, OrderedDict
root = os.path.dirname(os.path.abspath(__file__))  # run in the folder of the helpers' folders (beside the project)
committed = set()
for path in glob.glob('/work/main/bench/data/*/series.csv') + glob.glob('/work/shared/data/*/series.csv'):
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            m = re.match(r'github:([^@]+)@[0-9a-f]+:(.*)', row.get('source', '') or '')
            if m:
                committed.add((m.group(1).lower(), m.group(2)))
# Repositories an earlier held-out set took (bench/data/heldout-*/merge-log.txt names them): not held out.
earlier = set()
for path in glob.glob('/work/main/bench/data/heldout-*/merge-log.txt'):
    for line in open(path):
        parts = line.split('\t')
        if len(parts) == 3:
            earlier.add(parts[1].strip().lower())
header = 'series,procs,time_s,metric,source,ranks_per_node,threads,nodes,machine,n_runs'.split(',')
series = OrderedDict()
repo_of = {}
log = []
for folder in sorted(d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, 'series.csv'))):
    if folder == 'S':
        continue
    with open(os.path.join(root, folder, 'series.csv'), newline='') as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != header:
            log.append(f'{folder}: header differs {reader.fieldnames}')
        for row in reader:
            name = row['series']
            m = re.match(r'github:([^@]+)@[0-9a-f]+:(.*)', row['source'])
            repo = m.group(1).lower() if m else row['source']
            if repo in earlier:
                log.append(f'{folder}/{name}: repository {repo} in an earlier held-out set, dropped')
                continue
            if m and (repo, m.group(2)) in committed:
                log.append(f'{folder}/{name}: source file in a committed set, dropped')
                continue
            key = name
            if key in series and repo_of[key] != (folder, repo):
                log.append(f'{folder}/{name}: name taken by {repo_of[key]}, renamed')
                key = f'{name}-{folder}'
            series.setdefault(key, []).append(dict(row, series=key))
            repo_of[key] = (folder, repo)
# a repository adopted by two folders: kept in the first folder only
first_folder = {}
for key, (folder, repo) in repo_of.items():
    first_folder.setdefault(repo, folder)
kept = OrderedDict()
for key, rows in series.items():
    folder, repo = repo_of[key]
    if first_folder[repo] != folder:
        log.append(f'{folder}/{key}: repository {repo} also in {first_folder[repo]}, dropped')
        continue
    procs = {int(float(r['procs'])) for r in rows}
    if len(procs) < 6:
        log.append(f'{folder}/{key}: {len(procs)} distinct P, dropped')
        continue
    if any(not (float(r['time_s']) > 0) for r in rows):
        log.append(f'{folder}/{key}: non-positive time, dropped')
        continue
    kept[key] = rows
# at most 4 series per repository: those with the most distinct P (then the first in order)
by_repo = defaultdict(list)
for key, rows in kept.items():
    by_repo[repo_of[key][1]].append(key)
for repo, keys in by_repo.items():
    if len(keys) > 4:
        ranked = sorted(keys, key=lambda k: -len({float(r['procs']) for r in kept[k]}))
        for k in ranked[4:]:
            log.append(f'{repo_of[k][0]}/{k}: fifth or later series of {repo}, dropped')
            del kept[k]
os.makedirs(os.path.join(root, 'S'), exist_ok=True)
with open(os.path.join(root, 'S', 'series.csv'), 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=header, lineterminator='\n', extrasaction='ignore')
    w.writeheader()
    for rows in kept.values():
        for r in sorted(rows, key=lambda r: float(r['procs'])):
            w.writerow(r)
print('\n'.join(log))
per_repo = defaultdict(int)
for key in kept:
    per_repo[repo_of[key]] += 1
for (folder, repo), n in sorted(per_repo.items()):
    print(f'{folder}\t{repo}\t{n}')
print(f'{len(kept)} series from {len(per_repo)} repositories')
