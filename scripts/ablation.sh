#!/usr/bin/env bash
# ablation.sh: the search issue's ablation matrix, one match per component, the full engine (A) against the
# engine with one component changed (B):
#   info-gain   information gain in the search on      vs off
#   alpha       decaying exploration alpha             vs fixed alpha
#   resample    mutation resampling of particles       vs fresh random particles
#   particles   128 particles                          vs 32 particles
#
# The KNOBS table holds one line per ablation: name|engine options for A|engine options for B (any engine
# option, or `--set section.key=value` for a config key). Each line becomes one `phantomgo match` at a fixed
# playout count per move and one thread, so results do not depend on the machine's speed.
#
# Usage: scripts/ablation.sh [GAMES] [more `phantomgo match` options]
# Environment: PHANTOMGO, PLAYOUTS (default 1000), CONCURRENCY (default 2), ONLY (run just this knob),
# OUT (default results/ablation-DATE).
set -euo pipefail
KNOBS=(
  "info-gain|--set search.info_gain=true|--set search.info_gain=false"
  "alpha|--set search.alpha_decay_moves=50|--set search.alpha_decay_moves=0"
  "resample|--set belief.resampling=mutation|--set belief.resampling=fresh"
  "particles|--particles 128|--particles 32"
)
PG=${PHANTOMGO:-target/release/phantomgo}
[ -x "$PG" ] || cargo build --release
games=${1:-200}
shift || true
out=${OUT:-results/ablation-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
for knob in "${KNOBS[@]}"; do
  IFS='|' read -r name a b <<<"$knob"
  [ -n "${ONLY:-}" ] && [ "$ONLY" != "$name" ] && continue
  echo "== $name: [$a] vs [$b]"
  fixed="--playouts ${PLAYOUTS:-1000} --threads 1"
  "$PG" match --games "$games" --concurrency "${CONCURRENCY:-2}" \
    --black "RUST_LOG=warn $PG gtp --seed {seed} $fixed $a" --black-name "$name:$a" \
    --white "RUST_LOG=warn $PG gtp --seed {seed} $fixed $b" --white-name "$name:$b" \
    --sgf "$out/$name/sgf" --results "$out/$name.jsonl" "$@" | tee "$out/$name.txt"
done
