#!/bin/sh
# Starts a child that sleeps, writes the child's pid to $1, and hangs.
cat >/dev/null
sleep 300 &
echo $! >"$1"
sleep 300
