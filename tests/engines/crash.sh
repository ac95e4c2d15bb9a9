#!/usr/bin/env bash
# crash.sh: plays like random.sh, then exits with an error message at its 4th genmove.
exec bash "$(dirname "$0")/random.sh" --crash-after 3 "$@"
