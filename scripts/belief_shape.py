#!/usr/bin/env python3
"""Compares the shape of the opponent's stones in the engine's particles with the true board's.

The engine's move log (`--log-file`, with `--game-id {game}` in its match command) gives, at each of its
tries, the mean number of the opponent's chains over the particles and the mean number of its stones in
chains with at most two liberties (`opponent_chains`, `opponent_weak`). The match's true games
(`match --sgf DIR`, files game-NNNNN.sgf) give the same two numbers on the true board before that try. The
table groups the tries by the opponent's stone count. Particles that scatter the opponent's stones more than
it plays them show more chains and more weak stones than the truth, and a search on them expects to kill
stones that are in fact safe.

    phantomgo match ... --sgf sgf --black "phantomgo gtp ... --log-file eng.jsonl --game-id {game}" ...
    scripts/belief_shape.py eng.jsonl sgf
"""
import json
import os
import re
import sys
from collections import defaultdict


def read_sgf(path):
    """The size and the moves of a true game: (colour, (x, y) or None for a pass)."""
    text = open(path).read()
    found = re.search(r"SZ\[(\d+)\]", text)
    size = int(found[1]) if found else 9
    moves = []
    for colour, vertex in re.findall(r";([BW])\[([a-z]{0,2})\]", text):
        if vertex in ("", "tt") or len(vertex) != 2:
            moves.append((colour, None))
        else:
            moves.append((colour, (ord(vertex[0]) - 97, ord(vertex[1]) - 97)))
    return size, moves


def neighbours(point, size):
    x, y = point
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < size and 0 <= y + dy < size:
            yield (x + dx, y + dy)


def chain(board, point, size):
    """The chain through `point` and its liberties."""
    colour, seen, stack, liberties = board[point], {point}, [point], set()
    while stack:
        for n in neighbours(stack.pop(), size):
            if n not in board:
                liberties.add(n)
            elif board[n] == colour and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen, liberties


def play(board, colour, point, size):
    """Plays a legal move of a true game: the stone, then the other side's chains left without liberty."""
    if point is None:
        return
    board[point] = colour
    for n in neighbours(point, size):
        if n in board and board[n] != colour:
            stones, liberties = chain(board, n, size)
            if not liberties:
                for s in stones:
                    del board[s]


def shape(board, colour, size):
    """(stones, chains, stones in chains with at most two liberties) of `colour`."""
    seen, chains, weak, stones = set(), 0, 0, 0
    for point, c in board.items():
        if c != colour or point in seen:
            continue
        members, liberties = chain(board, point, size)
        seen |= members
        chains += 1
        stones += len(members)
        if len(liberties) <= 2:
            weak += len(members)
    return stones, chains, weak


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    log, sgf_dir = sys.argv[1], sys.argv[2]
    games = {}
    bands = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    skipped = 0
    for line in open(log):
        entry = json.loads(line)
        game = entry.get("game")
        if game is None or "opponent_chains" not in entry:
            skipped += 1
            continue
        if game not in games:
            path = os.path.join(sgf_dir, f"game-{int(game):05d}.sgf")
            games[game] = read_sgf(path) if os.path.exists(path) else None
        if games[game] is None:
            skipped += 1
            continue
        size, moves = games[game]
        them = "W" if entry["color"] == "black" else "B"
        board = {}
        for colour, point in moves[: entry["move_number"]]:
            play(board, colour, point, size)
        stones, chains, weak = shape(board, them, size)
        band = bands[min(stones // 5, 7)]
        band[0] += 1
        band[1] += chains
        band[2] += entry["opponent_chains"]
        band[3] += weak
        band[4] += entry["opponent_weak"]
    print("| opponent stones | tries | chains, true | chains, particles | weak stones, true | weak stones, particles |")
    print("|---|---|---|---|---|---|")
    for key in sorted(bands):
        n, chains, p_chains, weak, p_weak = bands[key]
        label = f"{key * 5}-{key * 5 + 4}" if key < 7 else "35+"
        print(f"| {label} | {n} | {chains / n:.2f} | {p_chains / n:.2f} | {weak / n:.2f} | {p_weak / n:.2f} |")
    if skipped:
        print(f"({skipped} log lines without a game id, a shape or a record skipped)")


if __name__ == "__main__":
    main()
