#!/bin/bash
cd /tmp/s45
PG=/tmp/bin/pg-main
X="--config /tmp/s45/candidate.toml"
$PG match --games 200 --rules retry --repetition draw --seed 91 --concurrency 1 -q \
  --black "$PG gtp --playouts 1000 --threads 1 --seed {seed} $X" --white "$PG gtp --playouts 1000 --threads 1 --seed {seed}7 $X" \
  --results selfplay-cand-s91.jsonl > selfplay-cand-s91.txt 2>&1 &
$PG match --games 200 --rules lose-turn --concurrency 1 -q \
  --black "$PG gtp --playouts 1000 --threads 1 --seed {seed} $X" --black-name phantomgo \
  --white "$PG gtp --player flat --playouts 1000 --threads 1 --seed {seed}1 $X" --white-name flat \
  --results flat-lose-cand.jsonl > flat-lose-cand.txt 2>&1 &
wait
