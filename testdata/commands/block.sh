#!/bin/sh
# Blocks tool calls whose arguments mention rm -rf.
if grep -q 'rm -rf'; then
  echo '{"decision":"block","reason":"rm -rf is not allowed"}'
else
  echo '{"decision":"allow"}'
fi
