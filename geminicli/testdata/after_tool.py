#!/usr/bin/env python3
# AfterTool: hides a result holding "token=", adds context to others.
import json, sys
data = json.load(sys.stdin)
content = data["tool_response"]["llmContent"]
if "token=" in content:
    print(json.dumps({"decision": "deny", "reason": "the result held a credential"}))
else:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "AfterTool",
        "additionalContext": "checked <ok> by " + data["tool_name"]}}))
