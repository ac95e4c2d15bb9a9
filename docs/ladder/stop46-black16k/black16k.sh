#!/bin/bash
# As Black against pimc at 16000 playouts both (--fixed-colors), the defaults and the candidate config side by
# side, one game at a time each (fixed playouts, so the load does not change the games). Run from the repository
# root; PG = the binary (8f3346f for these records), OUT = where the records go, SEED = the match seed (504, 60 games, in these
# records; a 505 run was stopped unrecorded), N = games.
PG=${PG:-target/release/phantomgo}
OUT=${OUT:-results/stop46}
SEED=${SEED:-504}
N=${N:-60}
mkdir -p "$OUT"
run() { # name, extra options for both players
  $PG match --games "$N" --fixed-colors --concurrency 1 --seed "$SEED" -q \
    --black "$PG gtp --playouts 16000 --threads 1 --seed {seed} $2" --black-name phantomgo \
    --white "$PG gtp --player pimc --playouts 16000 --threads 1 --seed {seed}1 $2" --white-name pimc \
    --results "$OUT/black16k-$1-s$SEED.jsonl" > "$OUT/black16k-$1-s$SEED.txt" 2>&1
}
run def "" &
run cand "--config configs/candidate.toml" &
wait
