#!/usr/bin/env bash
# emit.sh OUT CODE ERR: prints OUT on stdout and ERR on stderr, exits CODE.
cat >/dev/null
printf '%s' "$1"
[ -n "$3" ] && printf '%s' "$3" >&2
exit "${2:-0}"
