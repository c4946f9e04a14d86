#!/usr/bin/env python3
# AfterModel: hides anything that looks like an AWS access key from the reply.
import json, re, sys
data = json.load(sys.stdin)
resp = data["llm_response"]
parts = resp["candidates"][0]["content"]["parts"] if resp["candidates"] else []
redacted = [re.sub(r"AKIA[0-9A-Z]{16}", "[REDACTED KEY]", p) for p in parts]
if redacted == parts:
    print("{}")
else:
    resp["candidates"][0]["content"]["parts"] = redacted
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "AfterModel", "llm_response": resp}}))
