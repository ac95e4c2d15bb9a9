#!/usr/bin/env python3
"""Belief figures of match results (issue 10): per file, over the sides played by the engines named in
ENGINES (default: every side that answered phantom-belief), the fair ratio (mean per-turn engine Brier over
mean fair-baseline Brier, over all those turns), the uniform ratio, and illegal tries per game and side
split into found_new / hit_known / suicide_ko. The ratio's 95% interval is a percentile bootstrap over
games (2000 resamples, fixed seed).

    scripts/belief_figures.py results.jsonl [...]        # ENGINES=engine,engine2 to name the sides
"""
import json
import os
import random
import sys


def bootstrap(per_game, resamples=2000, seed=1):
    """95% percentile interval of sum(engine)/sum(fair) over games resampled with replacement."""
    if not per_game:
        return None
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        pick = [per_game[rng.randrange(len(per_game))] for _ in per_game]
        fair = sum(g[1] for g in pick)
        if fair > 0:
            ratios.append(sum(g[0] for g in pick) / fair)
    ratios.sort()
    return [ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]]


def figures(path, engines):
    turns = engine = fair = uniform = 0.0
    sides = 0
    kinds = {"found_new": 0, "hit_known": 0, "suicide_ko": 0}
    games = 0
    per_game = []
    calibration = [[0, 0, 0.0] for _ in range(10)]
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            games += 1
            game_engine = game_fair = 0.0
            for color in ("black", "white"):
                name = record[color]
                score = record["brier"][color]
                if engines and name not in engines:
                    continue
                if not engines and score is None:
                    continue
                sides += 1
                if score:
                    n = score["samples"]
                    turns += n
                    engine += score["engine"] * n
                    fair += score["brier_fair"] * n
                    uniform += score["brier_uniform"] * n
                    game_engine += score["engine"] * n
                    game_fair += score["brier_fair"] * n
                    for b, row in enumerate(score.get("calibration") or []):
                        calibration[b][0] += row["points"]
                        calibration[b][1] += row["stones"]
                        calibration[b][2] += row["p_sum"]
                split = (record.get("illegal_kinds") or {}).get(color)
                if split:
                    for k in kinds:
                        kinds[k] += split["total"][k]
            per_game.append((game_engine, game_fair))
    per_side = {k: v / sides for k, v in kinds.items()} if sides else {}
    return {
        "file": path,
        "games": games,
        "engine_sides": sides,
        "turns_scored": int(turns),
        "brier_engine": engine / turns if turns else None,
        "brier_fair": fair / turns if turns else None,
        "brier_uniform": uniform / turns if turns else None,
        # Reliability per tenth of [0, 1]: [points, mean stated probability, share holding a stone].
        "calibration": [[c[0], round(c[2] / c[0], 3), round(c[1] / c[0], 3)] for c in calibration if c[0]],
        "ratio_fair": engine / fair if fair else None,
        "ratio_fair_95": bootstrap(per_game),
        "ratio_uniform": engine / uniform if uniform else None,
        "illegal_per_side_game": per_side,
    }


def main():
    engines = [e for e in os.environ.get("ENGINES", "").split(",") if e]
    for path in sys.argv[1:]:
        print(json.dumps(figures(path, engines)))


if __name__ == "__main__":
    main()
