#!/bin/sh
# A Claude Code PreToolUse hook: lets WebFetch reach only example.com.
# agentloop's allow-hosts guard, written to Claude Code's protocol: it
# reads the hook input on stdin and answers with hookSpecificOutput.
input=$(cat)
case "$input" in
  *'"url":"https://example.com/'*|*'"url":"http://example.com/'*) exit 0 ;;
esac
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"WebFetch may only reach example.com"}}'
