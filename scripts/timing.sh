#!/usr/bin/env bash
# timing.sh: 100 sudden-death self-play games (default 30 s per side per game, no byo-yomi) and a count of
# time losses; any time loss means the engine's time manager is unsafe.
# Usage: scripts/timing.sh [GAMES] [more `phantomgo match` options]
# Environment: PHANTOMGO, MAIN (seconds per game, default 30), CONCURRENCY (default 1), OUT.
set -euo pipefail
PG=${PHANTOMGO:-target/release/phantomgo}
[ -x "$PG" ] || cargo build --release
games=${1:-100}
shift || true
out=${OUT:-results/timing-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
"$PG" match --games "$games" --time "${MAIN:-30}" --concurrency "${CONCURRENCY:-1}" \
  --results "$out/games.jsonl" "$@" | tee "$out/table.txt"
losses=$(grep -c '"reason":"time"' "$out/games.jsonl" || true)
echo "time losses: $losses of $games games"
[ "$losses" -eq 0 ]
