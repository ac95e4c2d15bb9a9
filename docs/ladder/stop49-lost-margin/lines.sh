#!/bin/bash
# Stop 49's lines for the lost-position rule (play_on_when_lost): self-play endings (seed 91, --repetition draw,
# 1000 playouts, the two sides seeded apart) and the replay of game 2 of the Black line's seed 505 (stop 47) with
# transcripts. Run from the repository root with PG = the binary (1205802's for "before", d23a676's for "after")
# and OUT = where the records go.
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop49}; NAME=${NAME:-after}
mkdir -p "$OUT"
$PG match --games 200 --rules retry --repetition draw --seed 91 --concurrency 1 -q \
  --black "$PG gtp --playouts 1000 --threads 1 --seed {seed}" --white "$PG gtp --playouts 1000 --threads 1 --seed {seed}7" \
  --results "$OUT/selfplay-s91-$NAME.jsonl" > "$OUT/selfplay-s91-$NAME.txt" 2>&1
$PG match --games 40 --shard 3/40 --fixed-colors --seed 505 -q \
  --black "$PG gtp --playouts 8000 --threads 1 --seed {seed}" --black-name phantomgo \
  --white "$PG gtp --player pimc --playouts 8000 --threads 1 --seed {seed}1" --white-name pimc \
  --results "$OUT/replay-s505-g2-$NAME.jsonl" --transcript "$OUT/replay-s505-g2-$NAME" > /dev/null 2>&1
