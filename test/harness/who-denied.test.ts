/**
 * Who denied a call, on the real claude binary: claude's built-in guard refuses `rm -rf ./*` with
 * no hook installed, and `denied()` — which means a hook — must not pass on that; with the plugin
 * installed its hook refuses the same call, and the Trace names that hook event. A plugin path
 * that does not exist is refused before anything spawns.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect as vexpect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { denied, expect, isProctorError, validateTrace } from "../../src/index.js";

const PLUGIN = fileURLToPath(new URL("../../examples/plugin", import.meta.url));
const BROKEN = mkdtempSync(path.join(tmpdir(), "proctor-broken-plugin-"));
mkdirSync(path.join(BROKEN, ".claude-plugin"));
writeFileSync(path.join(BROKEN, ".claude-plugin/plugin.json"), '{ "name": "broken", ');
afterAll(() => rmSync(BROKEN, { recursive: true, force: true }));

// Two calls in one model message: the guard's refusal must land on the right one.
const script = {
  turns: [
    { tools: [{ name: "Bash", input: { command: "echo keep" } }, { name: "Bash", input: { command: "rm -rf ./*" } }] },
    { text: "Summary: nothing was deleted." },
  ],
};

describe("who denied a call (real claude binary)", () => {
  it("claude's built-in guard is not a hook: denied() fails and says so", async () => {
    const result = await runHarness({ prompt: "clean up", files: { "notes.txt": "keep me\n" }, script });
    try {
      const { trace } = result;
      validateTrace(trace);
      vexpect(trace.hooks).toEqual([]);
      vexpect(trace.toolCalls.map((c) => [c.status, c.deniedBy, c.turn])).toEqual([
        ["success", undefined, 1],
        ["denied", "builtin", 1],
      ]);
      const verdict = denied("Bash", { command: /rm -rf/ }).eval(trace);
      vexpect(verdict.pass).toBe(false);
      vexpect(verdict.message).toMatch(/denied, but by the agent's built-in guard/);
      vexpect(verdict.message).toMatch(/is the hook installed/);
      vexpect(verdict.message).toMatch(/Dangerous rm operation detected/);
      expect(trace, [denied("Bash", { command: /rm -rf/ }, { by: "builtin" }), denied("Bash", { command: /rm -rf/ }, { by: "any" })]);
    } finally {
      await result.cleanup();
    }
  });

  it("the plugin's hook denies it, and the Trace names the hook event that did", async () => {
    const result = await runHarness({ prompt: "clean up", files: { "notes.txt": "keep me\n" }, plugins: [PLUGIN], script });
    try {
      const { trace } = result;
      validateTrace(trace);
      const [keep, rm] = trace.toolCalls;
      vexpect([keep.status, rm.status, rm.deniedBy]).toEqual(["success", "denied", "hook"]);
      vexpect(rm.denyingHook).toBeTypeOf("number");
      const hook = trace.hooks[rm.denyingHook!];
      vexpect(hook).toMatchObject({ name: "PreToolUse:Bash", blocked: true, decision: "deny", callId: rm.id });
      vexpect(rm.result).toMatch(/Blocked by repo-hygiene/);
      // The README's example, unchanged, now means what it says.
      expect(trace, [denied("Bash", { command: /rm -rf/ })]);
      vexpect(denied("Bash", { command: /rm -rf/ }, { by: "builtin" }).eval(trace).pass).toBe(false);
    } finally {
      await result.cleanup();
    }
  });

  it("a plugin claude silently drops (a manifest it rejects) is a warning in the Trace, and denied() says so", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "proctor-dropped-plugin-"));
    try {
      cpSync(PLUGIN, dir, { recursive: true });
      writeFileSync(path.join(dir, ".claude-plugin/plugin.json"), JSON.stringify({ name: "repo hygiene!", version: 3 }));
      const result = await runHarness({ prompt: "clean up", files: { "notes.txt": "keep me\n" }, plugins: [dir], script });
      try {
        const { trace } = result;
        // claude 2.1.332 lists its built-in plugins (path "builtin"); none of the user's loaded.
        vexpect(trace.source.plugins?.filter((p) => p.path !== "builtin")).toEqual([]);
        vexpect(trace.errors).toEqual([{ kind: "plugin-not-loaded", message: vexpect.stringContaining(`claude did not load the plugin at ${dir}`) }]);
        const verdict = denied("Bash", { command: /rm -rf/ }).eval(trace);
        vexpect(verdict.pass).toBe(false);
        vexpect(verdict.message).toMatch(/no hook event refused it, and claude did not load the plugin at/);
      } finally {
        await result.cleanup();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ plugins: ["./no-such-dir"] }, /spec\.plugins\[0\] "\.\/no-such-dir" does not exist/],
    [{ plugins: [BROKEN] }, /\.claude-plugin\/plugin\.json is not valid JSON/],
    [{ plugins: ["./examples/fixtures"] }, /is not a plugin directory/],
    [{ mcpConfig: "./no-such-mcp.json" }, /spec\.mcpConfig "\.\/no-such-mcp\.json" does not exist/],
    [{ args: ["--settings", "./no-such-settings.json"] }, /spec\.args\[1\] "\.\/no-such-settings\.json" does not exist/],
    [{ args: ["--plugin-dir=./nowhere"] }, /spec\.args\[0\] "\.\/nowhere" does not exist/],
    [{ skills: { tidy: "./skills/tidy/SKILL.md" } }, /spec\.skills\.tidy must be the SKILL\.md text itself/],
    [{ agents: { reviewer: "" } }, /spec\.agents\.reviewer must be the agent \.md text itself/],
  ])("refuses %j before anything spawns", async (extra, message) => {
    const cwd = fileURLToPath(new URL("../..", import.meta.url));
    const error = await runHarness({ prompt: "x", script, cwd, claudePath: "/nonexistent/claude", ...extra }).catch((e: unknown) => e);
    vexpect(isProctorError(error) && error.code).toBe("INVALID_INPUT");
    vexpect((error as Error).message).toMatch(message);
  });
});
