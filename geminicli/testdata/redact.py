#!/usr/bin/env python3
# AfterModel: replaces every "secret" in the reply with "[REDACTED]".
import json, sys
data = json.load(sys.stdin)
resp = data["llm_response"]
parts = resp["candidates"][0]["content"]["parts"]
if not any("secret" in p for p in parts):
    print("{}")
    sys.exit(0)
resp["candidates"][0]["content"]["parts"] = [p.replace("secret", "[REDACTED]") for p in parts]
print(json.dumps({"hookSpecificOutput": {"hookEventName": "AfterModel", "llm_response": resp}}))
