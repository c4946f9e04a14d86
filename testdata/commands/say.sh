#!/bin/sh
# An advisory hook: prints two lines for the host's log.
cat >/dev/null
echo "first line"
echo "second line"
