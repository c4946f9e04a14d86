#!/bin/bash
# stop: send the agent back once, until it has run the tests.
input=$(cat)
count=$(echo "$input" | jq -r '.loop_count')
if [ "$count" = "0" ]; then
  echo '{"followup_message":"Run the tests before you stop."}'
else
  echo '{}'
fi
