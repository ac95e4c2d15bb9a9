#!/usr/bin/env bash
# ablation.sh: the search issue's ablation matrix, one match per component, the full engine (A) against the
# engine with one component changed (B):
#   info-gain   information gain in the search on      vs off
#   alpha       decaying exploration alpha             vs fixed alpha
#   resample    mutation resampling of particles       vs fresh random particles
#   particles   128 particles                          vs 32 particles
#
# PLACEHOLDERS: the engine options below are `--set key=value` placeholders until the engine's real
# command-line options land; edit only the KNOBS table when they do (one line per ablation:
# name|options for A|options for B). Each line becomes one `phantomgo match`.
#
# Usage: scripts/ablation.sh [GAMES] [more `phantomgo match` options]
# Environment: PHANTOMGO, TIME (default 10+1), CONCURRENCY (default 1), OUT (default results/ablation-DATE).
set -euo pipefail
KNOBS=(
  "info-gain|--set search.info_gain=true|--set search.info_gain=false"
  "alpha|--set search.alpha=decay|--set search.alpha=fixed"
  "resample|--set belief.resample=mutation|--set belief.resample=fresh"
  "particles|--set belief.particles=128|--set belief.particles=32"
)
PG=${PHANTOMGO:-target/release/phantomgo}
[ -x "$PG" ] || cargo build --release
games=${1:-200}
shift || true
out=${OUT:-results/ablation-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
for knob in "${KNOBS[@]}"; do
  IFS='|' read -r name a b <<<"$knob"
  echo "== $name: [$a] vs [$b]"
  "$PG" match --games "$games" --time "${TIME:-10+1}" --concurrency "${CONCURRENCY:-1}" \
    --black "$PG gtp --seed {seed} $a" --black-name "$name:$a" \
    --white "$PG gtp --seed {seed} $b" --white-name "$name:$b" \
    --sgf "$out/$name/sgf" --results "$out/$name.jsonl" "$@" | tee "$out/$name.txt"
done
