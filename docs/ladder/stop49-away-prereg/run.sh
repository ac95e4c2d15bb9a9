#!/bin/bash
# The pre-registered test of belief.refusal_repair = "away" (stop 49): 400 fresh Black games against pimc at
# 8000 playouts both (stop 47's Black line), seeds 510-517, 50 games a seed, the defaults and "away" on the same
# seeds one after the other. Run from the repository root; PG = the binary, OUT = where the records go.
#   PG=target/release/phantomgo OUT=results/stop49 docs/ladder/stop49-away-prereg/run.sh
PG=${PG:-target/release/phantomgo}; OUT=${OUT:-results/stop49}
for SEED in 510 511 512 513 514 515 516 517; do
  PG=$PG OUT=$OUT NAME=def SEED=$SEED N=50 docs/ladder/stop47-refusal-repair/black8k.sh
  PG=$PG OUT=$OUT NAME=away SEED=$SEED N=50 X="--set belief.refusal_repair=away" docs/ladder/stop47-refusal-repair/black8k.sh
done
