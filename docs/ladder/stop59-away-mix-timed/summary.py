"""Prints the figures of this stop's README from its records (python3 summary.py)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from stats import load, only_each, sign_test, wilson  # noqa: E402

PG = "phantomgo"
won_by = lambda games: sum(g["winner_engine"] == PG for g in games)
black = lambda games: sum(g["winner_engine"] == PG for g in games if g["black"] == PG)
blacks = lambda games: sum(g["black"] == PG for g in games)

games = load("timed-am-s7.jsonl.gz")
n, won = len(games), won_by(games)
low, high = wilson(won, n)
print(f"away + mix, seed 7: {won} of {n} ({100 * low:.1f}-{100 * high:.1f}%); as Black {black(games)}/{blacks(games)}, "
      f"as White {won - black(games)}/{n - blacks(games)}")
defaults = [
    ("stop 57 defaults", "../stop57-ponder/timed-def-s7.jsonl.gz"),
    ("stop 56 defaults", "../stop56-timed-mix/timed-def-s7.jsonl.gz"),
]
for name, path in defaults + [
    ("stop 56 opponent_mix alone", "../stop56-timed-mix/timed-mix-s7.jsonl.gz"),
    ("stop 57 pondering", "../stop57-ponder/timed-ponder-s7.jsonl.gz"),
    ("stop 58 pimc-fitted model", "../stop58-pimc-model-timed/timed-pm-s7.jsonl.gz"),
]:
    other = load(path)
    _, only_both, only_other = only_each(games, other, PG, PG)
    print(f"  {name}: {won_by(other)} of {len(other)}; won only with away + mix {only_both}, "
          f"only by {name} {only_other}; sign test p = {sign_test(only_both, only_other):.3f}")
# The second line on the same games, stopped at the session's end (01:43 UTC) after 74 games, whatever its count.
games2 = load("timed-am2-s7.jsonl.gz")
won2 = won_by(games2)
low, high = wilson(won2, len(games2))
print(f"away + mix again (stopped at the session's end): {won2} of {len(games2)} ({100 * low:.1f}-{100 * high:.1f}%); "
      f"as Black {black(games2)}/{blacks(games2)}")
for name, path in defaults:
    other = [g for g in load(path) if g["game"] < len(games2)]
    _, only_both, only_other = only_each(games2, other, PG, PG)
    print(f"  {name} on those games: {won_by(other)} of {len(games2)}; won only with away + mix "
          f"{only_both}, only by {name} {only_other}")
total, n_total = won + won2, n + len(games2)
low, high = wilson(total, n_total)
print(f"both lines: {total} of {n_total} ({100 * low:.1f}-{100 * high:.1f}%)")
ours = lambda g: "black" if g["black"] == PG else "white"
theirs = lambda g: "white" if g["black"] == PG else "black"
print(f"slowest replies: engine {max(g['time'][ours(g)]['max_s'] for g in games + games2)} s, "
      f"pimc {max(g['time'][theirs(g)]['max_s'] for g in games + games2)} s")
