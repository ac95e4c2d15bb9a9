"""Prints the figures the README states: the engine at 0.3 s a move against pimc (`retry`), the defaults and the
opponent mixture (`--set search.opponent_mix=0.2`) played side by side from one binary, match seeds 7 (100 games)
and 8 (80 games), paired game by game; each line's slowest replies by the runner's clock; and, on seed 8, what
the engine's own move log (`*-englog.jsonl.gz`) says of the games with the slowest replies.
Run from this folder: python3 summary.py"""
import sys

sys.path.insert(0, "..")
from stats import line, load, only_each, sign_test  # noqa: E402


def slowest(games, name, n=5):
    return sorted(((g["time"][s]["max_s"], g["game"]) for g in games for s in ("black", "white") if g[s] == name),
                  reverse=True)[:n]


only_mix, only_def = 0, 0
for seed in (7, 8):
    mix, base = load(f"timed-mix-s{seed}.jsonl.gz"), load(f"timed-def-s{seed}.jsonl.gz")
    line(f"seed {seed}, the defaults", base, "phantomgo")
    line(f"seed {seed}, the mixture 0.2", mix, "phantomgo")
    n, a, b = only_each(mix, base, "phantomgo", "phantomgo")
    print(f"    {n} games paired: won only with the mixture {a}, only without {b}; sign test p = {sign_test(a, b):.3f}")
    only_mix += a
    only_def += b
    for label, games in (("the defaults", base), ("the mixture", mix)):
        print(f"    {label}: slowest replies (seconds, game) {slowest(games, 'phantomgo')}; "
              f"pimc's slowest {slowest(games, 'pimc', 1)[0][0]:.4f} s")
print(f"seeds 7-8: won only with the mixture {only_mix}, only without {only_def}; "
      f"sign test p = {sign_test(only_mix, only_def):.3f}")

seed6_mix = load("../stop55-black-levers/timed-mix-s6.jsonl.gz")
seed6_def = load("../stop54-widening/timed-s6.jsonl.gz")
n, a, b = only_each(seed6_mix, seed6_def, "phantomgo-mix", "phantomgo")
print(f"with stop 55's seed 6 (the defaults from stop 54's session): won only with the mixture {only_mix + a}, "
      f"only without {only_def + b}, over {n + 180} games")

for label in ("def", "mix"):
    games = load(f"timed-{label}-s8.jsonl.gz")
    log = load(f"timed-{label}-s8-englog.jsonl.gz")
    over = sum(r["time_used_ms"] > 255 for r in log)
    rates = sorted(r["simulations"] / r["search_time_ms"] for r in log if r["search_time_ms"] > 100)
    print(f"seed 8, {label}: {over} of {len(log)} tries over 255 ms; median simulations a ms in searches over 100 ms "
          f"{rates[len(rates) // 2]:.0f} (x 250 ms = {250 * rates[len(rates) // 2]:.0f})")
    worst = max(log, key=lambda r: r["time_used_ms"])
    print(f"seed 8, {label}: the move log's largest time_used_ms {worst['time_used_ms']:.1f} (search "
          f"{worst['search_time_ms']:.1f}, game {worst['game']}, move {worst['move_number']}), largest update_ms "
          f"{max(r['update_ms'] for r in log):.1f}")
    for secs, game in slowest(games, "phantomgo", 3):
        used = max(r["time_used_ms"] for r in log if r["game"] == game)
        print(f"    game {game}: slowest reply {secs:.4f} s by the runner, {used:.1f} ms by the engine's own clock")

import gzip  # noqa: E402

diag = load("diag-s9.jsonl.gz")
line("seed 9, the defaults with the overrun report (20 games)", diag, "phantomgo")
print(f"    slowest replies {slowest(diag, 'phantomgo', 3)}; pimc's slowest {slowest(diag, 'pimc', 1)[0][0]:.4f} s")
stderr = gzip.open("diag-s9-stderr.txt.gz", "rt").read().splitlines()
tries = sum("phantomgo::session] move" in l for l in stderr)
overruns = [l.split("budget of ")[1] for l in stderr if "overran" in l]
print(f"    {len(overruns)} overruns in {tries} tries:")
for o in overruns:
    print(f"      {o}")
