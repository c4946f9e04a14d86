#!/usr/bin/env bash
# record.sh FILE: appends the hook input, one line, to FILE, then the
# environment's CLAUDE_PROJECT_DIR and the working directory.
input=$(cat)
printf '%s\n' "$input" >>"$1"
printf 'CLAUDE_PROJECT_DIR=%s\n' "$CLAUDE_PROJECT_DIR" >>"$1"
printf 'PWD=%s\n' "$(pwd)" >>"$1"
