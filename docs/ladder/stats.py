"""Shared helpers of the ladder folders' summary scripts (stop 53 on): 95% Wilson intervals, Elo, reading match
records (.jsonl or .jsonl.gz), one line's wins printed with its interval, the games won by only one of two engines
on the same match seed, and the two-sided sign test on them. Imported by a folder's summary.py with `sys.path.insert(0, "..")`."""
import gzip, json
from math import comb, log10, sqrt


def wilson(k, n, z=1.96):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def elo(p):
    p = min(max(p, 1e-9), 1 - 1e-9)
    return -400 * log10(1 / p - 1)


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    return [json.loads(l) for l in opener(path, "rt")]


def line(label, games, side_a):
    """Prints side_a's wins in games with the interval, its share as Black and as White and the Elo; returns the wins."""
    n = len(games)
    k = sum(g["winner_engine"] == side_a for g in games)
    black = [g for g in games if g["black"] == side_a]
    kb = sum(g["winner_engine"] == side_a for g in black)
    lo, hi = wilson(k, n)
    print(f"{label}: {k} of {n} ({100 * lo:.1f}-{100 * hi:.1f}%; as Black {kb}/{len(black)}, "
          f"as White {k - kb}/{n - len(black)}); Elo {elo(k / n):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}]")
    return k


def only_each(new, old, a, b):
    """Pairs two records of the same match seed by game number: returns how many games both hold, how many of them
    engine a won in `new` and engine b lost in `old`, and the reverse."""
    won_new = {g["game"]: g["winner_engine"] == a for g in new}
    won_old = {g["game"]: g["winner_engine"] == b for g in old}
    common = set(won_new) & set(won_old)
    only_new = sum(won_new[k] and not won_old[k] for k in common)
    only_old = sum(won_old[k] and not won_new[k] for k in common)
    return len(common), only_new, only_old


def sign_test(a, b):
    """Two-sided sign test: a games won only by one engine, b only by the other."""
    n = a + b
    return min(1.0, 2 * sum(comb(n, i) for i in range(min(a, b) + 1)) / 2**n)
