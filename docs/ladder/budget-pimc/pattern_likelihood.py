#!/usr/bin/env python3
"""How well 3x3 patterns predict a player's moves (stop 30, an analysis, not engine code).

For each move of the named player in the true games of a folder (`match --sgf`), every empty point's 3x3
neighbourhood (own / other / empty / off-board, the smallest of its 8 symmetric forms) and its line (1-4+);
a Bradley-Terry strength per pattern fitted by Coulom's minorization-maximization (one virtual win and loss
against strength 1) on the even-numbered games, scored on the odd-numbered ones (mean log-likelihood per
move, nats). The board replay is scripts/belief_shape.py's.

    docs/ladder/budget-pimc/pattern_likelihood.py SGF_DIR PLAYER_NAME_PART
"""
import collections
import glob
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from belief_shape import play, read_sgf  # noqa: E402

# The eight neighbours, in order around the point.
RING = [(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]
# The eight symmetries of the square: (swap the axes, flip x, flip y).
SYMMETRIES = [(swap, fx, fy) for swap in (False, True) for fx in (1, -1) for fy in (1, -1)]


def pattern(board, point, me, size):
    """The point's neighbourhood as the smallest of its symmetric codes, and its line (0-3, 3 = 4th or more)."""
    x, y = point
    codes = []
    for swap, fx, fy in SYMMETRIES:
        code = []
        for dx, dy in RING:
            if swap:
                dx, dy = dy, dx
            q = (x + dx * fx, y + dy * fy)
            if not (0 <= q[0] < size and 0 <= q[1] < size):
                code.append("#")
            elif q not in board:
                code.append(".")
            else:
                code.append("o" if board[q] == me else "x")
        codes.append("".join(code))
    return min(codes) + str(min(x, y, size - 1 - x, size - 1 - y, 3))


def samples(files, who):
    """Per move of `who`: its pattern, and how many empty points hold each pattern."""
    out = []
    for path in files:
        text = open(path).read()
        names = {c: (re.search(r"P%s\[([^\]]*)\]" % c, text) or [None, ""])[1].lower() for c in "BW"}
        size, moves = read_sgf(path)
        board = {}
        for colour, point in moves:
            if point is None or point in board:
                continue
            if who in names[colour]:
                empty = [(i, j) for i in range(size) for j in range(size) if (i, j) not in board]
                counts = collections.Counter(pattern(board, q, colour, size) for q in empty)
                out.append((pattern(board, point, colour, size), counts))
            play(board, colour, point, size)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    files = sorted(glob.glob(os.path.join(sys.argv[1], "*.sgf")))
    who = sys.argv[2].lower()
    train, test = samples(files[::2], who), samples(files[1::2], who)
    gamma = collections.defaultdict(lambda: 1.0)
    wins = collections.Counter(chosen for chosen, _ in train)
    for _ in range(60):
        denominator = collections.Counter()
        for _, counts in train:
            total = sum(n * gamma[p] for p, n in counts.items())
            for p, n in counts.items():
                denominator[p] += n / total
        for p in denominator:
            gamma[p] = (wins[p] + 1.0) / (denominator[p] + 2.0 / (gamma[p] + 1.0))

    def mean_log_likelihood(data):
        return sum(math.log(gamma[c] / sum(n * gamma[p] for p, n in counts.items())) for c, counts in data) / len(data)

    uniform = sum(-math.log(sum(counts.values())) for _, counts in test) / len(test)
    print(
        f"{who} train {len(train)} test {len(test)} uniform test {uniform:.4f} "
        f"pattern train {mean_log_likelihood(train):.4f} test {mean_log_likelihood(test):.4f} patterns {len(wins)}"
    )


if __name__ == "__main__":
    main()
