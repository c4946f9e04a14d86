#!/bin/sh
# A Claude Code PreToolUse hook: refuses rm -rf with exit 2, the reason
# on stderr, as Claude Code's documentation shows.
case "$(cat)" in
  *'rm -rf'*) echo "rm -rf is not allowed" >&2; exit 2 ;;
esac
exit 0
