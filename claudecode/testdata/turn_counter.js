#!/usr/bin/env node
// A UserPromptSubmit hook that counts the user's turns and the tool calls
// so far in the transcript, and tells the model.
const fs = require("fs");
let raw = "";
process.stdin.on("data", (d) => (raw += d));
process.stdin.on("end", () => {
  const input = JSON.parse(raw);
  let turns = 0, tools = 0, results = 0;
  for (const line of fs.readFileSync(input.transcript_path, "utf8").split("\n")) {
    if (!line) continue;
    const e = JSON.parse(line);
    const content = e.message.content;
    if (e.type === "user" && typeof content === "string") turns++;
    if (Array.isArray(content)) {
      tools += content.filter((b) => b.type === "tool_use").length;
      results += content.filter((b) => b.type === "tool_result").length;
    }
  }
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit",
    additionalContext: `turn ${turns}, ${tools} tool call(s), ${results} result(s) so far` } }));
});
