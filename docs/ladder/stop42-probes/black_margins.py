#!/usr/bin/env python3
"""Margins of the engine's games as Black in every timed retry record against pimc under docs/ladder.

Run from the repository root: python3 docs/ladder/stop42-probes/black_margins.py
Prints the count of Black games and, for losses and wins, how many ended by each margin (points).
"""
import collections
import glob
import gzip
import json


def records(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


files = [f for f in glob.glob("docs/ladder/**/retry/pimc.jsonl*", recursive=True) if "timed" in f]
lost, won, games = collections.Counter(), collections.Counter(), 0
for path in sorted(files):
    for r in records(path):
        if r["black"] != "phantomgo":
            continue
        games += 1
        (won if r["winner_engine"] == "phantomgo" else lost)[abs(r["score"])] += 1
print(f"{len(files)} records, {games} games as Black")
print("lost by:", sorted(lost.items())[:8], "of", sum(lost.values()))
print("won by: ", sorted(won.items())[:8], "of", sum(won.values()))
