#!/usr/bin/env node
// Stop hook: the agent may only finish with a reply that has a "Summary:" line. Asks once; when
// Claude Code says the hook is already active (the agent is replying to it), it lets the agent stop.
let raw = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (raw += chunk));
process.stdin.on("end", () => {
  const input = JSON.parse(raw || "{}");
  if (input.stop_hook_active) process.exit(0);
  const last = String(input.last_assistant_message ?? "");
  if (/^Summary:/m.test(last)) process.exit(0);
  process.stdout.write(JSON.stringify({ decision: "block", reason: "End with a line starting 'Summary:' that says what changed." }));
});
