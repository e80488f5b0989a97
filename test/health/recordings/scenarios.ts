/**
 * The runs recorded for the run-health table tests (record.ts), by name: healthy runs that look
 * unusual on some claude version, and hooks that did not run as designed. The expected verdicts
 * live with the tests (recorded-health.test.ts); these are only what was run.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { HarnessSpec } from "../../../harness/index.js";

export const SECURITY_PLUGIN = fileURLToPath(new URL("../../real-plugins/fixtures/plugins/security-warnings-async/", import.meta.url));

const require = createRequire(import.meta.url);
const FS_SERVER = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
/** A copy of a vendored plugin whose manifest claude rejects (`"version": 1.0`); record.ts makes it (makeTypoPlugin) before it runs. */
const TYPO_PLUGIN = path.join(tmpdir(), "proctor-health-typo-plugin");

/** Make the plugin copy with the manifest typo, once. */
export function makeTypoPlugin(): void {
  if (existsSync(TYPO_PLUGIN)) return;
  cpSync(fileURLToPath(new URL("../../real-plugins/fixtures/plugins/makefile-best-practices/", import.meta.url)), TYPO_PLUGIN, { recursive: true });
  const manifest = path.join(TYPO_PLUGIN, ".claude-plugin/plugin.json");
  writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"version": "1.0.0"', '"version": 1.0'));
}

const bash = (command: string, extra: Record<string, unknown> = {}) => ({ tools: [{ name: "Bash", input: { command, ...extra } }] });
const hook = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });
const preBash = (command: string, extra: Record<string, unknown> = {}) => ({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook(command, extra)] }] } });
const bashThenDone = { turns: [bash("echo hi"), { text: "Done." }] };
const rmThenDone = { turns: [bash("rm -rf build"), { text: "Done." }] };

/** The README's gate hook, as a user copies it into a fixture's .claude/settings.json. */
export const README_GATE_COMMAND = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/proctor gate --purity bounded --policy .claude/proctor-policy.yaml || exit 2';

/** A run as recorded: every scenario sends the same prompt. */
export type Scenario = HarnessSpec;

const SPECS: Record<string, Omit<HarnessSpec, "prompt"> & { readonly prompt?: string }> = {
  // Healthy, on every version.
  plain: { script: { turns: [{ text: "Done." }] } },
  "everyday-hooks": {
    settings: {
      hooks: {
        SessionStart: [{ hooks: [hook("echo session-context")] }],
        UserPromptSubmit: [{ hooks: [hook("exit 0")] }],
        PreToolUse: [{ matcher: "Bash", hooks: [hook(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok"}}'`)] }],
        PostToolUse: [{ matcher: "Write", hooks: [hook(`echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatted"}}'`)] }],
        Stop: [{ hooks: [hook("exit 0")] }],
      },
    },
    script: { turns: [bash("echo hi"), { tools: [{ name: "Write", input: { file_path: "a.txt", content: "a\n" } }] }, { text: "Done." }] },
  },
  "async-session-start": {
    settings: { hooks: { SessionStart: [{ hooks: [hook(`echo '{"async":true,"asyncTimeout":180000}'; sleep 120`, { timeout: 180 })] }] } },
    script: { turns: [{ text: "Done." }] },
  },
  "async-config-cancelled": { settings: { hooks: { PostToolUse: [{ matcher: "Bash", hooks: [hook("sleep 120", { async: true })] }] } }, script: bashThenDone },
  "async-config-finished": { settings: { hooks: { PostToolUse: [{ matcher: "Bash", hooks: [hook("exit 0", { async: true })] }] } }, script: bashThenDone },
  "security-warnings-plugin": {
    plugins: [SECURITY_PLUGIN],
    script: { turns: [{ tools: [{ name: "Write", input: { file_path: "app.js", content: "const config = eval(userInput);\n" } }] }, { text: "Done." }] },
  },
  "session-end-hooks": { settings: { hooks: { SessionEnd: [{ hooks: [hook("echo bye >&2")] }, { hooks: [hook("sleep 30")] }] } }, script: { turns: [{ text: "Done." }] } },
  "background-bash": { script: { turns: [bash("sleep 5", { run_in_background: true }), { text: "Started." }, { text: "Noted.", optional: true }] } },
  "deny-says-not-found": { settings: preBash(`echo "refusing: build: not found in the allowlist" >&2; exit 2`), script: rmThenDone },
  "deny-json-says-not-found": {
    settings: preBash(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"/bin/sh: 1: rm: not found on the allowlist"}}'`),
    script: rmThenDone,
  },
  // Unhealthy, on the other items.
  "skill-and-agent-not-loaded": {
    skills: { tidy: "---\nname: tidy\ndescription: Tidy up\n---\nTidy.\n", broken: "no frontmatter\n" },
    agents: { checker: "---\nname: checker\ndescription: Checks things\n---\nCheck.\n", bad: "no frontmatter\n" },
    script: { turns: [{ text: "Done." }] },
  },
  "plugin-not-loaded": { plugins: [TYPO_PLUGIN], script: { turns: [{ text: "Done." }] } },
  "mcp-server-failed": { mcpConfig: { mcpServers: { fs: { command: process.execPath, args: [FS_SERVER.replace("index.js", "indx.js"), "."] } } }, script: { turns: [{ text: "Done." }] } },
  "mcp-server-connected": { mcpConfig: { mcpServers: { fs: { command: process.execPath, args: [FS_SERVER, "."] } } }, script: { turns: [{ text: "Done." }] } },
  "preamble-failed": {
    prompt: "/commit",
    files: { ".claude/commands/commit.md": "---\ndescription: Commit\n---\nStatus: !`git status --short`\n\nCommit the changes.\n" },
    script: { turns: [{ text: "Done." }] },
  },
  "script-unused": { script: { turns: [{ text: "Done." }, bash("echo never")] } },
  "max-turns": { maxTurns: 1, script: { turns: [bash("echo 1"), bash("echo 2"), { text: "Done.", optional: true }] } },
  "killed-at-timeout": { timeoutMs: 6000, script: { turns: [{ text: "Done.", delayMs: 60_000 }] } },
  // Unhealthy: the hook did not run as designed.
  "sync-timeout": { settings: preBash("sleep 5", { timeout: 1 }), script: bashThenDone },
  "crash-exit-1": { settings: preBash("echo boom >&2; exit 1"), script: bashThenDone },
  "gate-not-found": { settings: preBash(README_GATE_COMMAND), script: rmThenDone },
  "not-found-127": { settings: preBash('"$CLAUDE_PROJECT_DIR"/bin/missing-hook'), script: bashThenDone },
  "command-not-found-wrapped": { settings: preBash("jqq . || exit 2"), script: bashThenDone },
  "not-executable": { files: { "hook.sh": "#!/bin/sh\nexit 0\n" }, settings: preBash('"$CLAUDE_PROJECT_DIR"/hook.sh || exit 2'), script: bashThenDone },
  "killed-wrapped": { settings: preBash("sh -c 'kill -KILL $$' || exit 2"), script: bashThenDone },
  "python-script-missing": { settings: preBash('python3 "$CLAUDE_PROJECT_DIR"/hooks/guard.py'), script: bashThenDone },
  "node-crash-wrapped": { settings: preBash(`node -e 'JSON.parse("{")' || exit 2`), script: bashThenDone },
  "not-found-or-true": { settings: { hooks: { PostToolUse: [{ matcher: "Bash", hooks: [hook('"$CLAUDE_PROJECT_DIR"/hooks/log.sh || true')] }] } }, script: bashThenDone },
};

export const SCENARIOS: Record<keyof typeof SPECS, Scenario> = Object.fromEntries(Object.entries(SPECS).map(([name, spec]) => [name, { prompt: "go", ...spec } as Scenario]));
