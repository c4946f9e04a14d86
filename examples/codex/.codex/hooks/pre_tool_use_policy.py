#!/usr/bin/env python3
# PreToolUse: deny destructive Bash commands (the docs' deny output).
import json
import sys

event = json.load(sys.stdin)
command = event.get("tool_input", {}).get("command", "")
if "rm -rf" in command:
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "Destructive command blocked by pre_tool_use_policy.py",
        }
    }))
