#!/usr/bin/env python3
# BeforeModel: "mock" answers without the model (deny + llm_response);
# "swap" switches the model and rewrites the last user message; "block"
# denies without a response.
import json, sys
mode = sys.argv[1]
req = json.load(sys.stdin)["llm_request"]
if mode == "mock":
    print(json.dumps({"decision": "deny", "reason": "mocked", "hookSpecificOutput": {
        "hookEventName": "BeforeModel",
        "llm_response": {"candidates": [{"content": {"role": "model", "parts": ["canned ", "answer"]}, "finishReason": "STOP"}],
                         "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}}}}))
elif mode == "swap":
    msgs = req["messages"]
    msgs[-1]["content"] = msgs[-1]["content"].upper()
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "BeforeModel",
        "llm_request": {"model": "gemini-2.5-flash-lite", "messages": msgs}}}))
elif mode == "block":
    print(json.dumps({"decision": "block", "reason": "quota exceeded"}))
