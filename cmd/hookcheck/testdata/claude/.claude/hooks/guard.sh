#!/bin/sh
# A Claude Code PreToolUse guard, as people write them: the call is JSON on
# stdin; exit 2 blocks with stderr as the reason, and a JSON
# permissionDecision denies with its own.
input=$(cat)
case "$input" in
*'rm -rf'*)
  echo "rm -rf is not allowed" >&2
  exit 2 ;;
*curl*)
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no network from the shell"}}' ;;
esac
exit 0
