#!/usr/bin/env python3
# A PreToolUse guard that prints its deny, then keeps an ASCII audit line
# of the command: a command with a non-ASCII character makes it crash
# (exit 1) after it printed the deny.
import json, sys

data = json.load(sys.stdin)
cmd = data.get("tool_input", {}).get("command", "")
if "rm -rf" in cmd:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"}}), flush=True)
    audit = ("denied: " + cmd).encode("ascii")
sys.exit(0)
