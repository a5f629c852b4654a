#!/usr/bin/env python3
"""Table of outcomes per category from run.py's --report file(s).
Usage: summarize.py OUTCOMES.jsonl [...]"""
import json
import sys
from collections import Counter, defaultdict

OUTCOMES = ["clean", "success", "unclean", "nonsense", "crash", "hang", "memory"]
table = defaultdict(Counter)
for path in sys.argv[1:]:
    for line in open(path):
        record = json.loads(line)
        table[record["category"]][record["outcome"]] += 1
print("| category | cases | " + " | ".join(OUTCOMES) + " |")
print("|---|---:|" + "---:|" * len(OUTCOMES))
total = Counter()
for category in sorted(table):
    total.update(table[category])
    print(f"| {category} | {sum(table[category].values())} | " + " | ".join(str(table[category][o]) for o in OUTCOMES) + " |")
print(f"| **all** | {sum(total.values())} | " + " | ".join(str(total[o]) for o in OUTCOMES) + " |")
