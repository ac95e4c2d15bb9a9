#!/bin/bash
# Timed line, match seed 2: candidate and default side by side, one game at a time each (one core each).
cd /tmp/s45
PG=/tmp/bin/pg-main
run() { # name, extra
  $PG match --games 100 --rules retry --concurrency 1 --seed 2 -q \
    --black "$PG gtp --move-time 0.3 --threads 1 --seed {seed} $2" --black-name phantomgo \
    --white "$PG gtp --player pimc --move-time 0.3 --threads 1 --seed {seed}1 $2" --white-name pimc \
    --results timed-$1-s2.jsonl > timed-$1-s2.txt 2>&1
}
run cand "--config /tmp/s45/candidate.toml" &
run def "" &
wait
