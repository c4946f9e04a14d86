#!/usr/bin/env python3
"""A SessionStart hook in the style of the public examples: it prints
plain text, which Claude Code adds to the context."""
import json
import sys

data = json.load(sys.stdin)
print(f"Session {data['session_id']} ({data['source']}): the project uses Go; run go test before you finish.")
