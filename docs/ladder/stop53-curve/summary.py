"""Prints the figures the README states: the current engine's playout curve (2x and 8x against 1x in self-play
on match seeds 1-3, 4x on seeds 1-15; x{K}-s{seed}.jsonl.gz), each line's wins with 95% Wilson intervals, the
share as Black and as White, Elo with its interval, and the lines pooled; the 4x games paired with the same
seeds' games of the engine of stops 35-41 (../carry-consistent/curve4x-cc-s*.jsonl*); then the probes
(sp4000-*.jsonl.gz); the timed line against pimc with the budget anchor (timed-s5.jsonl.gz).
Run from this folder: python3 summary.py"""
import gzip, json, os
from math import comb, log10, sqrt


def wilson(k, n, z=1.96):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def elo(p):
    p = min(max(p, 1e-9), 1 - 1e-9)
    return -400 * log10(1 / p - 1)


def line(label, games, side_a):
    n = len(games)
    k = sum(g["winner_engine"] == side_a for g in games)
    black = [g for g in games if g["black"] == side_a]
    kb = sum(g["winner_engine"] == side_a for g in black)
    kw = k - kb
    lo, hi = wilson(k, n)
    print(f"{label}: {k} of {n} ({100 * lo:.1f}-{100 * hi:.1f}%; as Black {kb}/{len(black)}, as White {kw}/{n - len(black)}); "
          f"Elo {elo(k / n):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}]")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    return [json.loads(l) for l in opener(path, "rt")]


for k in (2, 4, 8):
    pooled, seeds = [], []
    for seed in range(1, 16):
        path = f"x{k}-s{seed}.jsonl.gz"
        if os.path.exists(path):
            games = load(path)
            pooled += games
            seeds.append(seed)
            line(f"{k}x seed {seed}", games, f"x{k * 1000}")
    line(f"{k}x seeds {seeds[0]}-{seeds[-1]}", pooled, f"x{k * 1000}")
    if len(seeds) > 3:
        line(f"{k}x seeds 1-3 only", [g for seed in (1, 2, 3) for g in load(f"x{k}-s{seed}.jsonl.gz")], f"x{k * 1000}")
only_now = only_then = 0
old_pooled = []
for seed in range(1, 16):
    old_path = next(p for p in (f"../carry-consistent/curve4x-cc-s{seed}.jsonl", f"../carry-consistent/curve4x-cc-s{seed}.jsonl.gz") if os.path.exists(p))
    old = {g["game"]: g["winner_engine"] == "phantomgo" for g in load(old_path)}
    old_pooled += load(old_path)
    new = {g["game"]: g["winner_engine"] == "x4000" for g in load(f"x4-s{seed}.jsonl.gz")}
    only_now += sum(new[k] and not old[k] for k in new)
    only_then += sum(old[k] and not new[k] for k in new)
line("4x seeds 1-15, the engine of stops 35-41 (../carry-consistent)", old_pooled, "phantomgo")
n = only_now + only_then
p = min(1.0, 2 * sum(comb(n, i) for i in range(min(only_now, only_then) + 1)) / 2**n)
print(f"4x games won only now {only_now}, only then {only_then}; two-sided sign test p = {p:.2f}")
for path in sorted(p for p in os.listdir(".") if p.startswith("sp4000-") and p.endswith(".jsonl.gz")):
    games = load(path)
    name = next(g["black"] if g["black"] != "def" else g["white"] for g in games)
    line(f"probe {path}", games, name)
line("4x seed 1, both sides with root RAVE k 16000", load("x4-rootk16000-s1.jsonl.gz"), "x4000")
timed = load("timed-s5.jsonl.gz")
line("0.3 s a move against pimc, match seed 5", timed, "phantomgo")
slow = sorted(((g["time"][side]["max_s"], g["game"], side) for g in timed
               for side in ("black", "white") if g[side] == "phantomgo"), reverse=True)
pimc_slow = max(g["time"][side]["max_s"] for g in timed for side in ("black", "white") if g[side] == "pimc")
mean = sum(g["time"][side]["mean_s"] for g in timed for side in ("black", "white") if g[side] == "phantomgo") / len(timed)
print(f"timed: the engine's slowest replies (s, game, colour) {slow[:3]}; its mean reply {mean:.3f} s; pimc's slowest {pimc_slow}")
