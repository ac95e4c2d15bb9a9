#!/bin/bash
# The engine at 1000 playouts a try against pimc at 4000 (pimc reads the same belief), colours alternating, retry:
# where the engine's 1x stands on pimc's own 4x scale (x4.sh with P="--player pimc").
# Run from the repository root. PG, OUT, SEED, N, CONC as in x4.sh.
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop48}; SEED=${SEED:-1}; N=${N:-100}
mkdir -p "$OUT"
$PG match --games "$N" --rules retry --concurrency "${CONC:-2}" --seed "$SEED" -q \
  --black "$PG gtp --playouts 1000 --threads 1 --seed {seed}" --black-name phantomgo-1000 \
  --white "$PG gtp --player pimc --playouts 4000 --threads 1 --seed {seed}1" --white-name pimc-4000 \
  --results "$OUT/cross-1000-pimc4000-s$SEED.jsonl" > "$OUT/cross-1000-pimc4000-s$SEED.txt" 2>&1
