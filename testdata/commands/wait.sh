#!/bin/sh
# Tells the test it started by writing to the FIFO $1, then hangs.
cat >/dev/null
echo started >"$1"
sleep 300
