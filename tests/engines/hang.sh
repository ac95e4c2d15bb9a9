#!/usr/bin/env bash
# hang.sh: plays like random.sh, then never answers its 3rd genmove (a child process sleeps).
exec bash "$(dirname "$0")/random.sh" --hang-after 2 "$@"
