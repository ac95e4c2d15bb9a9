#!/bin/bash
# Black line: the engine as Black against pimc, both 8000 playouts, one thread, fixed colours, retry; X = options
# for the engine (Black) only. Run from the repository root. PG = the binary, OUT = where the records go,
# NAME = the records' name, SEED = match seed, N = games, CONC = games at a time.
#   NAME=jit SEED=510 N=50 X="--set search.tie_jitter=0.0001" docs/ladder/stop50-jitter/black8k.sh
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop50}; NAME=${NAME:?}; SEED=${SEED:-510}; N=${N:-50}; X=${X:-}
mkdir -p "$OUT"
$PG match --games "$N" --fixed-colors --concurrency "${CONC:-2}" --seed "$SEED" -q \
  --black "$PG gtp --playouts 8000 --threads 1 --seed {seed} $X" --black-name phantomgo \
  --white "$PG gtp --player pimc --playouts 8000 --threads 1 --seed {seed}1" --white-name pimc \
  --results "$OUT/$NAME-s$SEED.jsonl" > "$OUT/$NAME-s$SEED.txt" 2>&1
