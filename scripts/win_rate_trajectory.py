#!/usr/bin/env python3
"""Reads the engine's win rates through its games: how well they predict the result, and where they fall.

The engine's move log (`--log-file`, with `--game-id {game}` in its match command) gives the search's win
rate at each try; the match's results file (`--results`) gives each game's result. For one colour of the
engine (the colour it played in the log lines read; `--fixed-colors` makes every game the same colour):

- calibration: at a few move numbers, the win rate of the engine's first try of its last turn so far,
  grouped in fifths, beside the share of those games the engine won;
- collapses: per kind of result (lost by half a point, lost by more, won by up to 3.5, won by more), how
  many games had a win rate of 0.8 or more by move 60, and how many had one turn whose first try's win
  rate stood 0.4 or more above the next turn's (a fall in one turn: what a run of refusals or a capture
  showed).

    phantomgo match ... --fixed-colors --results r.jsonl \
        --black "phantomgo gtp ... --log-file eng.jsonl --game-id {game}" --black-name phantomgo ...
    scripts/win_rate_trajectory.py r.jsonl eng.jsonl black phantomgo

Either file may be gzip-compressed (a name ending in .gz). A drawn game counts with the losses.
"""
import gzip
import json
import sys
from collections import defaultdict

CHECKPOINTS = (20, 30, 40, 50, 60)


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def load(results_path, log_path, colour):
    results = {}
    with open_text(results_path) as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                results[row["game"]] = row
    first = defaultdict(dict)
    with open_text(log_path) as f:
        for line in f:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("color") == colour and "game" in entry:
                first[entry["game"]].setdefault(entry["move_number"], entry["win_rate"])
    return results, first


def calibration(results, first, engine):
    for checkpoint in CHECKPOINTS:
        buckets = defaultdict(lambda: [0, 0, 0.0])
        for game, row in results.items():
            moves = [m for m in first[game] if m <= checkpoint]
            if not moves:
                continue
            rate = first[game][max(moves)]
            bucket = buckets[min(int(rate * 5), 4)]
            bucket[0] += 1
            bucket[1] += row["winner_engine"] == engine
            bucket[2] += rate
        cells = [
            "[%.1f, %.1f): %d games, predicted %.2f, won %.2f" % (k / 5, (k + 1) / 5, n, total / n, won / n)
            for k, (n, won, total) in sorted(buckets.items())
        ]
        print("move %d: %s" % (checkpoint, "; ".join(cells)))


def kind(score, won):
    margin = abs(score)
    if not won:
        return "lost by 0.5" if margin == 0.5 else "lost by more"
    return "won by up to 3.5" if margin <= 3.5 else "won by more"


def collapses(results, first, engine):
    table = defaultdict(lambda: [0, 0, 0])
    for game, row in results.items():
        turns = sorted(first[game])
        rates = [first[game][m] for m in turns]
        row_kind = kind(row["score"], row["winner_engine"] == engine)
        entry = table[row_kind]
        entry[0] += 1
        entry[1] += any(r >= 0.8 for m, r in zip(turns, rates) if m <= 60)
        entry[2] += any(a - b >= 0.4 for a, b in zip(rates, rates[1:]))
    print("result | games | win rate >= 0.8 by move 60 | a fall of 0.4 or more in one turn")
    for row_kind in ("lost by 0.5", "lost by more", "won by up to 3.5", "won by more"):
        n, high, fall = table[row_kind]
        print("%s | %d | %d | %d" % (row_kind, n, high, fall))


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    results, first = load(sys.argv[1], sys.argv[2], sys.argv[3])
    calibration(results, first, sys.argv[4])
    print()
    collapses(results, first, sys.argv[4])


if __name__ == "__main__":
    main()
