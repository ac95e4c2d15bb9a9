#!/bin/bash
# Timed line, match seed 2: the candidate config and the defaults side by side, one game at a time each (one core
# each, so both under the same load). Run from the repository root; PG = the binary (38b9e2c's for these records),
# OUT = where the records go.
PG=${PG:-target/release/phantomgo}
OUT=${OUT:-results/stop45}
mkdir -p "$OUT"
run() { # name, extra options for both players
  $PG match --games 100 --rules retry --concurrency 1 --seed 2 -q \
    --black "$PG gtp --move-time 0.3 --threads 1 --seed {seed} $2" --black-name phantomgo \
    --white "$PG gtp --player pimc --move-time 0.3 --threads 1 --seed {seed}1 $2" --white-name pimc \
    --results "$OUT/timed-$1-s2.jsonl" > "$OUT/timed-$1-s2.txt" 2>&1
}
run cand "--config configs/candidate.toml" &
run def "" &
wait
