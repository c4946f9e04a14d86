#!/usr/bin/env bash
# take_turns.sh FILE PARITY: a Stop hook that ignores stop_hook_active and
# blocks every other time it runs (counted in FILE): on the odd runs when
# PARITY is 1, on the even ones when it is 0. Two settings sets with
# opposite parities take turns sending the run on.
cat >/dev/null
n=$(( $(cat "$1" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$1"
if [ $(( n % 2 )) -eq "$2" ]; then
  echo '{"decision":"block","reason":"my turn: keep going"}'
fi
exit 0
