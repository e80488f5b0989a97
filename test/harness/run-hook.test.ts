/** runHook: one hook command, run the way Claude Code runs it. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect as vexpect, it } from "vitest";
import { buildHookInput, matcherMatches, runHook } from "../../harness/index.js";
import { allowed, blocked, expect } from "../../src/index.js";
import { processGone } from "./helpers.js";

const PLUGIN = fileURLToPath(new URL("../../examples/plugin", import.meta.url));
const GUARD = 'node "${CLAUDE_PLUGIN_ROOT}/hooks/guard-shell.mjs"';
const SUMMARY = 'node "${CLAUDE_PLUGIN_ROOT}/hooks/require-summary.mjs"';
const dir = mkdtempSync(path.join(tmpdir(), "proctor-hook-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("runHook", () => {
  it("runs the example guard: rm -rf is denied with its reason, ls goes through", async () => {
    const rm = await runHook(GUARD, "PreToolUse", { pluginRoot: PLUGIN, matcher: "Bash", toolName: "Bash", toolInput: { command: "rm -rf build" } });
    expect(rm, [blocked()]);
    vexpect(rm).toMatchObject({ ran: true, exitCode: 0, blockedBy: ["permission-deny"], decision: "deny" });
    vexpect(rm.reason).toMatch(/^Blocked by repo-hygiene: recursive force-removal \(rm -rf\)/);
    const ls = await runHook(GUARD, "PreToolUse", { pluginRoot: PLUGIN, matcher: "Bash", toolName: "Bash", toolInput: { command: "ls -la" } });
    expect(ls, [allowed()]);
  });

  it("does not run when the matcher does not select the tool, and the checks say so", async () => {
    const r = await runHook(GUARD, "PreToolUse", { pluginRoot: PLUGIN, matcher: "Bash", toolName: "Write", toolInput: { file_path: "x" } });
    vexpect(r).toMatchObject({ ran: false, exitCode: null, blocked: false });
    vexpect(blocked().eval(r)).toMatchObject({ pass: false, message: `expected the PreToolUse hook ${JSON.stringify(GUARD)} to block; it did not run for PreToolUse (its matcher did not match)` });
  });

  it("matches like Claude Code: *, names joined by |, anchored regexes", () => {
    vexpect([matcherMatches("*", "Bash"), matcherMatches("", "Bash"), matcherMatches("Edit|Write", "Write"), matcherMatches("Edit|Write", "WriteFile")]).toEqual([true, true, true, false]);
    vexpect([matcherMatches("mcp__.*", "mcp__github__search"), matcherMatches("mcp__.*", "Bash"), matcherMatches("Notebook.*", "NotebookEdit")]).toEqual([true, false, true]);
    vexpect(() => matcherMatches("(", "x")).toThrow(/matcher "\(" is not a valid pattern/);
  });

  it("sends the event's JSON on stdin and sets CLAUDE_PROJECT_DIR, running in the project dir", async () => {
    const r = await runHook('cat > input.json; printf %s "$CLAUDE_PROJECT_DIR"', "PreToolUse", { cwd: dir, toolName: "Bash", toolInput: { command: "ls" }, permissionMode: "acceptEdits" });
    vexpect(r.stdout).toBe(dir);
    const input = JSON.parse(readFileSync(path.join(dir, "input.json"), "utf8"));
    vexpect(input).toEqual({
      session_id: "proctor-hook-session",
      transcript_path: path.join(dir, ".proctor-hook-transcript.jsonl"),
      cwd: dir,
      hook_event_name: "PreToolUse",
      permission_mode: "acceptEdits",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "toolu_proctor_hook",
    });
    vexpect(buildHookInput("PostToolUse", { toolName: "Bash", toolResponse: { stdout: "x" } }, dir)).toMatchObject({ tool_response: { stdout: "x" } });
    vexpect(buildHookInput("UserPromptSubmit", { prompt: "hi", input: { extra: 1 } }, dir)).toMatchObject({ prompt: "hi", extra: 1 });
    vexpect(buildHookInput("SessionStart", {}, dir)).toMatchObject({ source: "startup" });
  });

  it("reads every block mechanism: exit 2 (stderr is the reason), decision block, continue:false", async () => {
    const exit2 = await runHook("echo 'use the safe script' >&2; exit 2", "PreToolUse", { toolName: "Bash" });
    vexpect(exit2).toMatchObject({ blocked: true, blockedBy: ["exit-2"], reason: "use the safe script", exitCode: 2 });
    const stop = await runHook(SUMMARY, "Stop", { pluginRoot: PLUGIN, lastAssistantMessage: "Done." });
    vexpect(stop).toMatchObject({ blocked: true, blockedBy: ["decision-block"], decision: "block" });
    const again = await runHook(SUMMARY, "Stop", { pluginRoot: PLUGIN, lastAssistantMessage: "Done.", stopHookActive: true });
    expect(again, [allowed()]);
    const halt = await runHook(`echo '{"continue": false, "stopReason": "enough"}'`, "UserPromptSubmit", { prompt: "x" });
    vexpect(halt).toMatchObject({ blocked: true, blockedBy: ["continue-false"], reason: "enough" });
  });

  it("reports malformed JSON instead of swallowing it", async () => {
    const r = await runHook(`echo '{"decision": "block",'`, "Stop");
    vexpect(r.jsonError).toMatch(/^stdout is not valid JSON/);
    vexpect(r.blocked).toBe(false);
    vexpect(blocked().eval(r).message).toMatch(/hook .* to block; its JSON output is malformed: stdout is not valid JSON/);
  });

  it("kills a hook that hangs past its timeout, children included", async () => {
    const pidFile = path.join(dir, "hook-child.pid");
    const r = await runHook(`sleep 300 & echo $! > ${pidFile}; sleep 300`, "PreToolUse", { toolName: "Bash", timeoutMs: 300 });
    vexpect(r).toMatchObject({ ran: true, timedOut: true, exitCode: null, blocked: false });
    vexpect(await processGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
    vexpect(allowed().eval(r).message).toMatch(/^expected the PreToolUse hook "sleep 300 .*" to allow; it timed out after \d+ ms/);
  });

  it("rejects bad input naming it", async () => {
    await vexpect(runHook("", "Stop")).rejects.toThrow(/command must be a non-empty shell command/);
    await vexpect(runHook("true", "preToolUse")).rejects.toThrow(/event must be a hook event name like "PreToolUse"/);
    await vexpect(runHook("true", "PreToolUse")).rejects.toThrow(/a PreToolUse hook needs options\.toolName/);
  });
});
