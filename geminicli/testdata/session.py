#!/usr/bin/env python3
# SessionStart: loads context; records the source it was given.
import json, sys
data = json.load(sys.stdin)
print(json.dumps({"systemMessage": "loaded for " + data["source"],
    "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "project rules: be brief"}}))
