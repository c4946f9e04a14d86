#!/bin/sh
# Exits non-zero with a message on stderr.
cat >/dev/null
echo "something broke" >&2
exit 3
