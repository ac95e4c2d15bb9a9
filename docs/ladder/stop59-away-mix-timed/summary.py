"""Prints the figures of this stop's README from its records (python3 summary.py)."""
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from stats import sign_test, wilson  # noqa: E402


def wins(path):
    """Game index -> whether phantomgo won, and the games themselves."""
    games = [json.loads(l) for l in gzip.open(path, "rt")]
    return {g["game"]: g["winner_engine"] == "phantomgo" for g in games}, games


both, games = wins("timed-am-s7.jsonl.gz")
n, won = len(both), sum(both.values())
low, high = wilson(won, n)
as_black = sum(both[g["game"]] for g in games if g["black"] == "phantomgo")
blacks = sum(1 for g in games if g["black"] == "phantomgo")
print(f"away + mix, seed 7: {won} of {n} ({100 * low:.1f}-{100 * high:.1f}%); as Black {as_black}/{blacks}, "
      f"as White {won - as_black}/{n - blacks}")
for name, path in [
    ("stop 57 defaults", "../stop57-ponder/timed-def-s7.jsonl.gz"),
    ("stop 56 defaults", "../stop56-timed-mix/timed-def-s7.jsonl.gz"),
    ("stop 56 opponent_mix alone", "../stop56-timed-mix/timed-mix-s7.jsonl.gz"),
    ("stop 57 pondering", "../stop57-ponder/timed-ponder-s7.jsonl.gz"),
    ("stop 58 pimc-fitted model", "../stop58-pimc-model-timed/timed-pm-s7.jsonl.gz"),
]:
    other, _ = wins(path)
    only_both = sum(both[g] and not other[g] for g in both)
    only_other = sum(other[g] and not both[g] for g in both)
    print(f"  {name}: {sum(other.values())} of {len(other)}; won only with away + mix {only_both}, "
          f"only by {name} {only_other}; sign test p = {sign_test(only_both, only_other):.3f}")
# The second line on the same games, stopped at the session's end (01:43 UTC) after 74 games, whatever its count.
second, games2 = wins("timed-am2-s7.jsonl.gz")
won2 = sum(second.values())
low, high = wilson(won2, len(second))
black2 = sum(second[g["game"]] for g in games2 if g["black"] == "phantomgo")
print(f"away + mix again (stopped at the session's end): {won2} of {len(second)} ({100 * low:.1f}-{100 * high:.1f}%); "
      f"as Black {black2}/{sum(1 for g in games2 if g['black'] == 'phantomgo')}")
for name, path in [
    ("stop 57 defaults", "../stop57-ponder/timed-def-s7.jsonl.gz"),
    ("stop 56 defaults", "../stop56-timed-mix/timed-def-s7.jsonl.gz"),
]:
    other, _ = wins(path)
    print(f"  {name} on those games: {sum(other[g] for g in second)} of {len(second)}; won only with away + mix "
          f"{sum(second[g] and not other[g] for g in second)}, only by {name} {sum(other[g] and not second[g] for g in second)}")
total, n_total = won + won2, n + len(second)
low, high = wilson(total, n_total)
print(f"both lines: {total} of {n_total} ({100 * low:.1f}-{100 * high:.1f}%)")
ours = lambda g: "black" if g["black"] == "phantomgo" else "white"
theirs = lambda g: "white" if g["black"] == "phantomgo" else "black"
print(f"slowest replies: engine {max(g['time'][ours(g)]['max_s'] for g in games + games2)} s, "
      f"pimc {max(g['time'][theirs(g)]['max_s'] for g in games + games2)} s")
