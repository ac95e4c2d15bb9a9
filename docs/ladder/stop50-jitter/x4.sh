#!/bin/bash
# The 4x line: 4000 against 1000 playouts, self-play, retry, one thread, colours alternating; X = options for both
# sides. Run from the repository root; PG, OUT, NAME, SEED, N as in black8k.sh.
#   NAME=x4-jit SEED=16 X="--set search.tie_jitter=0.0001" docs/ladder/stop50-jitter/x4.sh
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop50}; NAME=${NAME:?}; SEED=${SEED:-16}; N=${N:-100}; X=${X:-}
mkdir -p "$OUT"
$PG match --games "$N" --concurrency "${CONC:-2}" --seed "$SEED" -q \
  --black "$PG gtp --playouts 4000 --threads 1 --seed {seed} $X" --black-name x4000 \
  --white "$PG gtp --playouts 1000 --threads 1 --seed {seed}7 $X" --white-name x1000 \
  --results "$OUT/$NAME-s$SEED.jsonl" > "$OUT/$NAME-s$SEED.txt" 2>&1
