#!/bin/bash
# self-play at 4000 both: A = default binary with options $X, B = default
PG=/tmp/pg-base; NAME=${NAME:?}; X=${X:?}; SEED=${SEED:-61}; N=${N:-100}; P=${P:-4000}
$PG match --games "$N" --concurrency 2 --seed "$SEED" -q \
  --black "$PG gtp --playouts $P --threads 1 --seed {seed} $X" --black-name $NAME \
  --white "$PG gtp --playouts $P --threads 1 --seed {seed}7" --white-name def \
  --results results/stop53/sp${P}-$NAME-s$SEED.jsonl > results/stop53/sp${P}-$NAME-s$SEED.txt 2>&1
