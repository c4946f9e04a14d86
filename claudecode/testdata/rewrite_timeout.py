#!/usr/bin/env python3
"""A PreToolUse hook that rewrites a Bash command: it wraps it in
`timeout 60` and allows it (updatedInput). It keeps the other keys."""
import json
import sys

data = json.load(sys.stdin)
inp = dict(data.get("tool_input", {}))
cmd = inp.get("command", "")
if cmd and not cmd.startswith("timeout "):
    inp["command"] = "timeout 60 " + cmd
print(json.dumps({"hookSpecificOutput": {
    "hookEventName": "PreToolUse",
    "permissionDecision": "allow",
    "permissionDecisionReason": "wrapped in timeout",
    "updatedInput": inp,
}}))
