#!/usr/bin/env python3
"""Table of outcomes per category from run.py's --report file(s), with the
largest peak RSS (MB) and the longest wall time (s) of the category's runs.
Usage: summarize.py OUTCOMES.jsonl [...]"""
import json
import sys
from collections import Counter, defaultdict

OUTCOMES = ["clean", "success", "unclean", "nonsense", "crash", "hang", "memory"]
table = defaultdict(Counter)
peak_rss, longest = defaultdict(float), defaultdict(float)
for path in sys.argv[1:]:
    for line in open(path):
        record = json.loads(line)
        category = record["category"]
        table[category][record["outcome"]] += 1
        peak_rss[category] = max(peak_rss[category], record.get("rss_mb") or 0.0)
        longest[category] = max(longest[category], record.get("seconds") or 0.0)
print("| category | cases | " + " | ".join(OUTCOMES) + " | peak RSS MB | longest s |")
print("|---|---:|" + "---:|" * (len(OUTCOMES) + 2))
total = Counter()
for category in sorted(table):
    total.update(table[category])
    print(f"| {category} | {sum(table[category].values())} | " +
          " | ".join(str(table[category][o]) for o in OUTCOMES) +
          f" | {peak_rss[category]:.0f} | {longest[category]:.1f} |")
print(f"| **all** | {sum(total.values())} | " + " | ".join(str(total[o]) for o in OUTCOMES) +
      f" | {max(peak_rss.values(), default=0):.0f} | {max(longest.values(), default=0):.1f} |")
