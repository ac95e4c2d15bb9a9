#!/usr/bin/env bash
# tune.sh: plays one line per setting against a rung (the same seeds for every setting, so the lines are
# paired) and prints one table: the setting, wins with the 95% Wilson interval, Elo, illegal tries, endings.
# A tuned value is chosen by this table and recorded with it (docs/strength.md), not by hand edits.
#
# Usage: scripts/tune.sh GAMES "SETTING" ["SETTING" ...]
#   each SETTING is a list of engine options for side A, e.g. "--set search.exploration=0.15"; "" is the
#   defaults. Example:
#   scripts/tune.sh 100 "" "--set search.exploration=0.1" "--set search.rave_equivalence=300"
# Environment: RUNG (default pimc), RULE (default retry), PLAYOUTS (default 1000), SEED (default 1),
#   CONCURRENCY (default 2), OUT (default results/tune-DATE), PHANTOMGO (the binary).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/tune.sh GAMES SETTING [SETTING ...]" >&2; exit 2; }
games=$1
shift
out=${OUT:-results/tune-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
here=$(dirname "$0")
i=0
for setting in "$@"; do
  i=$((i + 1))
  A_ARGS="$setting" OUT="$out/$i" RUNGS="${RUNG:-pimc}" RULES="${RULE:-retry}" CONCURRENCY="${CONCURRENCY:-2}" \
    "$here/gauntlet.sh" "$games" --seed "${SEED:-1}" > "$out/$i.log" 2>&1
  line=$(tail -1 "$out/$i.log")
  printf '%s\t%s\n' "${setting:-defaults}" "$line" >> "$out/table.tsv"
done
echo "setting | rule rung games wins [Wilson] Elo illegal s/move max endings"
while IFS=$'\t' read -r setting line; do
  printf '%-45s | %s\n' "$setting" "$line"
done < "$out/table.tsv"
