#!/usr/bin/env python3
# PostToolUse: replace output that shows a secret with feedback, else add context
# (the docs' block and additionalContext outputs).
import json
import sys

event = json.load(sys.stdin)
response = json.dumps(event.get("tool_response"))
if "BEGIN PRIVATE KEY" in response:
    print(json.dumps({
        "decision": "block",
        "reason": "The command printed a private key; its output was withheld.",
    }))
else:
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": "Reviewed: " + event["tool_input"]["command"],
        }
    }))
