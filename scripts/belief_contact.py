#!/usr/bin/env python3
"""Where the belief expects the opponent's stones against where they stand: by contact with our stones.

The match runner asks `phantom-belief` after each of an engine's turns; with `--transcript DIR` the grids are in
the transcripts (game-NNNNNN-black.txt / -white.txt) and with `--sgf DIR` the true games beside them. For every
point not holding one of the engine's stones, after each of its turns, the script adds the belief's stated
probability of an opponent stone there ("expected") and whether one stands there on the true board
("actual"), grouped by the point's contact with the engine's stones (next to two or more of them, to one, to
none) and by the phase of the game (the turn's move number: before 25, before 60, after). A ratio
expected / actual below 1 is a belief that puts too few of the opponent's stones there, above 1 too many.
Calibrated in sum over the board (the stone count is known), a belief can still misplace the stones between
these groups: a belief that spreads them far from ours when they stand in contact sees our groups safer and
the opponent's thinner than they are.

    phantomgo match ... --sgf sgf --transcript tr --results games.jsonl --black-name phantomgo ...
    scripts/belief_contact.py games.jsonl sgf tr [ENGINE_NAME]

ENGINE_NAME (default phantomgo) picks the seat whose grids are read, as the results name it.
"""
import json
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from belief_shape import neighbours, play, read_sgf  # noqa: E402

PHASES = ((0, 25, "moves 0-24"), (25, 60, "moves 25-59"), (60, 10**9, "moves 60+"))
CONTACTS = ("next to 2+ of ours", "next to 1 of ours", "not next to ours")


def grids(path, size):
    """The `phantom-belief` grids of a transcript, in order: {(x, y): percent}, y = 0 the top row."""
    lines = open(path).read().split("\n")
    found, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("< phantom-belief"):
            i += 1
            continue
        # "> =", the column letters, then one row per line: "> ROW  v v v ... ROW" from the top.
        rows = lines[i + 3 : i + 3 + size]
        grid = {}
        for row in rows:
            parts = row[1:].split()
            y = size - int(parts[0])
            for x, value in enumerate(parts[1 : 1 + size]):
                grid[(x, y)] = int(value)
        found.append(grid)
        i += 3 + size
    return found


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    results, sgf_dir, transcript_dir = sys.argv[1:4]
    name = sys.argv[4] if len(sys.argv) == 5 else "phantomgo"
    sums = defaultdict(lambda: [0.0, 0, 0])
    games = skipped = 0
    for line in open(results):
        record = json.loads(line)
        seat = "black" if record["black"] == name else "white" if record["white"] == name else None
        sgf = os.path.join(sgf_dir, f"game-{int(record['game']):05d}.sgf")
        transcript = os.path.join(transcript_dir, f"game-{int(record['game']):06d}-{seat}.txt")
        if seat is None or not os.path.exists(sgf) or not os.path.exists(transcript):
            skipped += 1
            continue
        size, moves = read_sgf(sgf)
        us, them = ("B", "W") if seat == "black" else ("W", "B")
        beliefs = grids(transcript, size)
        if len(beliefs) != sum(1 for colour, _ in moves if colour == us):
            skipped += 1  # a transcript that does not match its game (a crash, a cut-off game)
            continue
        games += 1
        board, turn = {}, 0
        for number, (colour, point) in enumerate(moves):
            play(board, colour, point, size)
            if colour != us:
                continue
            grid = beliefs[turn]
            turn += 1
            phase = next(label for low, high, label in PHASES if low <= number < high)
            for y in range(size):
                for x in range(size):
                    if board.get((x, y)) == us:
                        continue
                    ours = sum(1 for n in neighbours((x, y), size) if board.get(n) == us)
                    contact = CONTACTS[0] if ours >= 2 else CONTACTS[1] if ours == 1 else CONTACTS[2]
                    for key in ((seat, phase, contact), (seat, "all", contact), ("both", phase, contact)):
                        entry = sums[key]
                        entry[0] += grid[(x, y)] / 100
                        entry[1] += board.get((x, y)) == them
                        entry[2] += 1
    print(f"{games} games read ({skipped} skipped)")
    print("| seat | phase | points | contact | expected stones | actual stones | expected / actual |")
    print("|---|---|---|---|---|---|---|")
    for seat in ("black", "white", "both"):
        for phase in ["all"] + [label for _, _, label in PHASES]:
            for contact in CONTACTS:
                if (seat, phase, contact) not in sums:
                    continue
                expected, actual, points = sums[(seat, phase, contact)]
                ratio = f"{expected / actual:.2f}" if actual else "-"
                print(f"| {seat} | {phase} | {points} | {contact} | {expected:.0f} | {actual} | {ratio} |")


if __name__ == "__main__":
    main()
