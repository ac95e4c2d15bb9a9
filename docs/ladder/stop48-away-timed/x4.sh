#!/bin/bash
# The 4x line: a player at 4000 playouts a try against the same player at 1000, colours alternating, retry.
# Run from the repository root. PG = the binary, OUT = where the records go, NAME = the records' name,
# SEED = match seed, N = games, X = options for both sides, P = extra options for both (e.g. "--player pimc"),
# CONC = games at a time.
#   NAME=away SEED=1 X="--set belief.refusal_repair=away" docs/ladder/stop48-away-timed/x4.sh
#   NAME=pimc SEED=1 P="--player pimc" docs/ladder/stop48-away-timed/x4.sh
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop48}; NAME=${NAME:?}; SEED=${SEED:-1}; N=${N:-100}
X=${X:-}; P=${P:-}
mkdir -p "$OUT"
$PG match --games "$N" --rules retry --concurrency "${CONC:-2}" --seed "$SEED" -q \
  --black "$PG gtp $P --playouts 4000 --threads 1 --seed {seed} $X" --black-name x4 \
  --white "$PG gtp $P --playouts 1000 --threads 1 --seed {seed}1 $X" --white-name x1 \
  --results "$OUT/x4-$NAME-s$SEED.jsonl" > "$OUT/x4-$NAME-s$SEED.txt" 2>&1
