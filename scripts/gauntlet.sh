#!/usr/bin/env bash
# gauntlet.sh: phantomgo against every rung of the ladder (random, flat, pimc, and GNU Go through `view:` when
# installed), under each illegal-try rule, then one table of all lines: side A's wins with the 95% Wilson
# interval, its Elo difference with the interval, end reasons, illegal tries per game and time per move of each side.
#
# Usage: scripts/gauntlet.sh [GAMES] [more `phantomgo match` options, e.g. --shard 1/4 --seed 2]
# Environment:
#   PHANTOMGO   the binary (default target/release/phantomgo, built when missing)
#   PLAYOUTS    fixed playouts per try for phantomgo, flat and pimc (default 1000), with --threads 1;
#   MOVE_TIME   or instead seconds per move for each of them (e.g. 0.3): a timed gauntlet
#   RULES       illegal-try rules to play (default "retry lose-turn")
#   RUNGS       rungs to play (default "random flat pimc gnugo"; gnugo only when installed)
#   A           the player under test (default "phantomgo" = `gtp` with the default mcts player; any
#               `--player` name works, so `A=flat RUNGS=pimc` plays the rungs against each other)
#   A_ARGS      extra options for side A only (e.g. "--set search.rave_equivalence=0"): an ablation line
#   OUT         output folder (default results/gauntlet-DATE); CONCURRENCY (default 1)
# Each match writes OUT/RULE/RUNG.{txt,jsonl} and its SGFs; the summary is OUT/summary.txt. Seeds differ
# between the two engines of a game: side A gets the game seed, the rung the game seed with a 1 appended.
# Shards of one line merge with `phantomgo match-merge OUT*/RULE/RUNG.jsonl`; rerunning this script with
# SUMMARY_ONLY=1 and the same OUT prints the table again from the stored outputs.
set -euo pipefail
PG=${PHANTOMGO:-target/release/phantomgo}
[ -x "$PG" ] || cargo build --release
games=${1:-200}
shift || true
out=${OUT:-results/gauntlet-$(date +%Y%m%d-%H%M%S)}
rules=${RULES:-retry lose-turn}
rungs=${RUNGS:-random flat pimc gnugo}
a=${A:-phantomgo}
if [ -n "${MOVE_TIME:-}" ]; then
  budget="--move-time $MOVE_TIME"
else
  budget="--playouts ${PLAYOUTS:-1000}"
fi
engine() { # NAME SEED: the command line of a built-in player
  local player=""
  [ "$1" != phantomgo ] && player="--player $1"
  [ "$1" = random ] && { echo "$PG gtp --player random --seed $2"; return; }
  echo "$PG gtp $player $budget --threads 1 --seed $2"
}
find_tool() { command -v "$1" 2>/dev/null || { [ -x "/usr/games/$1" ] && echo "/usr/games/$1"; } || true; }

if [ -z "${SUMMARY_ONLY:-}" ]; then
  for rule in $rules; do
    for rung in $rungs; do
      case $rung in
        gnugo)
          gnugo=$(find_tool gnugo)
          [ -z "$gnugo" ] && { echo "== gnugo not installed: skipped"; continue; }
          command="view:$gnugo --mode gtp --level 10" ;;
        *) command=$(engine "$rung" "{seed}1") ;;
      esac
      mkdir -p "$out/$rule"
      echo "== $a ${A_ARGS:-} vs $rung ($rule, $budget)"
      "$PG" match --games "$games" --rules "$rule" --concurrency "${CONCURRENCY:-1}" -q \
        --black "$(engine "$a" "{seed}") ${A_ARGS:-}" --black-name "$a" --white "$command" --white-name "$rung" \
        --sgf "$out/$rule/$rung-sgf" --results "$out/$rule/$rung.jsonl" "$@" | tee "$out/$rule/$rung.txt"
    done
  done
fi

# One line per match: the cells of the runner's table for side A (and B where it says more).
{
  printf '%-10s %-9s %5s %5s %-17s %-22s %-13s %-13s %-15s %s\n' rule rung games wins "95% Wilson" \
    "Elo [95%]" "illegal A/B" "s/move A/B" "max s/move A/B" endings
  for rule in $rules; do
    for rung in $rungs; do
      f="$out/$rule/$rung.txt"
      [ -f "$f" ] || continue
      awk -v rule="$rule" -v rung="$rung" -v a="$a" '
        # The runner lists engines in order of first appearance: find the column of side A.
        /^  A = / { sub(/^  A = /, ""); first = ($0 == a) }
        function pick(x, y) { return first ? x : y }
        /^games / { games = $2 }
        /^wins / { wins = pick($(NF-1), $NF) }
        /^  95% Wilson/ { wilson = pick($(NF-3) " " $(NF-2), $(NF-1) " " $NF) }
        /^Elo diff/ { elo = pick($(NF-5) " " $(NF-4) " " $(NF-3), $(NF-2) " " $(NF-1) " " $NF) }
        /^illegal tries\/game/ { illegal = pick($(NF-1) "/" $NF, $NF "/" $(NF-1)) }
        /^time\/move mean/ { mean = pick($(NF-1) "/" $NF, $NF "/" $(NF-1)) }
        /^time\/move max/ { max = pick($(NF-1) "/" $NF, $NF "/" $(NF-1)) }
        /^endings:/ { sub(/^endings: /, ""); endings = $0 }
        END { printf "%-10s %-9s %5s %5s %-17s %-22s %-13s %-13s %-15s %s\n",
              rule, rung, games, wins, wilson, elo, illegal, mean, max, endings }' "$f"
    done
  done
} | tee "$out/summary.txt"
