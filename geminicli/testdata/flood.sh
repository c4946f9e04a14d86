#!/usr/bin/env bash
# flood.sh: a deny followed by far more output than is read.
cat >/dev/null
printf '{"decision":"deny","reason":"%s"}' "$(head -c 400000 /dev/zero | tr '\0' x)"
