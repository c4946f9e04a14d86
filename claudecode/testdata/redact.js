#!/usr/bin/env node
// A PostToolUse hook: it redacts API keys from a tool's output
// (updatedToolOutput), and warns the user (systemMessage).
let raw = "";
process.stdin.on("data", (d) => (raw += d));
process.stdin.on("end", () => {
  const input = JSON.parse(raw);
  const text = typeof input.tool_response === "string" ? input.tool_response : JSON.stringify(input.tool_response);
  if (!/sk-[A-Za-z0-9]{8,}/.test(text)) return;
  console.log(JSON.stringify({
    systemMessage: "redacted an API key from " + input.tool_name + " output",
    hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: text.replace(/sk-[A-Za-z0-9]{8,}/g, "sk-REDACTED") },
  }));
});
