#!/bin/bash
# The pre-registered test of configs/candidate.toml (stop 49): the candidate's 400 Black games against pimc at
# 8000 playouts both (stop 47's Black line), seeds 510-517, 50 games a seed, `--config configs/candidate.toml` on
# both sides (pimc reads the model too). The defaults' games on the same seeds are stop49-lost-margin's lost-sS
# records (the same engine). Run from the repository root; PG = the binary (d23a676's), OUT = where the records go.
#   PG=target/release/phantomgo OUT=results/stop49c docs/ladder/stop49-candidate-prereg/run.sh
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop49c}
for SEED in ${SEEDS:-510 511 512 513 514 515 516 517}; do
  PG=$PG OUT=$OUT NAME=cand SEED=$SEED N=50 X="--config configs/candidate.toml" docs/ladder/stop47-refusal-repair/black8k.sh
done
