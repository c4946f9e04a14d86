#!/bin/sh
# A pre_tool_call command hook: lets fetch reach only example.com.
# It reads the envelope on stdin and answers with a decision on stdout.
envelope=$(cat)
case "$envelope" in
  *'example.com/'*) echo '{}' ;;
  *) echo '{"decision":"block","reason":"fetch may only reach example.com"}' ;;
esac
