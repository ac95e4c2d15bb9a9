#!/bin/bash
# Timed line: the engine against pimc at 0.3 s a move, retry, colours alternating, one game at a time
# (run two configs side by side, one core each, so that both play under the same load).
# Run from the repository root. PG = the binary, OUT = where the records go, NAME, SEED, N, X as in black8k.sh.
#   (NAME=away X="--set belief.refusal_repair=away" docs/ladder/stop47-refusal-repair/timed.sh &
#    NAME=def docs/ladder/stop47-refusal-repair/timed.sh & wait)
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop47}; NAME=${NAME:?}; SEED=${SEED:-3}; N=${N:-100}; X=${X:-}
mkdir -p "$OUT"
$PG match --games "$N" --rules retry --concurrency 1 --seed "$SEED" -q \
  --black "$PG gtp --move-time 0.3 --threads 1 --seed {seed} $X" --black-name phantomgo \
  --white "$PG gtp --player pimc --move-time 0.3 --threads 1 --seed {seed}1 $X" --white-name pimc \
  --results "$OUT/timed-$NAME-s$SEED.jsonl" > "$OUT/timed-$NAME-s$SEED.txt" 2>&1
