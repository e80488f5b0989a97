/**
 * Real, vendored plugins and MCP servers (see SOURCES.md beside this file) under the real claude
 * binary and the mock model, offline: evals asserting what each one documents, measured through
 * the run-health gate, and negative controls that must not pass — a copy whose manifest claude
 * rejects, an MCP server that does not start, a check naming a skill that is not there.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect as vexpect, it } from "vitest";
import { runHarness, type HarnessSpec } from "../../harness/index.js";
import { denied, fileContains, hookFired, measure, notTool, received, skill, tool, wrote, type Check, type CheckReport, type HealthSwitches, type Trace } from "../../src/index.js";
import { claudeVersion } from "../helpers/claude-version.js";

const PLUGINS = fileURLToPath(new URL("./fixtures/plugins/", import.meta.url));
const WEBFETCH_BLOCKER = path.join(PLUGINS, "github-webfetch-blocker");
const MAKEFILE = path.join(PLUGINS, "makefile-best-practices");
const SECURITY_WARNINGS = path.join(PLUGINS, "security-warnings-async");
const require = createRequire(import.meta.url);
const serverScript = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);

const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** One trial of an eval through `measure`, as `proctor run` runs it: the health gate included. */
async function evalOnce(spec: HarnessSpec, checks: readonly Check<Trace>[], health?: HealthSwitches): Promise<CheckReport> {
  return measure({
    run: async () => {
      const result = await runHarness({ reject: false, ...spec });
      await result.cleanup();
      return result.trace;
    },
    checks,
    trials: 1,
    progress: false,
    ...(health ? { health } : {}),
  });
}

const passed = (r: CheckReport) => r.trials.errored === 0 && r.checks.every((c) => c.passes === c.n && c.n === 1);
const unhealthy = (r: CheckReport) => [r.trials.errored, r.errors[0]?.code, r.errors[0]?.health];

describe(`real plugins and MCP servers, as their docs say they behave (claude ${claudeVersion()})`, { timeout: 120_000 }, () => {
  it("security-guidance's hook shape: its SessionStart hook goes async and is cancelled at session end, its PostToolUse warning reaches the model, the file is written — a healthy run", async () => {
    const report = await evalOnce(
      {
        prompt: "load the config",
        plugins: [SECURITY_WARNINGS],
        script: { turns: [{ tools: [{ name: "Write", input: { file_path: "app.js", content: "const config = eval(userInput);\n" } }] }, { text: "Done." }] },
      },
      [hookFired("SessionStart:startup"), hookFired("PostToolUse:Write"), received("eval() runs arbitrary code"), wrote("app.js"), fileContains("app.js", "eval(userInput)")],
    );
    vexpect(passed(report), JSON.stringify(report.errors)).toBe(true);
  });

  it("makefile-best-practices: its skill loads under the plugin's name and its body reaches the model", async () => {
    const report = await evalOnce(
      { prompt: "add a Makefile", plugins: [MAKEFILE], script: { turns: [{ tools: [{ name: "Skill", input: { skill: "makefile-best-practices:makefile-best-practices" } }] }, { text: "Done." }] } },
      [skill("makefile-best-practices"), received(".DEFAULT_GOAL := help"), notTool("Bash")],
    );
    vexpect(passed(report), JSON.stringify(report.errors)).toBe(true);
  });

  it("github-webfetch-blocker: its hooks load and run — but they read .parameters, which claude does not send, so the documented block never happens", async () => {
    const report = await evalOnce(
      {
        prompt: "summarise the PR",
        plugins: [WEBFETCH_BLOCKER],
        allowedTools: ["WebFetch"],
        // No network here: the fetch fails if nothing blocks it first, which is the finding.
        script: { turns: [{ tools: [{ name: "WebFetch", input: { url: "https://github.com/o/r/pull/1", prompt: "summarise" } }] }, { text: "Done." }] },
      },
      [hookFired("PreToolUse:WebFetch"), denied("WebFetch", undefined, { by: "hook" })],
    );
    // A healthy run (the plugin loaded, its hook exited 0): the documented denial is a failed check, not an error.
    vexpect(report.trials.errored).toBe(0);
    vexpect(report.checks.map((c) => c.passes)).toEqual([1, 0]);
  });

  it("server-filesystem: reads inside the allowed directory, refuses outside it", async () => {
    const report = await evalOnce(
      {
        prompt: "read the notes",
        files: { "notes.txt": "FS-CONTENT-42\n" },
        mcpConfig: { mcpServers: { fs: { command: process.execPath, args: [serverScript("server-filesystem"), "."] } } },
        script: { turns: [{ tools: [{ name: "mcp__fs__read_text_file", input: { path: "notes.txt" } }, { name: "mcp__fs__read_text_file", input: { path: "/etc/hostname" } }] }, { text: "Done." }] },
      },
      [tool("mcp__fs__read_text_file"), received("FS-CONTENT-42"), received("Access denied - path outside allowed directories")],
    );
    vexpect(passed(report), JSON.stringify(report.errors)).toBe(true);
  });

  it("server-memory: an entity created is in the graph read back, kept in the trial's own MEMORY_FILE_PATH", async () => {
    const memory = path.join(tempDir("proctor-memory-"), "memory.jsonl");
    const report = await evalOnce(
      {
        prompt: "remember Ada",
        // The file lies outside the trial: the jail lets the trial write there only when the spec says so.
        sandbox: { allowWrite: [path.dirname(memory)] },
        mcpConfig: { mcpServers: { memory: { command: process.execPath, args: [serverScript("server-memory")], env: { MEMORY_FILE_PATH: memory } } } },
        script: {
          turns: [
            { tools: [{ name: "mcp__memory__create_entities", input: { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] } }] },
            { tools: [{ name: "mcp__memory__read_graph", input: {} }] },
            { text: "Done." },
          ],
        },
      },
      [tool("mcp__memory__create_entities"), received('"observations":["wrote the first program"]')],
    );
    vexpect(passed(report), JSON.stringify(report.errors)).toBe(true);
    vexpect(readFileSync(memory, "utf8")).toContain('"name":"Ada"');
  });
});

describe("negative controls: a run that did not happen as designed is unhealthy, never a pass", { timeout: 120_000 }, () => {
  it("a copy of a plugin with a manifest typo claude rejects", async () => {
    const dir = tempDir("proctor-typo-plugin-");
    cpSync(MAKEFILE, dir, { recursive: true });
    const manifest = path.join(dir, ".claude-plugin/plugin.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"version": "1.0.0"', '"version": 1.0'));
    const report = await evalOnce({ prompt: "add a Makefile", plugins: [dir], script: { turns: [{ text: "Done." }] } }, [notTool("Bash")]);
    vexpect(unhealthy(report)).toEqual([1, "RUN_UNHEALTHY", ["plugins-loaded"]]);
  });

  it("an MCP server whose command is misspelt, and a check naming a skill the plugin does not have", async () => {
    const [server, typo] = await Promise.all([
      evalOnce(
        { prompt: "read", mcpConfig: { mcpServers: { fs: { command: process.execPath, args: [serverScript("server-filesystem").replace("index.js", "indx.js"), "."] } } }, script: { turns: [{ text: "Done." }] } },
        [notTool("mcp__fs__write_file")],
      ),
      evalOnce({ prompt: "add a Makefile", plugins: [MAKEFILE], script: { turns: [{ text: "Done." }] } }, [notTool("Bash"), skill("makefile-best-practise")]),
    ]);
    vexpect(unhealthy(server)).toEqual([1, "RUN_UNHEALTHY", ["mcp-servers-connected"]]);
    vexpect(unhealthy(typo)).toEqual([1, "RUN_UNHEALTHY", ["skills-loaded"]]);
  });
});
