#!/usr/bin/env bash
# The engine's CPU time a move outside its search, by particle count: four games under retry, the measured engine
# at 100 playouts a try against the same binary at 100, its CPU time (/usr/bin/time) less the search time its
# --log-file records, over its genmoves; and the search's own time a genmove at 10 playouts (its set-up).
# Usage: cost.sh BINARY
set -euo pipefail
PG=$1; dir=$(mktemp -d)
for p in 128 512 1024; do
  for playouts in 100 10; do
    $PG match --games 4 --rules retry --seed 3 -q \
      --black "/usr/bin/time -a -o $dir/cpu-$p-$playouts -f %U:%S $PG gtp --playouts $playouts --threads 1 --seed {seed} --particles $p --log-file $dir/log-$p-$playouts.jsonl" \
      --white "$PG gtp --playouts 100 --threads 1 --seed {seed}1" > /dev/null 2>&1
  done
  python3 - "$dir" "$p" <<'PY'
import json, sys
d, p = sys.argv[1], sys.argv[2]
cpu = sum(float(u) + float(s) for u, s in (l.strip().split(':') for l in open(f'{d}/cpu-{p}-100') if ':' in l))
log = [json.loads(l) for l in open(f'{d}/log-{p}-100.jsonl')]
search = sum(x['search_time_ms'] for x in log) / 1000
setup = [json.loads(l)['search_time_ms'] for l in open(f'{d}/log-{p}-10.jsonl')]
print(f'{p:>5} particles: {len(log)} genmoves, CPU {cpu:.2f} s, search {search:.2f} s, '
      f'outside the search {1000 * (cpu - search) / len(log):.1f} ms a genmove; '
      f'search at 10 playouts {sum(setup) / len(setup):.2f} ms a genmove')
PY
done
rm -rf "$dir"
