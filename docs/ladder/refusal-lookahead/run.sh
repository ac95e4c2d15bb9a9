#!/bin/sh
PG=/tmp/bin/pg-la
for v in la:0.02 def:0; do
  name=${v%%:*}; m=${v##*:}
  $PG match --games 100 --fixed-colors --rules retry --seed 504 --concurrency 2 -q \
    --black "$PG gtp --playouts 8000 --threads 1 --seed {seed} --set search.refusal_lookahead=$m" --black-name phantomgo \
    --white "$PG gtp --player pimc --playouts 8000 --threads 1 --seed {seed}1" --white-name pimc \
    --results /tmp/la/black8k-$name.jsonl > /tmp/la/black8k-$name.txt 2>&1
done
