#!/bin/bash
cd /tmp/s44
while pgrep -f "results /tmp/s44/obs-8k.jsonl" >/dev/null; do sleep 5; done
PG=/tmp/bin/pg-dk
M="--set belief.opponent_model=/tmp/s44/model8k.toml"
mkdir -p timed-obsm8k
$PG match --games 100 --rules retry --concurrency 2 -q \
  --black "$PG gtp --move-time 0.3 --threads 1 --seed {seed} $M --set search.observer_trees=true" --black-name phantomgo \
  --white "$PG gtp --player pimc --move-time 0.3 --threads 1 --seed {seed}1 $M" --white-name pimc \
  --sgf timed-obsm8k/sgf --results timed-obsm8k/pimc.jsonl > timed-obsm8k/pimc.txt 2>&1
