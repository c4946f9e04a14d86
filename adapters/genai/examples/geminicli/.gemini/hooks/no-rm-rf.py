#!/usr/bin/env python3
# BeforeTool guard: refuses rm -rf, with the reason the model reads.
import json, sys
call = json.load(sys.stdin)
if "rm -rf" in call["tool_input"].get("command", ""):
    print(json.dumps({"decision": "deny", "reason": "rm -rf is not allowed in this project"}))
else:
    print(json.dumps({"decision": "allow"}))
