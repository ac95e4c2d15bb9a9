#!/bin/bash
# Stop 55: the engine as Black (fixed colours) against pimc, `retry`, one thread a side, both at P playouts a try.
# PG = a build of main (104863e) with hook.patch applied; with no PG_* variable in ENVS it plays as the defaults.
#   NAME=base20k P=20000 N=40 black.sh
#   NAME=mix20k P=20000 N=40 ENVS="PG_OPPMIX=0.2" black.sh
PG=${PG:-/tmp/pg-hook}; NAME=${NAME:?}; P=${P:-8000}; N=${N:-60}; SEED=${SEED:-540}; ENVS=${ENVS-}; ARGS=${ARGS-}
OUT=${OUT:-.}; CONC=${CONC:-2}  # games at a time; the games do not depend on it
$PG match --games "$N" --fixed-colors --rules retry --concurrency "$CONC" --seed "$SEED" -q \
  --black "env $ENVS $PG gtp --playouts $P --threads 1 --seed {seed} $ARGS" --black-name "$NAME" \
  --white "$PG gtp --player pimc --playouts $P --threads 1 --seed {seed}1" --white-name pimc \
  --results "$OUT/$NAME.jsonl" > "$OUT/$NAME.txt" 2>&1
