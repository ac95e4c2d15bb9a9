#!/bin/bash
# Black line: the engine as Black against pimc, both 8000 playouts, one thread, fixed colours, retry.
# Run from the repository root. PG = the binary, OUT = where the records go, NAME = the records' name,
# SEED = match seed, N = games, X = options for both players (pimc reads the same belief), CONC = games at a time.
#   NAME=def SEED=504 N=40 docs/ladder/stop47-refusal-repair/black8k.sh
#   NAME=away SEED=504 N=40 X="--set belief.refusal_repair=away" docs/ladder/stop47-refusal-repair/black8k.sh
#   NAME=rootk1000 SEED=504 N=40 X="--set search.root_rave_equivalence=1000" docs/ladder/stop47-refusal-repair/black8k.sh
#   NAME=both SEED=504 N=40 X="--set belief.refusal_repair=away --set search.root_rave_equivalence=1000" docs/ladder/stop47-refusal-repair/black8k.sh
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop47}; NAME=${NAME:?}; SEED=${SEED:-504}; N=${N:-40}; X=${X:-}
mkdir -p "$OUT"
$PG match --games "$N" --fixed-colors --concurrency "${CONC:-2}" --seed "$SEED" -q \
  --black "$PG gtp --playouts 8000 --threads 1 --seed {seed} $X" --black-name phantomgo \
  --white "$PG gtp --player pimc --playouts 8000 --threads 1 --seed {seed}1 $X" --white-name pimc \
  --results "$OUT/$NAME-s$SEED.jsonl" > "$OUT/$NAME-s$SEED.txt" 2>&1
