"""Prints the figures the README states: the current engine's playout curve (2x and 8x against 1x in self-play
on match seeds 1-3, 4x on seeds 1-15; x{K}-s{seed}.jsonl.gz), each line's wins with 95% Wilson intervals, the
share as Black and as White, Elo with its interval, and the lines pooled; the 4x games paired with the same
seeds' games of the engine of stops 35-41 (../carry-consistent/curve4x-cc-s*.jsonl*); then the probes
(sp4000-*.jsonl.gz); the timed line against pimc with the budget anchor (timed-s5.jsonl.gz).
Run from this folder: python3 summary.py"""
import os, sys

sys.path.insert(0, "..")
from stats import line, load, sign_test  # noqa: E402

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
p = sign_test(only_now, only_then)
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
