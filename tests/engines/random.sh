#!/usr/bin/env bash
# random.sh: a tiny random Phantom Go engine for the match runner's tests.
# Speaks GTP + the phantom- extensions; keeps its own view (own stones, points tried illegal this turn,
# and stones given with `play`), tries random points outside it, answers every protocol command.
# Options: --seed N, --pass-after N (pass from the N+1-th genmove on), --belief (answer phantom-belief),
#          --slow SECS (sleep before each genmove), --resign-after N,
#          faults for tests: --crash-after N, --garbage-after N, --hang-after N (at the N+1-th genmove).
set -f
seed=1; pass_after=1000000; resign_after=0; belief=0; slow=""
crash_after=-1; garbage_after=-1; hang_after=-1
while [ $# -gt 0 ]; do
  case $1 in
    --seed) seed=$2; shift 2 ;;
    --pass-after) pass_after=$2; shift 2 ;;
    --resign-after) resign_after=$2; shift 2 ;;
    --belief) belief=1; shift ;;
    --slow) slow=$2; shift 2 ;;
    --crash-after) crash_after=$2; shift 2 ;;
    --garbage-after) garbage_after=$2; shift 2 ;;
    --hang-after) hang_after=$2; shift 2 ;;
    *) echo "random.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
RANDOM=$((seed % 32768))
letters=ABCDEFGHJKLMNOPQRST
size=9
declare -A taken=()
declare -A tried=()
last=""
genmoves=0

reply() { printf '=%s %s\n\n' "$id" "$1"; }
fail() { printf '?%s %s\n\n' "$id" "$1"; }
reset() { taken=(); tried=(); last=""; }

while IFS= read -r line; do
  line=${line%%#*}
  line=${line//$'\r'/}
  set -- $line
  [ $# -eq 0 ] && continue
  id=""
  if [[ $1 =~ ^[0-9]+$ ]]; then id=$1; shift; fi
  cmd=$1; shift
  case $cmd in
    protocol_version) reply 2 ;;
    name) reply random-sh ;;
    version) reply 1 ;;
    known_command)
      case $1 in
        phantom-belief) if [ $belief = 1 ]; then reply true; else reply false; fi ;;
        boardsize|clear_board|komi|play|genmove|undo|quit|phantom-rules|phantom-result|phantom-opponent) reply true ;;
        *) reply false ;;
      esac ;;
    list_commands) printf '=%s protocol_version\nname\nversion\nknown_command\nlist_commands\nboardsize\nclear_board\nkomi\nplay\ngenmove\nundo\nquit\nphantom-rules\nphantom-result\nphantom-opponent\n\n' "$id" ;;
    boardsize)
      if [ "$1" -ge 2 ] 2>/dev/null && [ "$1" -le 19 ]; then size=$1; reset; reply ""; else fail "unacceptable size"; fi ;;
    clear_board) reset; reply "" ;;
    komi|time_settings|time_left|phantom-rules) reply "" ;;
    play)
      v=${2^^}
      if [ "$v" != PASS ]; then taken[$v]=1; fi
      reply "" ;;
    genmove)
      genmoves=$((genmoves + 1))
      if [ $genmoves -gt $crash_after ] && [ $crash_after -ge 0 ]; then
        echo "random.sh: simulated crash at genmove $genmoves" >&2; exit 3
      fi
      if [ $genmoves -gt $garbage_after ] && [ $garbage_after -ge 0 ]; then
        echo "random.sh: about to print garbage" >&2
        printf 'hello, this is not GTP\n\n'; continue
      fi
      if [ $genmoves -gt $hang_after ] && [ $hang_after -ge 0 ]; then
        echo "random.sh: hanging at genmove $genmoves" >&2
        sleep 1000
      fi
      if [ -n "$slow" ]; then sleep "$slow"; fi
      if [ $resign_after -gt 0 ] && [ $genmoves -gt $resign_after ]; then reply resign; continue; fi
      last=""
      if [ $genmoves -le $pass_after ]; then
        for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
          i=$((RANDOM % (size * size)))
          v=${letters:$((i % size)):1}$((i / size + 1))
          if [ -z "${taken[$v]}" ] && [ -z "${tried[$v]}" ]; then last=$v; break; fi
        done
      fi
      if [ -z "$last" ]; then reply pass; else taken[$last]=1; reply "$last"; fi ;;
    undo)
      if [ -n "$last" ]; then unset "taken[$last]"; last=""; reply ""; else fail "cannot undo"; fi ;;
    phantom-result)
      if [ "$1" = illegal ]; then
        if [ -z "$last" ]; then fail "no try pending"; continue; fi
        unset "taken[$last]"; tried[$last]=1
      else
        tried=()
      fi
      last=""; reply "" ;;
    phantom-opponent)
      if [ "$1" = ok ]; then shift; for v in "$@"; do unset "taken[${v^^}]"; done; fi
      tried=(); last=""; reply "" ;;
    phantom-belief)
      if [ $belief = 0 ]; then fail "unknown command"; continue; fi
      out=""
      for ((row = size; row >= 1; row--)); do
        out+=$'\n'"$row"
        for ((col = 0; col < size; col++)); do
          v=${letters:$col:1}$row
          if [ -n "${taken[$v]}" ]; then out+=" 0"; else out+=" 20"; fi
        done
      done
      reply "$out" ;;
    final_score) reply 0 ;;
    showboard) reply "" ;;
    quit) reply ""; exit 0 ;;
    *) fail "unknown command" ;;
  esac
done
