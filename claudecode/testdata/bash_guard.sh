#!/usr/bin/env bash
# A PreToolUse guard for Bash in the style of the public examples: it reads
# tool_input.command with jq (python3 when jq is missing) and refuses
# destructive commands with exit 2, the reason on stderr.
input=$(cat)
if command -v jq >/dev/null 2>&1; then
  cmd=$(printf '%s' "$input" | jq -r '.tool_input.command // empty')
else
  cmd=$(printf '%s' "$input" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("tool_input",{}).get("command",""))')
fi
if printf '%s' "$cmd" | grep -Eq 'rm[[:space:]]+-[a-zA-Z]*r[a-zA-Z]*f|git[[:space:]]+push[[:space:]].*--force'; then
  echo "Blocked: '$cmd' is destructive. Use a safer alternative." >&2
  exit 2
fi
exit 0
