"""Summarises the TREE lines the experiment hook (tree-shape.patch) writes on stderr: by budget and game phase,
the deepest node's depth (moves from the root), the root tries, the most visited try's share of the
simulations and the mean number of nodes at each depth. Usage: python3 tree_shape.py < tree.log"""
import collections, re, sys

rows = []
for l in sys.stdin:
    m = re.search(r"move (\d+) sims (\d+) nodes (\d+) root_tries (\d+) top_visits (\d+) per_depth \[([^\]]*)\]", l)
    if m:
        move, sims, nodes, tries, top = map(int, m.groups()[:5])
        per = list(map(int, m.group(6).split(",")))
        rows.append((sims, move, tries, top, max(i for i, x in enumerate(per) if x), per))
for budget in (1000, 8000):
    for phase, (a, b) in {"moves 0-29": (0, 30), "moves 30-59": (30, 60), "moves 60+": (60, 999)}.items():
        s = [r for r in rows if budget * 0.9 <= r[0] <= budget * 1.6 and a <= r[1] < b]
        if s:
            depth = sorted(collections.Counter(r[4] for r in s).items())
            print(f"{budget} playouts, {phase}: {len(s)} searches; deepest node (depth: searches) {depth}; "
                  f"root tries {sum(r[2] for r in s) / len(s):.1f}; most visited try's share "
                  f"{sum(r[3] / r[0] for r in s) / len(s):.2f}; nodes at depth 0-5 "
                  f"{[round(sum(r[5][i] for r in s) / len(s)) for i in range(6)]}")
