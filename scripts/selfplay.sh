#!/usr/bin/env bash
# selfplay.sh: the engine against itself (both sides default settings), with SGFs and JSON lines.
# Usage: scripts/selfplay.sh [GAMES] [more `phantomgo match` options, e.g. --size 7 --rules lose-turn]
# Environment: PHANTOMGO (binary, default target/release/phantomgo), TIME (MAIN[+BYO], default 10+1),
#              CONCURRENCY (games at once, default 1), OUT (output folder, default results/selfplay-DATE).
set -euo pipefail
PG=${PHANTOMGO:-target/release/phantomgo}
[ -x "$PG" ] || cargo build --release
games=${1:-100}
shift || true
out=${OUT:-results/selfplay-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
"$PG" match --games "$games" --time "${TIME:-10+1}" --concurrency "${CONCURRENCY:-1}" \
  --sgf "$out/sgf" --results "$out/games.jsonl" "$@" | tee "$out/table.txt"
