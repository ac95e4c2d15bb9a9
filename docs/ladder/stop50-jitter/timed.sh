#!/bin/bash
# Timed line: the engine against pimc at 0.3 s a move, retry, colours alternating, one game at a time; X = options
# for the engine only. Run two configs side by side (one core each, so that both play under the same load):
#   (NAME=jit X="--set search.tie_jitter=0.0001" docs/ladder/stop50-jitter/timed.sh &
#    NAME=def docs/ladder/stop50-jitter/timed.sh & wait)
# Run from the repository root. PG, OUT, NAME, SEED, N as in black8k.sh.
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop50}; NAME=${NAME:?}; SEED=${SEED:-4}; N=${N:-100}; X=${X:-}
mkdir -p "$OUT"
$PG match --games "$N" --rules retry --concurrency 1 --seed "$SEED" -q \
  --black "$PG gtp --move-time 0.3 --threads 1 --seed {seed} $X" --black-name phantomgo \
  --white "$PG gtp --player pimc --move-time 0.3 --threads 1 --seed {seed}1" --white-name pimc \
  --results "$OUT/timed-$NAME-s$SEED.jsonl" > "$OUT/timed-$NAME-s$SEED.txt" 2>&1
