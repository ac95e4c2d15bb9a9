"""Prints the registered test's figures: wins, games won only by each, the sign test, illegal tries, endings and
margins of the jitter's games (jit-s51*.jsonl.gz) and the defaults' (../stop49-lost-margin/lost-s51*.jsonl.gz).
Run from this folder: python3 summary.py"""
import collections, gzip, json
from math import comb


def load(path):
    return {g["game"]: g for g in map(json.loads, gzip.open(path, "rt"))}


arms = {"jitter 0.0001": "jit-s{}.jsonl.gz", "default": "../stop49-lost-margin/lost-s{}.jsonl.gz"}
games = {name: {} for name in arms}
for seed in range(510, 518):
    for name, pattern in arms.items():
        for k, g in load(pattern.format(seed)).items():
            games[name][(seed, k)] = g
won = {name: {k for k, g in gs.items() if g["winner"] == "black"} for name, gs in games.items()}
a, b = won["jitter 0.0001"], won["default"]
only_a, only_b = len(a - b), len(b - a)
n = only_a + only_b
p = min(1.0, 2 * sum(comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2**n)
for name, gs in games.items():
    lost = [-g["score"] for g in gs.values() if g["winner"] != "black"]
    ends = collections.Counter(g["reason"] for g in gs.values())
    illegal = sum(g["illegal_tries"]["black"] for g in gs.values()) / len(gs)
    print(f"{name}: {len(won[name])} of {len(gs)} won; illegal tries a game {illegal:.2f}; endings {dict(ends)}; "
          f"mean losing margin {sum(lost) / len(lost):.1f}; lost by 0.5: {sum(m == 0.5 for m in lost)}")
print(f"won only with the jitter {only_a}, only by the default {only_b}; two-sided sign test p = {p:.2f}")
