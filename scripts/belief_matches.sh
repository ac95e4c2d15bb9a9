#!/bin/bash
# The belief measurements of issue 10: the engine at fixed 1000 playouts and one thread against itself (the
# two sides seeded {seed} and {seed}7), the random player and GNU Go level 10 through view:, under retry and
# lose-turn, one game at a time; then the fair-baseline ratio and illegal tries by kind of each results file.
#
#   PHANTOMGO=target/release/phantomgo OUT=results scripts/belief_matches.sh [SELF_GAMES] [RANDOM_GAMES] [GNUGO_GAMES]
set -euo pipefail
A=${PHANTOMGO:-phantomgo}
OUT=${OUT:-belief-results}
GNUGO=${GNUGO:-/usr/games/gnugo}
SELF=${1:-100}
RANDOM_GAMES=${2:-100}
GNU=${3:-30}
mkdir -p "$OUT"
E="$A gtp --seed {seed} --playouts 1000 --threads 1"
E2="$A gtp --seed {seed}7 --playouts 1000 --threads 1"
R="$A gtp --player random --seed {seed}7"
G="view:$GNUGO --mode gtp --level 10"
run() {
  local name=$1
  shift
  "$A" match "$@" --concurrency 1 --results "$OUT/$name.jsonl" -q > "$OUT/$name.txt"
}
run self-retry --black "$E" --white "$E2" --black-name engine --white-name engine2 --games "$SELF" --seed 201 --rules retry
run random-retry --black "$E" --white "$R" --black-name engine --white-name random --games "$RANDOM_GAMES" --seed 203 --rules retry
run self-lose --black "$E" --white "$E2" --black-name engine --white-name engine2 --games "$SELF" --seed 204 --rules lose-turn
run random-lose --black "$E" --white "$R" --black-name engine --white-name random --games "$RANDOM_GAMES" --seed 206 --rules lose-turn
if [ -x "$GNUGO" ]; then
  run gnugo-retry --black "$E" --white "$G" --black-name engine --white-name gnugo10 --games "$GNU" --seed 202 --rules retry
  run gnugo-lose --black "$E" --white "$G" --black-name engine --white-name gnugo10 --games "$GNU" --seed 205 --rules lose-turn
fi
ENGINES=engine,engine2 "$(dirname "$0")/belief_figures.py" "$OUT"/*.jsonl
