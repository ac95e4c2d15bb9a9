"""Prints the figures the README states: the widening probes at 4000 and 1000 playouts against the defaults
(sp4000-*.jsonl.gz, sp1000-*.jsonl.gz), the 4x line (4000 against 1000 playouts) with `search.widening=1` on both sides
(x4w1-s{seed}.jsonl.gz) paired game by game with the same seeds' games of the defaults
(../stop53-curve/x4-s{seed}.jsonl.gz), and the timed line against pimc with widening (timed-w1-s*.jsonl.gz)
beside the defaults' on the same seed (../stop53-curve/timed-s5.jsonl.gz); the defaults' timed line on a fresh
seed (timed-s6.jsonl.gz).
Run from this folder: python3 summary.py"""
import os, sys

sys.path.insert(0, "..")
from stats import line, load, only_each, sign_test  # noqa: E402

for path in sorted(p for p in os.listdir(".") if p.startswith("sp") and p.endswith(".jsonl.gz")):
    games = load(path)
    name = next(g["black"] if g["black"] != "def" else g["white"] for g in games)
    line(f"probe {path}", games, name)

seeds = sorted(int(p[len("x4w1-s"):-len(".jsonl.gz")]) for p in os.listdir(".") if p.startswith("x4w1-s") and p.endswith(".jsonl.gz"))
new_pooled, old_pooled, only_new, only_old = [], [], 0, 0
for seed in seeds:
    new = load(f"x4w1-s{seed}.jsonl.gz")
    old = load(f"../stop53-curve/x4-s{seed}.jsonl.gz")
    new_pooled += new
    old_pooled += old
    line(f"4x seed {seed} with widening", new, "x4000")
    _, a, b = only_each(new, old, "x4000", "x4000")
    only_new += a
    only_old += b
    print(f"    the defaults on seed {seed}: {sum(g['winner_engine'] == 'x4000' for g in old)} of {len(old)}")
line(f"4x seeds {seeds[0]}-{seeds[-1]} with widening", new_pooled, "x4000")
line(f"4x seeds {seeds[0]}-{seeds[-1]}, the defaults (stop 53)", old_pooled, "x4000")
print(f"4x games won only with widening {only_new}, only without {only_old}; two-sided sign test "
      f"p = {sign_test(only_new, only_old):.3f}")

for path in sorted(p for p in os.listdir(".") if p.startswith("timed-w1-s") and p.endswith(".jsonl.gz")):
    timed = load(path)
    line(f"0.3 s a move against pimc with widening ({path})", timed, "phantomgo-w1")
    slow = max(g["time"][s]["max_s"] for g in timed for s in ("black", "white") if g[s] == "phantomgo-w1")
    mean = sum(g["time"][s]["mean_s"] for g in timed for s in ("black", "white") if g[s] == "phantomgo-w1")
    print(f"    the engine's slowest reply {slow:.4f} s, its mean reply {mean / len(timed):.3f} s")
    seed = path[len("timed-w1-s"):-len(".jsonl.gz")]
    old_path = f"../stop53-curve/timed-s{seed}.jsonl.gz"
    if os.path.exists(old_path):
        old = load(old_path)
        line(f"    the defaults on seed {seed} (stop 53)", old, "phantomgo")
        _, a, b = only_each(timed, old, "phantomgo-w1", "phantomgo")
        print(f"    won only with widening {a}, only without {b}; sign test p = {sign_test(a, b):.3f}")
timed = load("timed-s6.jsonl.gz")
line("0.3 s a move against pimc, the defaults (binary bdcf855), match seed 6", timed, "phantomgo")
slow = max(g["time"][s]["max_s"] for g in timed for s in ("black", "white") if g[s] == "phantomgo")
mean = sum(g["time"][s]["mean_s"] for g in timed for s in ("black", "white") if g[s] == "phantomgo")
reasons = [g["reason"] for g in timed]
print(f"    the engine's slowest reply {slow:.4f} s, its mean reply {mean / len(timed):.3f} s; endings "
      f"{ {r: reasons.count(r) for r in sorted(set(reasons))} }")
