#!/usr/bin/env python3
"""A PreToolUse guard in the style of the public examples: it refuses
edits to .env files and to anything under .git/, with a JSON deny."""
import json
import os
import sys

data = json.load(sys.stdin)
tool = data.get("tool_name", "")
path = data.get("tool_input", {}).get("file_path", "")
if tool in ("Write", "Edit", "MultiEdit"):
    name = os.path.basename(path)
    if name == ".env" or name.startswith(".env.") or "/.git/" in path:
        print(json.dumps({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": f"{path} holds secrets or repository internals; edit it by hand",
            }
        }))
        sys.exit(0)
sys.exit(0)
