#!/usr/bin/env bash
# The ralph loop's Stop hook, as the public plugin's stop-hook.sh does it:
# the loop goes on, feeding the prompt back, until the last assistant
# message in the transcript holds <promise>DONE</promise> or the
# iterations in STATE (FILE, "iteration max") run out.
set -euo pipefail
input=$(cat)
state="$1"
[ -f "$state" ] || exit 0
read -r iteration max <"$state"
transcript=$(jq -r '.transcript_path' <<<"$input")
last=$(grep '"type":"assistant"' "$transcript" | tail -1 |
  jq -r '.message.content | map(select(.type == "text")) | map(.text) | join("\n")')
if grep -q '<promise>DONE</promise>' <<<"$last"; then
  rm "$state"
  exit 0
fi
if [ "$iteration" -ge "$max" ]; then
  rm "$state"
  exit 0
fi
echo "$((iteration + 1)) $max" >"$state"
jq -n --arg r "Keep going: finish the task, then say <promise>DONE</promise>." '{decision: "block", reason: $r}'
