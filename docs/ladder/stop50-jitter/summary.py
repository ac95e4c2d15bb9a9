"""Prints the figures the README states: the registered test's wins with 95% Wilson intervals, games won only by
each, the sign test, illegal tries, endings and margins (jit-s51*.jsonl.gz against
../stop49-lost-margin/lost-s51*.jsonl.gz); the two self-play probes pooled; the timed pair's slowest replies.
Run from this folder: python3 summary.py"""
import collections, gzip, json
from math import comb, sqrt


def wilson(k, n, z=1.96):
    p = k / n
    centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * (centre - half):.1f}-{100 * (centre + half):.1f}%"


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
    print(f"{name}: {len(won[name])} of {len(gs)} won ({wilson(len(won[name]), len(gs))}); illegal tries a game {illegal:.2f}; endings {dict(ends)}; "
          f"mean losing margin {sum(lost) / len(lost):.1f}; lost by 0.5: {sum(m == 0.5 for m in lost)}")
print(f"won only with the jitter {only_a}, only by the default {only_b}; two-sided sign test p = {p:.2f}")

probe = [g for seed in (601, 602) for g in load(f"sp8k-jit-s{seed}.jsonl.gz").values()]
k = sum(g["winner_engine"] == "jit1e-4" for g in probe)
print(f"self-play probes at 8000: 0.0001 won {k} of {len(probe)} ({wilson(k, len(probe))})")
for name in ("jit", "def"):
    slow = []
    for g in load(f"timed-{name}-s4.jsonl.gz").values():
        side = "black" if g["black"] == "phantomgo" else "white"
        slow.append((g["time"][side]["max_s"], g["game"], side))
    slow.sort(reverse=True)
    print(f"timed {name}: slowest replies of the engine (s, game, colour) {slow[:2]}")
