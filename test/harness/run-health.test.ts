/**
 * A run that did not happen as designed proves no absence (real claude binary, both versions): a
 * plugin claude refused to load, an MCP server that failed to start, a slash command whose `!`
 * preamble failed so the model was never asked. Each used to leave negative checks passing.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect as vexpect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { evaluateChecks, notTool, received, wroteOnly, type Trace } from "../../src/index.js";

const PLUGIN = fileURLToPath(new URL("../../examples/plugin", import.meta.url));
const quiet = { turns: [{ text: "Summary: nothing to do." }] };

/** The run-health items the harness found failed. */
const failedItems = (trace: Trace) => (trace.health?.items ?? []).filter((i) => i.status === "failed").map((i) => i.name);

/** The verdicts of the negative checks a guard test would write. */
async function negatives(trace: Trace) {
  return (await evaluateChecks(trace, [notTool("Bash"), wroteOnly([])])).map((r) => [r.pass, r.message]);
}

describe("run health: a run that did not happen as designed fails every 'did not happen' check", () => {
  it("a plugin claude refused to load (a manifest it rejects)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "proctor-health-plugin-"));
    try {
      cpSync(PLUGIN, dir, { recursive: true });
      writeFileSync(path.join(dir, ".claude-plugin/plugin.json"), JSON.stringify({ name: "repo hygiene!", version: 3 }));
      const { trace, cleanup } = await runHarness({ prompt: "clean up", plugins: [dir], script: quiet });
      await cleanup();
      vexpect(trace.errors.map((e) => e.kind)).toContain("plugin-not-loaded");
      vexpect(failedItems(trace)).toEqual(["plugins-loaded"]);
      for (const [pass, message] of await negatives(trace)) {
        vexpect(pass).toBe(false);
        vexpect(message).toMatch(/did not happen as designed .*claude did not load the plugin/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an MCP server that failed to start", async () => {
    const { trace, cleanup } = await runHarness({
      prompt: "look it up",
      mcpConfig: { mcpServers: { broken: { command: process.execPath, args: ["-e", "process.exit(3)"] } } },
      script: quiet,
    });
    await cleanup();
    vexpect(trace.source.mcpServers).toEqual([{ name: "broken", status: "failed" }]);
    vexpect(failedItems(trace)).toEqual(["mcp-servers-connected"]);
    vexpect(trace.errors).toContainEqual({ kind: "mcp-server-failed", message: vexpect.stringContaining('the MCP server "broken" failed to start') });
    for (const [pass, message] of await negatives(trace)) {
      vexpect(pass).toBe(false);
      vexpect(message).toMatch(/MCP server "broken" failed/);
    }
  });

  it("a slash command whose ! preamble failed: the model was never asked, the script never used", async () => {
    const { trace, mockRun, cleanup } = await runHarness({
      prompt: "/commit",
      files: { ".claude/commands/commit.md": "---\ndescription: Commit\n---\nStatus: !`git status --short`\n\nCommit the changes.\n", "a.txt": "x\n" },
      script: { turns: [{ tools: [{ name: "Bash", input: { command: "rm -rf a.txt" } }] }, { text: "Summary: done." }] },
    });
    await cleanup();
    vexpect(mockRun.requests).toHaveLength(0);
    vexpect(trace.errors.map((e) => e.kind)).toContain("no-model-request");
    // The model was never asked, so the script's two turns went unused too.
    vexpect(failedItems(trace)).toEqual(["model-asked", "script-consumed"]);
    vexpect((await negatives(trace)).map(([pass]) => pass)).toEqual([false, false]);
  });
});

describe("received: what reached the model from outside (real claude binary)", () => {
  it("does not match the model's own earlier tool input; { from: 'anywhere' } does", async () => {
    const { trace, cleanup } = await runHarness({
      prompt: "tidy",
      script: { turns: [{ tools: [{ name: "Bash", input: { command: "true MODEL-WROTE-THIS" } }] }, { text: "Summary: done." }] },
    });
    await cleanup();
    const verdicts = (await evaluateChecks(trace, [received("MODEL-WROTE-THIS"), received("MODEL-WROTE-THIS", { from: "anywhere" }), received("tidy"), received("[tool_result")])).map((r) => r.pass);
    vexpect(verdicts).toEqual([false, true, true, true]);
  });
});
