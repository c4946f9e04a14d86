#!/bin/sh
# Prints far more than the output cap, forever.
cat >/dev/null
yes '{"decision":"allow"}'
