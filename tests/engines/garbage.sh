#!/usr/bin/env bash
# garbage.sh: plays like random.sh, then answers its 4th genmove with text that is not GTP.
exec bash "$(dirname "$0")/random.sh" --garbage-after 3 "$@"
