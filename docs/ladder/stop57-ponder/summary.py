"""Prints the figures the README states: the engine at 0.3 s a move against pimc (`retry`, match seed 7, one game at
a time), with pondering on (`--set engine.ponder_playouts=200000`) and with the defaults, from one binary, the lines
run one after the other; paired game by game with each other and with stop 56's seed-7 lines; from the engine's
own move logs, how many turns started from pondered visits and how many; each line's slowest replies.
Run from this folder: python3 summary.py"""
import gzip
import json
import sys

sys.path.insert(0, "..")
from stats import line, load, only_each, sign_test  # noqa: E402


def slowest(games, name, n=5):
    return sorted(((g["time"][s]["max_s"], g["game"]) for g in games for s in ("black", "white") if g[s] == name),
                  reverse=True)[:n]


def move_log(path):
    with gzip.open(path, "rt") as f:
        return [json.loads(l) for l in f if l.strip()]


ponder, base = load("timed-ponder-s7.jsonl.gz"), load("timed-def-s7.jsonl.gz")
line("seed 7, pondering", ponder, "phantomgo")
line("seed 7, the defaults (no pondering), same binary, after it", base, "phantomgo")
n, a, b = only_each(ponder, base, "phantomgo", "phantomgo")
print(f"    {n} games paired: won only with pondering {a}, only without {b}; sign test p = {sign_test(a, b):.3f}")
for label, old in (("defaults", "timed-def-s7"), ("mixture", "timed-mix-s7")):
    games = load(f"../stop56-timed-mix/{old}.jsonl.gz")
    line(f"stop 56's seed 7, {label} (side by side with its other line)", games, "phantomgo")
    n, a, b = only_each(ponder, games, "phantomgo", "phantomgo")
    print(f"    paired with pondering: won only with pondering {a}, only by stop 56's {label} {b}; "
          f"p = {sign_test(a, b):.3f}")
for label, games in (("pondering", ponder), ("the defaults", base)):
    print(f"{label}: slowest replies (seconds, game) {slowest(games, 'phantomgo')}; "
          f"pimc's slowest {slowest(games, 'pimc', 1)[0][0]:.4f} s")
    colours = {c: sum(1 for g in games if g[c] == "phantomgo") for c in ("black", "white")}
    wins = {c: sum(1 for g in games if g[c] == "phantomgo" and g["winner_engine"] == "phantomgo") for c in colours}
    print(f"    as Black {wins['black']} of {colours['black']}, as White {wins['white']} of {colours['white']}")

log = move_log("eng-ponder-s7.jsonl.gz")
first = {}
for r in log:
    first.setdefault((r["game"], r["move_number"]), r)
turns = list(first.values())
hits = [r for r in turns if r["pondered"] > 0]
retries = len(log) - len(turns)
pondered = sorted(r["pondered"] for r in hits)
sims = sorted(r["simulations"] for r in hits)
print(f"pondering's move log: {len(log)} tries, {len(turns)} turns ({retries} retries); {len(hits)} turns "
      f"({100 * len(hits) / len(turns):.1f}%) started from pondered visits, median {pondered[len(pondered) // 2]} "
      f"(max {pondered[-1]}), then a median {sims[len(sims) // 2]} simulations of their own; "
      f"{sum(r['simulations'] < 1000 for r in hits)} of them stopped early (under 1000, the leader safe)")
base_log = move_log("eng-def-s7.jsonl.gz")
for label, lg in (("pondering", log), ("the defaults", base_log)):
    full = sorted(r["simulations"] for r in lg if r["search_time_ms"] > 200)
    over = [r for r in lg if r["time_used_ms"] > 255]
    print(f"{label}: {len(over)} of {len(lg)} tries over 255 ms, {sum(r['search_time_ms'] > 250 for r in over)} of "
          f"them with the search itself over 250 ms")
    print(f"{label}: median simulations of a search that ran over 200 ms: {full[len(full) // 2]}; "
          f"largest time_used_ms {max(r['time_used_ms'] for r in lg):.1f}; largest update_ms "
          f"{max(r['update_ms'] for r in lg):.1f}")
