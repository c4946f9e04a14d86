#!/bin/sh
# no-rm-rf, as a command hook (pre_tool_call, matcher "shell"): refuses
# calls whose arguments mention rm -rf.
if grep -q 'rm -rf'; then
  echo '{"decision":"block","reason":"rm -rf is not allowed"}'
fi
