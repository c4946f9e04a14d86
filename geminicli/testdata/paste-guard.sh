#!/usr/bin/env bash
# block-secrets.sh as many copy it: the reason quotes what was caught,
# pasted into the JSON as text, so a quote in the content breaks it.
input=$(cat)
content=$(echo "$input" | jq -r '.tool_input.content // ""')
if echo "$content" | grep -qE 'api[_-]?key|password|secret'; then
  echo "{\"decision\": \"deny\", \"reason\": \"Potential secret in: $content\"}"
  exit 0
fi
echo '{"decision": "allow"}'
