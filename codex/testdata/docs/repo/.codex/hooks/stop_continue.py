#!/usr/bin/env python3
# Stop: send the turn on once to run the tests, then let it stop
# (the docs' decision:block continuation, guarded by stop_hook_active).
import json
import sys

event = json.load(sys.stdin)
if not event["stop_hook_active"] and "tests pass" not in (event["last_assistant_message"] or ""):
    print(json.dumps({"decision": "block", "reason": "Run the tests before you stop."}))
