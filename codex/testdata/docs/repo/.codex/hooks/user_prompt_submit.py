#!/usr/bin/env python3
# UserPromptSubmit: block prompts holding an API key, else add context
# (the docs' block and additionalContext outputs).
import json
import re
import sys

event = json.load(sys.stdin)
if re.search(r"sk-[A-Za-z0-9]{20,}", event["prompt"]):
    print(json.dumps({"decision": "block", "reason": "The prompt holds an API key; remove it and resend."}))
else:
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "Turn " + event["turn_id"] + " on " + event["model"],
        }
    }))
