#!/usr/bin/env bash
# hang.sh FILE: starts a child that sleeps, writes the child's pid to
# FILE, and never ends by itself.
cat >/dev/null
sleep 1000 &
echo $! >"$1"
exec sleep 1000
