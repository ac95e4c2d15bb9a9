"""Prints the figures of this stop's README from its records (python3 summary.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from stats import load, only_each, sign_test, wilson  # noqa: E402

games = load("timed-pm-s7.jsonl.gz")
n, won = len(games), sum(g["winner_engine"] == "phantomgo" for g in games)
low, high = wilson(won, n)
as_black = sum(g["winner_engine"] == "phantomgo" for g in games if g["black"] == "phantomgo")
print(f"pimc-model, seed 7: {won} of {n} ({100 * low:.1f}-{100 * high:.1f}%); as Black {as_black}/50, "
      f"as White {won - as_black}/50")
for name, path in [
    ("stop 57 defaults", "../stop57-ponder/timed-def-s7.jsonl.gz"),
    ("stop 56 defaults", "../stop56-timed-mix/timed-def-s7.jsonl.gz"),
    ("stop 57 pondering", "../stop57-ponder/timed-ponder-s7.jsonl.gz"),
]:
    other = load(path)
    _, only_model, only_other = only_each(games, other, "phantomgo", "phantomgo")
    print(f"  {name}: {sum(g['winner_engine'] == 'phantomgo' for g in other)} of {len(other)}; won only with the "
          f"model {only_model}, only by {name} {only_other}; sign test p = {sign_test(only_model, only_other):.3f}")
ours = lambda g: "black" if g["black"] == "phantomgo" else "white"
theirs = lambda g: "white" if g["black"] == "phantomgo" else "black"
print(f"slowest replies: engine {max(g['time'][ours(g)]['max_s'] for g in games)} s, "
      f"pimc {max(g['time'][theirs(g)]['max_s'] for g in games)} s")
