"""Prints the figures the README states: the engine as Black against pimc at 20000 playouts both, the defaults
(base20k*.jsonl.gz) and the opponent mixture of hook.patch (`PG_OPPMIX=0.2`, mix20k*.jsonl.gz), match seeds 540
(the first 40 games), 541 (80 games) and 542 (50 games), paired game by game; and the timed line with the mixture against pimc
(timed-mix-s6.jsonl.gz) beside the defaults' on the same seed (../stop54-widening/timed-s6.jsonl.gz).
Run from this folder: python3 summary.py"""
import sys

sys.path.insert(0, "..")
from stats import line, load, only_each, sign_test  # noqa: E402


pooled_new, pooled_old, only_new, only_old = [], [], 0, 0
for suffix in ("", "-s541", "-s542"):
    new, old = load(f"mix20k{suffix}.jsonl.gz"), load(f"base20k{suffix}.jsonl.gz")
    names_new = {g["black"] for g in new}.pop()
    names_old = {g["black"] for g in old}.pop()
    old = [g for g in old if g["game"] in {h["game"] for h in new}]
    seed = f"seed {suffix[2:]}" if suffix else "seed 540"
    line(f"the mixture at 20000 as Black, {seed}", new, names_new)
    line(f"the defaults at 20000 as Black, {seed}", old, names_old)
    n, a, b = only_each(new, old, names_new, names_old)
    print(f"    {n} games paired: won only with the mixture {a}, only without {b}; sign test p = {sign_test(a, b):.3f}")
    pooled_new += new
    pooled_old += old
    only_new += a
    only_old += b
k_new = sum(g["winner"] == "black" for g in pooled_new)
k_old = sum(g["winner"] == "black" for g in pooled_old)
print(f"all three seeds: the mixture {k_new} of {len(pooled_new)}, the defaults {k_old} of {len(pooled_old)}; "
      f"won only with the mixture {only_new}, only without "
      f"{only_old}; sign test p = {sign_test(only_new, only_old):.3f}")
solid = load("solid1-20k.jsonl.gz")
print(f"PG_SOLID=1.0 at 20000 (stopped): {sum(g['winner'] == 'black' for g in solid)} of {len(solid)}")

timed = load("timed-mix-s6.jsonl.gz")
line("0.3 s a move against pimc with the mixture, seed 6", timed, "phantomgo-mix")
slow = sorted(((g["time"][s]["max_s"], s) for g in timed for s in ("black", "white") if g[s] == "phantomgo-mix"),
              reverse=True)
print(f"    the engine's slowest replies (a game's slowest, the engine's colour): {slow[:5]}")
slow = max(g["time"][s]["max_s"] for g in timed for s in ("black", "white") if g[s] == "pimc")
print(f"    pimc's slowest reply {slow:.4f} s")
old = load("../stop54-widening/timed-s6.jsonl.gz")
line("    the defaults on seed 6 (stop 54)", old, "phantomgo")
n, a, b = only_each(timed, old, "phantomgo-mix", "phantomgo")
print(f"    won only with the mixture {a}, only without {b}; sign test p = {sign_test(a, b):.3f}")

opt = load("timed-opt-s6.jsonl.gz")
line("the first 16 games again with `search.opponent_mix=0.2` (opponent-mix-option.patch)", opt, "phantomgo-mix")
slow = max(g["time"][s]["max_s"] for g in opt for s in ("black", "white") if g[s] == "phantomgo-mix")
log = load("timed-opt-s6-englog.jsonl.gz")
print(f"    slowest reply {slow:.4f} s; the move log's largest time_used_ms {max(r['time_used_ms'] for r in log):.1f}, "
      f"largest update_ms {max(r['update_ms'] for r in log):.1f}")
