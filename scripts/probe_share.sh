#!/usr/bin/env bash
# probe_share.sh: from engine move logs (`phantomgo --log-file`, one JSON line per move), the share of tries
# after move 50 at points the belief already considered settled (p * (1 - p) < 0.02), split into tries at
# points believed empty (ordinary moves) and at points believed to hold a stone (wasted probes).
# Usage: scripts/probe_share.sh LOG.jsonl [LOG.jsonl ...]     (needs jq)
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 LOG.jsonl..." >&2; exit 2; }
cat "$@" | jq -s '
  [.[] | select(.move_number >= 50 and .try != "pass" and .try != "resign")] as $late
  | ($late | map(select(.uncertainty < 0.02))) as $settled
  | { tries_after_move_50: ($late | length),
      settled_share: (if ($late | length) > 0 then (($settled | length) / ($late | length)) else 0 end),
      settled_believed_empty: ($settled | map(select(.p_opponent <= 0.5)) | length),
      settled_believed_stone: ($settled | map(select(.p_opponent > 0.5)) | length) }'
