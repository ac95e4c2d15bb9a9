#!/bin/bash
# Fits the candidate opponent model configs/opponent_model_8000.toml (`belief.opponent_model = "fitted-8000"`):
# the same fit as scripts/fit_model.sh, on games at 8000 playouts a try instead of 1000, and without the random
# player (whose moves were a quarter of the shipped model's weight). Training matches: the engine against
# `pimc`, itself and `flat`, one thread, match seeds 422, 421 and 423 (disjoint from every measurement's
# seeds); `phantomgo fit-model --balance` weights engine, pimc and flat moves alike. Held-out games (scored,
# never fitted on): give folders of true-game SGFs as EVAL (docs/ladder/stop42-probes/black-timed-16's SGFs,
# 0.3 s a move, were used for the shipped candidate).
#
#   PHANTOMGO=target/release/phantomgo OUT=fit-8000 [EVAL=dir] scripts/fit_model_8000.sh [MODEL_FILE]
set -euo pipefail
A=${PHANTOMGO:-phantomgo}
OUT=${OUT:-fit-8000}
MODEL=${1:-configs/opponent_model_8000.toml}
mkdir -p "$OUT"
E="$A gtp --seed {seed} --playouts 8000 --threads 1"
E2="$A gtp --seed {seed}7 --playouts 8000 --threads 1"
P="$A gtp --player pimc --seed {seed}7 --playouts 8000 --threads 1"
F="$A gtp --player flat --seed {seed}7 --playouts 8000 --threads 1"
run() {
  local name=$1
  shift
  [ -d "$OUT/sgf-$name" ] && return 0
  mkdir -p "$OUT/sgf-$name.part"
  "$A" match "$@" --concurrency 2 --sgf "$OUT/sgf-$name.part" --results "$OUT/$name.jsonl" --force -q > "$OUT/$name.txt"
  mv "$OUT/sgf-$name.part" "$OUT/sgf-$name"
}
run pimc-retry --black "$E" --white "$P" --games 40 --seed 422 --rules retry
run self-retry --black "$E" --white "$E2" --games 40 --seed 421 --rules retry
run flat-retry --black "$E" --white "$F" --games 30 --seed 423 --rules retry
eval_args=()
[ -n "${EVAL:-}" ] && eval_args=(--eval "$EVAL")
"$A" fit-model --balance --out "$MODEL" \
  --train "$OUT/sgf-pimc-retry" --train "$OUT/sgf-self-retry" --train "$OUT/sgf-flat-retry" "${eval_args[@]}"
