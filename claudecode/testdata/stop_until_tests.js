#!/usr/bin/env node
// A Stop hook in the style of the public examples: it sends Claude on once
// to run the tests, and lets it stop when stop_hook_active says it already
// continued (the documented guard against endless loops).
let raw = "";
process.stdin.on("data", (d) => (raw += d));
process.stdin.on("end", () => {
  const input = JSON.parse(raw);
  if (input.stop_hook_active) {
    process.exit(0);
  }
  if (!/tests pass/i.test(input.last_assistant_message || "")) {
    console.log(JSON.stringify({ decision: "block", reason: "Run the tests and say whether they pass before you stop." }));
  }
  process.exit(0);
});
