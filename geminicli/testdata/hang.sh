#!/usr/bin/env bash
# hang.sh PIDFILE: starts a child that ignores SIGTERM, records its pid, waits.
cat >/dev/null
bash -c 'trap "" TERM; sleep 300' &
echo $! >"$1"
wait
