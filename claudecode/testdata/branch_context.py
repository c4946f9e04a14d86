#!/usr/bin/env python3
"""A PreToolUse hook that tells the model, before an edit, what branch it
is on (additionalContext), and lets the call through."""
import json, sys

data = json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {
    "hookEventName": "PreToolUse",
    "permissionDecision": "allow",
    "additionalContext": "Current git branch: feature/auth (before %s)" % data["tool_name"],
}}))
