#!/usr/bin/env bash
# record.sh FILE [OUT]: appends its stdin (one JSON line) and the Gemini
# variables to FILE, then prints OUT.
input=$(cat)
{
  printf '%s\n' "$input"
  printf 'env GEMINI_PROJECT_DIR=%s GEMINI_CWD=%s GEMINI_SESSION_ID=%s CLAUDE_PROJECT_DIR=%s GEMINI_PLANS_DIR=%s EXTRA=%s PWD=%s\n' \
    "$GEMINI_PROJECT_DIR" "$GEMINI_CWD" "$GEMINI_SESSION_ID" "$CLAUDE_PROJECT_DIR" "$GEMINI_PLANS_DIR" "$EXTRA" "$PWD"
} >>"$1"
out='{}'
[ $# -ge 2 ] && out=$2
printf '%s' "$out"
