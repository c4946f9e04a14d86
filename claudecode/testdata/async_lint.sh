#!/usr/bin/env bash
# async_lint.sh FIFO: an async PostToolUse hook (a linter that takes its
# time): it waits until something is written to FIFO, then reports.
cat >/dev/null
cat "$1" >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings in main.go"}}'
