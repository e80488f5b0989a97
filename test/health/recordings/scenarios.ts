/**
 * The runs recorded for the run-health table tests (record.ts), by name: healthy runs that look
 * unusual on some claude version, and hooks that did not run as designed. The expected verdicts
 * live with the tests (hook-health.test.ts); these are only what was run.
 */
import { fileURLToPath } from "node:url";
import type { HarnessSpec } from "../../../harness/index.js";

export const SECURITY_PLUGIN = fileURLToPath(new URL("../../real-plugins/fixtures/plugins/security-warnings-async/", import.meta.url));

const bash = (command: string, extra: Record<string, unknown> = {}) => ({ tools: [{ name: "Bash", input: { command, ...extra } }] });
const hook = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });
const preBash = (command: string, extra: Record<string, unknown> = {}) => ({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook(command, extra)] }] } });
const bashThenDone = { turns: [bash("echo hi"), { text: "Done." }] };
const rmThenDone = { turns: [bash("rm -rf build"), { text: "Done." }] };

/** The README's gate hook, as a user copies it into a fixture's .claude/settings.json. */
export const README_GATE_COMMAND = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/proctor gate --purity bounded --policy .claude/proctor-policy.yaml || exit 2';

/** A run as recorded: every scenario sends the same prompt. */
export type Scenario = HarnessSpec;

const SPECS: Record<string, Omit<HarnessSpec, "prompt">> = {
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

export const SCENARIOS: Record<keyof typeof SPECS, Scenario> = Object.fromEntries(Object.entries(SPECS).map(([name, spec]) => [name, { prompt: "go", ...spec }]));
