#!/bin/bash
# Fits the belief's opponent model (configs/opponent_model.toml) on recorded true games: plays training
# matches with `match --sgf` (the engine at 1000 playouts, one thread, against GNU Go level 10 through view:,
# the random player, pimc and itself; match seeds 401-405, disjoint from every measurement's seeds), then
# `phantomgo fit-model --balance` (every player kind weighted equally) scores the models on held-out games
# (the GNU Go lose-turn games, seed 404) and writes the model.
#
#   PHANTOMGO=target/release/phantomgo OUT=fit-data scripts/fit_model.sh [GAMES_PER_MATCH] [MODEL_FILE]
set -euo pipefail
A=${PHANTOMGO:-phantomgo}
OUT=${OUT:-fit-data}
GNUGO=${GNUGO:-/usr/games/gnugo}
GAMES=${1:-30}
MODEL=${2:-configs/opponent_model.toml}
mkdir -p "$OUT"
E="$A gtp --seed {seed} --playouts 1000 --threads 1"
E2="$A gtp --seed {seed}7 --playouts 1000 --threads 1"
R="$A gtp --player random --seed {seed}7"
P="$A gtp --player pimc --seed {seed}7 --playouts 1000 --threads 1"
G="view:$GNUGO --mode gtp --level 10"
run() {
  local name=$1
  shift
  [ -d "$OUT/sgf-$name" ] && return 0
  mkdir -p "$OUT/sgf-$name.part"
  "$A" match "$@" --concurrency 2 --sgf "$OUT/sgf-$name.part" --results "$OUT/$name.jsonl" --force -q > "$OUT/$name.txt"
  mv "$OUT/sgf-$name.part" "$OUT/sgf-$name"
}
run gnugo-retry --black "$E" --white "$G" --games "$GAMES" --seed 401 --rules retry
run random-retry --black "$E" --white "$R" --games "$GAMES" --seed 402 --rules retry
run self-retry --black "$E" --white "$E2" --games "$GAMES" --seed 403 --rules retry
run gnugo-lose --black "$E" --white "$G" --games "$GAMES" --seed 404 --rules lose-turn
run pimc-retry --black "$E" --white "$P" --games "$GAMES" --seed 405 --rules retry
"$A" fit-model --balance --out "$MODEL" \
  --train "$OUT/sgf-gnugo-retry" --train "$OUT/sgf-random-retry" --train "$OUT/sgf-self-retry" \
  --train "$OUT/sgf-pimc-retry" --eval "$OUT/sgf-gnugo-lose"
