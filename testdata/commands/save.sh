#!/bin/sh
# Saves the envelope to the file $1, then allows.
cat >"$1"
