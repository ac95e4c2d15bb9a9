#!/bin/bash
A=/tmp/bin/pg-dk
E="$A gtp --seed {seed} --playouts 8000 --threads 1"
E2="$A gtp --seed {seed}7 --playouts 8000 --threads 1"
P="$A gtp --player pimc --seed {seed}7 --playouts 8000 --threads 1"
F="$A gtp --player flat --seed {seed}7 --playouts 8000 --threads 1"
run() { local name=$1; shift; mkdir -p sgf-$name; "$A" match "$@" --concurrency 2 --sgf sgf-$name --results $name.jsonl --force -q > $name.txt 2>&1; }
run pimc-retry --black "$E" --white "$P" --games 40 --seed 422 --rules retry
run self-retry --black "$E" --white "$E2" --games 40 --seed 421 --rules retry
run flat-retry --black "$E" --white "$F" --games 30 --seed 423 --rules retry
echo done
