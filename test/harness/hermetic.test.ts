/**
 * Hermetic trials with the real claude binary: plugins and MCP servers run from per-trial copies
 * (the user's dirs stay byte-identical, server-memory's state does not reach the next trial), writes
 * outside the work dir are in the Trace and in wroteOnly, and claude's sandbox — on by default —
 * turns a write outside the trial into a call denied by `sandbox`.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { denied, didNotWrite, evalChecks, wroteOnly, type Trace } from "../../src/index.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const MEMORY_PKG = path.join(ROOT, "node_modules/@modelcontextprotocol/server-memory");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every file under `dir` with its hash, sorted: equal for byte-identical trees. */
function treeHash(dir: string): string {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
    .map((f) => `${path.relative(dir, f)} ${createHash("sha1").update(readFileSync(f)).digest("hex")}`);
  return entries.join("\n");
}

/** A plugin whose Bash hook keeps state beside its code and in HOME, as real plugins' hooks do. */
function statefulPlugin(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "proctor-stateful-plugin-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, ".claude-plugin"));
  mkdirSync(path.join(dir, "hooks"));
  writeFileSync(path.join(dir, ".claude-plugin/plugin.json"), JSON.stringify({ name: "stateful", version: "1.0.0" }));
  writeFileSync(
    path.join(dir, "hooks/hooks.json"),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'node "${CLAUDE_PLUGIN_ROOT}/hooks/remember.mjs"' }] }] } }),
  );
  writeFileSync(
    path.join(dir, "hooks/remember.mjs"),
    'import { appendFileSync } from "node:fs";\nappendFileSync(new URL("../seen.log", import.meta.url), "bash\\n");\nappendFileSync(`${process.env.HOME}/.stateful-seen`, "bash\\n");\n',
  );
  return dir;
}

describe("hermetic trials (real claude binary)", () => {
  it("a plugin runs from a copy: its dir is byte-identical after the run, its writes are in the Trace; the sandbox denies a write outside", async () => {
    const plugin = statefulPlugin();
    const before = treeHash(plugin);
    const outside = path.join(tmpdir(), `proctor-hermetic-escape-${process.pid}`);
    const { trace, cleanup } = await runHarness({
      prompt: "go",
      plugins: [plugin],
      allowedTools: ["Bash"],
      script: {
        turns: [
          { tools: [{ name: "Bash", input: { command: "echo hi > inside.txt" } }, { name: "Bash", input: { command: `node -e 'require("fs").writeFileSync("${outside}", "x")'` } }] },
          { text: "Done." },
        ],
      },
      timeoutMs: 60_000,
    });
    try {
      expect(treeHash(plugin)).toBe(before);
      expect(existsSync(path.join(plugin, "seen.log"))).toBe(false);
      expect(existsSync(outside)).toBe(false);
      expect(trace.outsideWrites?.sandbox).toEqual({ on: true });
      expect(trace.outsideWrites?.changes.map((c) => c.path).sort()).toEqual(["$HOME/.stateful-seen", `plugin:${path.basename(plugin)}/seen.log`]);
      expect(trace.outsideWrites?.roots.find((r) => r.name.startsWith("plugin:"))?.copiedFrom).toBe(plugin);
      // The Trace names the plugin the spec gave; the roots say where it ran from.
      const paths = trace.source.plugins?.map((p) => p.path) ?? [];
      expect(paths).toContain(plugin);
      expect(paths.filter((p) => p.includes("proctor-run-"))).toEqual([]); // claude ≥ 2.1.3xx also lists its "builtin" ones
      expect(trace.toolCalls[1]).toMatchObject({ status: "denied", deniedBy: "sandbox" });
      const [only, allowed, untouched, bySandbox] = evalChecks(trace, [
        wroteOnly(["inside.txt"]),
        wroteOnly(["inside.txt", "$HOME/.stateful-seen", "plugin:*/seen.log"]),
        didNotWrite(outside),
        denied("Bash", undefined, { by: "sandbox" }),
      ]);
      expect(only?.pass).toBe(false);
      expect(only?.message).toContain("seen.log");
      expect(allowed?.pass).toBe(true);
      // A path outside every compared root is never confirmed unwritten, sandbox or not.
      expect(untouched?.pass).toBe(false);
      expect(bySandbox?.pass).toBe(true);
    } finally {
      await cleanup();
    }
  }, 120_000);

  it("server-memory keeps its state in a per-trial copy: a second trial does not see the first's, the package is untouched", async () => {
    const before = treeHash(MEMORY_PKG);
    const mcpConfig = { mcpServers: { memory: { command: "node", args: [path.join(MEMORY_PKG, "dist/index.js")] } } };
    // The first turn waits for nothing but gives the server time to connect before its tool is called.
    const trial = (tool: { name: string; input: Record<string, unknown> }) =>
      runHarness({ prompt: "go", mcpConfig, script: { turns: [{ tools: [{ name: "Bash", input: { command: "true" } }] }, { tools: [tool] }, { text: "Done." }] }, timeoutMs: 60_000 });
    const first = await trial({ name: "mcp__memory__create_entities", input: { entities: [{ name: "from-trial-1", entityType: "note", observations: ["x"] }] } });
    const second = await trial({ name: "mcp__memory__read_graph", input: {} });
    try {
      // The MCP call by name: on claude ≥ 2.1.3xx the mock's ToolSearch for the deferred tool comes before it.
      const call = (trace: Trace, name: string) => trace.toolCalls.find((c) => c.name === name);
      expect(call(first.trace, "mcp__memory__create_entities")).toMatchObject({ status: "success" });
      expect(first.trace.outsideWrites?.changes).toMatchObject([{ path: "mcp:memory/dist/memory.jsonl", change: "created" }]);
      expect(evalChecks(first.trace, [wroteOnly([])])[0]?.message).toContain("mcp:memory/dist/memory.jsonl");
      expect(call(second.trace, "mcp__memory__read_graph")).toMatchObject({ name: "mcp__memory__read_graph", status: "success" });
      expect(call(second.trace, "mcp__memory__read_graph")?.result).not.toContain("from-trial-1");
      expect(JSON.parse(call(second.trace, "mcp__memory__read_graph")?.result ?? "{}")).toEqual({ entities: [], relations: [] });
      expect(treeHash(MEMORY_PKG)).toBe(before);
    } finally {
      await first.cleanup();
      await second.cleanup();
    }
  }, 180_000);

  it("sandbox: { off } runs Bash unsandboxed and the Trace says why", async () => {
    const { trace, cleanup } = await runHarness({
      prompt: "go",
      sandbox: { off: "the skill under test runs docker" },
      script: { turns: [{ tools: [{ name: "Bash", input: { command: "echo hi > inside.txt" } }] }, { text: "Done." }] },
      timeoutMs: 60_000,
    });
    try {
      expect(trace.outsideWrites?.sandbox).toEqual({ on: false, reason: "the skill under test runs docker" });
      expect(evalChecks(trace, [wroteOnly(["inside.txt"])])[0]?.message).toContain("Bash ran unsandboxed (the skill under test runs docker)");
    } finally {
      await cleanup();
    }
  }, 120_000);
});
