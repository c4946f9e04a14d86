#!/usr/bin/env node
// A UserPromptSubmit hook in the style of the public examples: it blocks a
// prompt that holds a secret, and otherwise adds context for the model.
let raw = "";
process.stdin.on("data", (d) => (raw += d));
process.stdin.on("end", () => {
  const input = JSON.parse(raw);
  if (/password\s*[:=]/i.test(input.prompt)) {
    console.log(JSON.stringify({ decision: "block", reason: "Your prompt holds a password; remove it and try again." }));
    return;
  }
  console.log(JSON.stringify({
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "The user's prompt was checked for secrets." },
  }));
});
