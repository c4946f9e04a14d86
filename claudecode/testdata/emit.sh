#!/usr/bin/env bash
# emit.sh OUT [EXIT [ERR]]: reads the hook input, prints OUT on stdout and
# ERR on stderr, and exits with EXIT (default 0). A stand-in for any script
# whose answer a test wants to choose.
cat >/dev/null
[ -n "$1" ] && printf '%s\n' "$1"
[ -n "$3" ] && printf '%s\n' "$3" >&2
exit "${2:-0}"
