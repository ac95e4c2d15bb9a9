#!/usr/bin/env bash
# The belief's time on announcements (the move log's update_ms: belief updates, repairs, resamplings since the
# previous genmove) by board size and particle count: four self-play games under retry at 300 playouts a try,
# one thread a side, seed 7, both sides logged. Prints genmoves, the mean, median, 99th percentile and largest
# update_ms, the share of genmoves after a resampling, and the mean search time for scale.
# Usage: update-cost.sh BINARY
set -euo pipefail
PG=$1; dir=$(mktemp -d)
for size in 9 11; do
  for p in 1024 4096; do
    log=$dir/log-$size-$p.jsonl
    engine="$PG gtp --playouts 300 --threads 1 --particles $p --log-file $log --game-id {game}"
    $PG match --games 4 --size "$size" --rules retry --seed 7 -q --concurrency 1 \
      --black "$engine --seed {seed}" --white "$engine --seed {seed}1" --results "$dir/res-$size-$p.jsonl" > /dev/null 2>&1
    python3 - "$log" "$size" "$p" <<'PY'
import json, sys
path, size, p = sys.argv[1:]
lines = [json.loads(l) for l in open(path)]
u = sorted(x['update_ms'] for x in lines)
n = len(u)
# `resamplings` counts a game's resamplings so far: a genmove came after one when it grew since that side's last.
last, grew = {}, 0
for x in lines:
    key = (x['game'], x['color'])
    grew += x['resamplings'] > last.get(key, 0)
    last[key] = x['resamplings']
resampled = grew / n
search = sum(x['search_time_ms'] for x in lines) / n
print(f'{size}x{size} {p:>5} particles: {n} genmoves, update_ms mean {sum(u) / n:.1f}, median {u[n // 2]:.1f}, '
      f'p99 {u[int(n * 0.99)]:.1f}, max {u[-1]:.1f}; {100 * resampled:.0f}% after a resampling; '
      f'search {search:.1f} ms a genmove')
PY
  done
done
rm -rf "$dir"
