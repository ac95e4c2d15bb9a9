#!/bin/bash
# Probe: self-play at P playouts (4000) both sides, retry, one thread, colours alternating, sides seeded apart;
# A = the engine with options X (named NAME), B = the defaults ("def"). Run from the repository root.
#   NAME=rootk100 X="--set search.root_rave_equivalence=100" docs/ladder/stop53-curve/probe.sh
# For the unvisited.patch probes A ran a binary built with that patch: A_PG="env PG_UF=0 /tmp/pg-uf" NAME=uf0 X="".
# PG = the binary (B's, and A's unless A_PG), OUT = where the records go, SEED, N as in curve.sh.
PG=${PG:-target/release/phantomgo}; A_PG=${A_PG:-$PG}; OUT=${OUT:-results/stop53}; NAME=${NAME:?}; X=${X-}
SEED=${SEED:-61}; N=${N:-100}; P=${P:-4000}
mkdir -p "$OUT"
$PG match --games "$N" --concurrency "${CONC:-2}" --seed "$SEED" -q \
  --black "$A_PG gtp --playouts $P --threads 1 --seed {seed} $X" --black-name "$NAME" \
  --white "$PG gtp --playouts $P --threads 1 --seed {seed}7" --white-name def \
  --results "$OUT/sp$P-$NAME-s$SEED.jsonl" > "$OUT/sp$P-$NAME-s$SEED.txt" 2>&1
