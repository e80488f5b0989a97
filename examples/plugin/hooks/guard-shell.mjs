#!/usr/bin/env node
// PreToolUse hook for Bash: deny commands that destroy work (recursive force-removal, hard resets,
// force pushes, disk formatting). Everything else passes through to the normal permission checks.
const DESTRUCTIVE = [
  { pattern: /\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*r|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\b/, why: "recursive force-removal (rm -rf)" },
  { pattern: /\bgit\s+reset\s+--hard\b/, why: "git reset --hard discards uncommitted work" },
  { pattern: /\bgit\s+clean\s+-[a-zA-Z]*f/, why: "git clean -f deletes untracked files" },
  { pattern: /\bgit\s+push\s+.*(--force\b|-f\b)/, why: "force push rewrites shared history" },
  { pattern: /\b(mkfs(\.\w+)?|wipefs)\b|\bdd\s+.*\bof=\/dev\//, why: "formats or overwrites a disk" },
];

let raw = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (raw += chunk));
process.stdin.on("end", () => {
  let input;
  try {
    input = JSON.parse(raw);
  } catch {
    process.stderr.write("guard-shell: hook input is not JSON\n");
    process.exit(1); // non-blocking error: Claude Code goes on
  }
  const command = String(input?.tool_input?.command ?? "");
  const hit = DESTRUCTIVE.find((d) => d.pattern.test(command));
  if (!hit) process.exit(0);
  process.stdout.write(
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: `Blocked by repo-hygiene: ${hit.why}. Delete specific files by name instead.`,
      },
    }),
  );
});
