#!/usr/bin/env bash
# A PreToolUse guard that logs its input to stdout (a common debugging
# habit) and blocks rm -rf with exit 2, the reason on stderr.
input=$(cat)
printf '%s\n' "$input"
case "$input" in
  *"rm -rf"*) echo "no rm -rf" >&2; exit 2 ;;
esac
exit 0
