#!/bin/bash
# The playout curve of the current engine: K*1000 against 1000 playouts, self-play, retry, one thread a side,
# colours alternating, sides seeded apart; X = options for both sides. Run from the repository root.
#   K=8 SEED=1 docs/ladder/stop53-curve/curve.sh
# PG = the binary, OUT = where the records go, N = games, CONC = games at a time.
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop53}; K=${K:?}; SEED=${SEED:-1}; N=${N:-100}; X=${X:-}
NAME=${NAME:-x$K}
mkdir -p "$OUT"
$PG match --games "$N" --concurrency "${CONC:-2}" --seed "$SEED" -q \
  --black "$PG gtp --playouts $((K * 1000)) --threads 1 --seed {seed} $X" --black-name "x$((K * 1000))" \
  --white "$PG gtp --playouts 1000 --threads 1 --seed {seed}7 $X" --white-name x1000 \
  --results "$OUT/$NAME-s$SEED.jsonl" > "$OUT/$NAME-s$SEED.txt" 2>&1
