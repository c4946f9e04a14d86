#!/usr/bin/env python3
# SessionStart: plain JSON adding developer context (the docs' output shape).
import json
import sys

event = json.load(sys.stdin)
print(json.dumps({
    "hookSpecificOutput": {
        "hookEventName": "SessionStart",
        "additionalContext": "Session notes: started from " + event["source"],
    }
}))
