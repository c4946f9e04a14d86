#!/bin/sh
# no-rm-rf as a command hook: run from the settings file's folder (the
# default workdir), it refuses calls whose arguments mention rm -rf.
if grep -q 'rm -rf'; then
  echo '{"decision":"block","reason":"rm -rf is not allowed"}'
fi
