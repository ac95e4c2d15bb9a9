#!/usr/bin/env bash
# gauntlet.sh: the engine against the built-in random player and against every plain GTP engine installed
# (GNU Go, Pachi, KataGo), the latter through the runner's view wrapper (`view:CMD`). One match per opponent.
# Usage: scripts/gauntlet.sh [GAMES] [more `phantomgo match` options]
# Environment: PHANTOMGO, TIME (default 10+1), CONCURRENCY (default 1), OUT;
#              KATAGO_MODEL and KATAGO_CONFIG (KataGo joins only when both are set).
set -euo pipefail
PG=${PHANTOMGO:-target/release/phantomgo}
[ -x "$PG" ] || cargo build --release
games=${1:-100}
shift || true
out=${OUT:-results/gauntlet-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
find_tool() { command -v "$1" 2>/dev/null || { [ -x "/usr/games/$1" ] && echo "/usr/games/$1"; } || true; }
opponents=("random|$PG gtp --player random --seed {seed}")
gnugo=$(find_tool gnugo)
[ -n "$gnugo" ] && opponents+=("gnugo|view:$gnugo --mode gtp --level 10")
pachi=$(find_tool pachi)
[ -n "$pachi" ] && opponents+=("pachi|view:$pachi -t =5000")
katago=$(find_tool katago)
if [ -n "$katago" ] && [ -n "${KATAGO_MODEL:-}" ] && [ -n "${KATAGO_CONFIG:-}" ]; then
  opponents+=("katago|view:$katago gtp -model $KATAGO_MODEL -config $KATAGO_CONFIG")
fi
for entry in "${opponents[@]}"; do
  IFS='|' read -r name command <<<"$entry"
  echo "== phantomgo vs $name"
  "$PG" match --games "$games" --time "${TIME:-10+1}" --concurrency "${CONCURRENCY:-1}" \
    --black "$PG gtp --seed {seed}" --black-name phantomgo --white "$command" --white-name "$name" \
    --sgf "$out/$name/sgf" --results "$out/$name.jsonl" "$@" | tee "$out/$name.txt"
done
