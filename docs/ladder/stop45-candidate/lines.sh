#!/bin/bash
# The candidate config's self-play endings (seed 91, `--repetition draw`; the two sides seeded apart) and its line
# against `flat` under lose-turn (flat reads the same config, so the same opponent model), both at 1000 playouts,
# side by side. Run from the repository root; PG = the binary (38b9e2c's for these records), OUT = where they go.
PG=${PG:-target/release/phantomgo}
OUT=${OUT:-results/stop45}
X="--config configs/candidate.toml"
mkdir -p "$OUT"
$PG match --games 200 --rules retry --repetition draw --seed 91 --concurrency 1 -q \
  --black "$PG gtp --playouts 1000 --threads 1 --seed {seed} $X" --white "$PG gtp --playouts 1000 --threads 1 --seed {seed}7 $X" \
  --results "$OUT/selfplay-cand-s91.jsonl" > "$OUT/selfplay-cand-s91.txt" 2>&1 &
$PG match --games 200 --rules lose-turn --concurrency 1 -q \
  --black "$PG gtp --playouts 1000 --threads 1 --seed {seed} $X" --black-name phantomgo \
  --white "$PG gtp --player flat --playouts 1000 --threads 1 --seed {seed}1 $X" --white-name flat \
  --results "$OUT/flat-lose-cand.jsonl" > "$OUT/flat-lose-cand.txt" 2>&1 &
wait
