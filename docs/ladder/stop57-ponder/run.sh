#!/bin/bash
# Timed line against pimc with pondering on (one game at a time: the ponder takes the core pimc does not use).
PG=/tmp/pg-ponder
SEED=$1; N=$2; TAG=$3; EXTRA=$4
$PG match --games $N --rules retry --concurrency 1 --seed $SEED -q \
  --black "$PG gtp --move-time 0.3 --threads 1 --seed {seed} $EXTRA --log-file /tmp/m/eng-$TAG-s$SEED.jsonl --game-id {game}" --black-name phantomgo \
  --white "$PG gtp --player pimc --move-time 0.3 --threads 1 --seed {seed}1" --white-name pimc \
  --results /tmp/m/timed-$TAG-s$SEED.jsonl > /tmp/m/timed-$TAG-s$SEED.txt 2>&1
