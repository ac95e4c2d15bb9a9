"""Prints the figures of this stop's README from its records (python3 summary.py)."""
import gzip
import json

rows = [json.loads(l) for l in gzip.open("eng-ponder-idle-s7.jsonl.gz", "rt")]
times = sorted(r["time_used_ms"] for r in rows)
first = {}
for r in rows:
    first.setdefault((r["game"], r["move_number"]), r)
turns = list(first.values())
pondered = sorted(r["pondered"] for r in turns if r["pondered"] > 0)
print(f"engine tries {len(rows)}, over 255 ms {sum(t > 255 for t in times)}, slowest five {times[-5:]}")
print(f"{len(turns)} turns, {len(pondered)} ({100 * len(pondered) / len(turns):.1f}%) started from pondered visits, "
      f"median {pondered[len(pondered) // 2]}")
games = [json.loads(l) for l in gzip.open("timed-ponder-idle-s7.jsonl.gz", "rt")]
ours = lambda r: "black" if r["black"] == "phantomgo" else "white"
theirs = lambda r: "white" if r["black"] == "phantomgo" else "black"
won = [r for r in games if r["winner_engine"] == "phantomgo"]
print(f"won {len(won)} of {len(games)}; as Black {sum(ours(r) == 'black' for r in won)}, "
      f"as White {sum(ours(r) == 'white' for r in won)}")
print(f"slowest replies (runner): engine {max(r['time'][ours(r)]['max_s'] for r in games)} s, "
      f"pimc {max(r['time'][theirs(r)]['max_s'] for r in games)} s")
