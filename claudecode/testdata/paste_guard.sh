#!/usr/bin/env bash
# A PreToolUse guard as many are written: it pastes the command into its
# JSON deny as text (no json.dumps, no jq --arg), so a quote in the
# command breaks the JSON.
input=$(cat)
cmd=$(printf '%s' "$input" | jq -r '.tool_input.command // empty')
case "$cmd" in
*"rm -rf"*)
  echo "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"refused: $cmd\"}}"
  ;;
esac
exit 0
