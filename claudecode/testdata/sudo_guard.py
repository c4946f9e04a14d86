#!/usr/bin/env python3
"""A PreToolUse guard in the style of the public ones: rm is refused
unless the user wrote SUDO somewhere in the session, read from the
transcript (transcript_path, Claude Code's JSONL)."""
import json, sys

data = json.load(sys.stdin)
command = data.get("tool_input", {}).get("command", "")
if data.get("tool_name") != "Bash" or "rm " not in command:
    sys.exit(0)
sudo = False
with open(data["transcript_path"]) as f:
    for line in f:
        entry = json.loads(line)
        if entry.get("type") != "user":
            continue
        content = entry["message"]["content"]
        if isinstance(content, str) and "SUDO" in content:
            sudo = True
if not sudo:
    print("rm needs SUDO from the user", file=sys.stderr)
    sys.exit(2)
