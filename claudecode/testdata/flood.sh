#!/usr/bin/env bash
# flood.sh BYTES [EXIT] [ERRBYTES]: reads the hook input, prints BYTES bytes
# on stdout and ERRBYTES on stderr, and exits with EXIT (default 0).
cat >/dev/null
head -c "$1" /dev/zero | tr '\0' 'x'
[ -n "$3" ] && head -c "$3" /dev/zero | tr '\0' 'e' >&2
exit "${2:-0}"
