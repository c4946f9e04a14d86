#!/usr/bin/env python3
# A PreToolUse guard in the style of the public ones: it denies rm -rf with
# a JSON decision whose reason quotes the whole command, whatever its size.
import json, sys

data = json.load(sys.stdin)
cmd = data.get("tool_input", {}).get("command", "")
if "rm -rf" in cmd:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "refusing: " + cmd}}))
sys.exit(0)
