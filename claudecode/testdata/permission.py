#!/usr/bin/env python3
"""A PermissionRequest hook: allows reads under the project (rewriting
the path to be relative), denies anything touching .env with a message,
and has no opinion otherwise."""
import json, sys

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if ".env" in path:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "secrets stay put", "interrupt": True}}}))
elif data["tool_name"] == "Read":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "updatedInput": {"file_path": path.lstrip("/")}}}}))
