/**
 * The false-alarm audit, on the real claude binary (whichever PROCTOR_CLAUDE selects; CI runs the
 * pinned 2.1.197 and the newest published one): healthy runs that exercise what every run-health
 * item watches — a plugin with a skill and hooks (an async SessionStart hook claude cancels at
 * session end, a PostToolUse warning), a subagent, an MCP server, a background command still
 * running at the end, limits — produce no health item's failure and no message in `trace.errors`.
 * Each item must have had evidence to judge in some run, so the audit cannot pass by not looking.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect as vexpect, it } from "vitest";
import { runHarness, type HarnessSpec } from "../../harness/index.js";
import { HEALTH_ITEMS, type HealthItemName, type Trace } from "../../src/index.js";
import { claudeVersion } from "../helpers/claude-version.js";
import { SECURITY_PLUGIN } from "./recordings/scenarios.js";

const MAKEFILE = fileURLToPath(new URL("../real-plugins/fixtures/plugins/makefile-best-practices/", import.meta.url));
const require = createRequire(import.meta.url);
const FS_SERVER = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");

const bash = (command: string, extra: Record<string, unknown> = {}) => ({ name: "Bash", input: { command, ...extra } });
const hook = (command: string) => ({ type: "command", command });

/** Healthy runs, each exercising some of the items; together, all of them. */
const RUNS: Record<string, { spec: HarnessSpec; exercises: HealthItemName[] }> = {
  "a plugin with a skill and security-guidance's hooks, an MCP server, everyday hooks, limits": {
    exercises: ["claude-ran", "plugins-loaded", "mcp-servers-connected", "skills-loaded", "model-asked", "script-consumed", "hooks-ok", "within-limits"],
    spec: {
      prompt: "add a Makefile and load the config",
      plugins: [MAKEFILE, SECURITY_PLUGIN],
      files: { "notes.txt": "NOTES-7\n" },
      mcpConfig: { mcpServers: { fs: { command: process.execPath, args: [FS_SERVER, "."] } } },
      settings: {
        hooks: {
          UserPromptSubmit: [{ hooks: [hook("exit 0")] }],
          PreToolUse: [{ matcher: "Bash", hooks: [hook("exit 0")] }],
          Stop: [{ hooks: [hook("exit 0")] }],
        },
      },
      skills: { tidy: "---\nname: tidy\ndescription: Tidy the repository\n---\nTidy.\n" },
      allowedTools: ["Skill", "mcp__fs", "Bash(echo:*)"],
      maxTurns: 10,
      timeoutMs: 120_000,
      script: {
        turns: [
          { tools: [{ name: "Skill", input: { skill: "makefile-best-practices:makefile-best-practices" } }] },
          { tools: [{ name: "Write", input: { file_path: "app.js", content: "const config = eval(userInput);\n" } }] },
          { tools: [{ name: "mcp__fs__read_text_file", input: { path: "notes.txt" } }, bash("echo hi")] },
          { text: "Done." },
        ],
      },
    },
  },
  "a subagent, and a background command still running when the session ends": {
    exercises: ["claude-ran", "agents-loaded", "model-asked", "script-consumed", "hooks-ok"],
    spec: {
      prompt: "review and build",
      agents: { reviewer: "---\nname: reviewer\ndescription: Reviews code for risks\ntools: Read\n---\nReview what you are pointed at.\n" },
      files: { "src/index.js": "export const x = 1;\n" },
      settings: { hooks: { SubagentStop: [{ hooks: [hook("exit 0")] }] } },
      allowedTools: ["Bash(sleep:*)"],
      timeoutMs: 120_000,
      script: {
        turns: [
          { tools: [{ name: "Agent", input: { description: "review", prompt: "Review src/index.js", subagent_type: "reviewer", run_in_background: false } }] },
          { tools: [bash("sleep 3", { run_in_background: true, description: "build" })] },
          { text: "Started the build." },
          // Newer claude waits for the background command and gives the agent its notification.
          { text: "The build finished.", optional: true },
        ],
        subagents: [{ type: "reviewer", turns: [{ tools: [{ name: "Read", input: { file_path: "src/index.js" } }] }, { text: "No risks found." }] }],
      },
    },
  },
};

/** Did the run give this item something to judge (so its `ok` means something)? */
function exercised(item: HealthItemName, trace: Trace): boolean {
  const expected = trace.health?.expected ?? {};
  switch (item) {
    case "claude-ran":
    case "model-asked":
      return trace.complete && (trace.modelRequests?.length ?? 0) > 0;
    case "plugins-loaded":
      return (trace.source.plugins?.length ?? 0) > 0;
    case "mcp-servers-connected":
      return (expected.mcpServers?.length ?? 0) > 0;
    case "skills-loaded":
      return (expected.skills?.length ?? 0) > 0 && (trace.skills?.length ?? 0) > 0;
    case "agents-loaded":
      return (expected.agents?.length ?? 0) > 0 && (trace.subagents?.length ?? 0) > 0;
    case "script-consumed":
      return (trace.modelRequests?.length ?? 0) > 1;
    case "hooks-ok":
      return trace.hooks.length > 0;
    case "within-limits":
      return expected.limits?.maxTurns !== undefined || expected.limits?.timeoutMs !== undefined;
  }
}

describe(`false alarms: healthy runs fail no health item (claude ${claudeVersion()})`, { timeout: 240_000 }, () => {
  const seen = new Set<HealthItemName>();

  for (const [name, { spec, exercises }] of Object.entries(RUNS)) {
    it(name, async () => {
      const result = await runHarness({ reject: false, ...spec });
      await result.cleanup();
      const { trace } = result;
      vexpect(trace.health?.items.filter((i) => i.status !== "ok")).toEqual([]);
      vexpect(trace.errors).toEqual([]);
      for (const item of exercises) {
        vexpect(exercised(item, trace), `${name}: ${item} had nothing to judge`).toBe(true);
        seen.add(item);
      }
    });
  }

  it("every health item was exercised by some healthy run", () => {
    vexpect([...seen].sort()).toEqual([...HEALTH_ITEMS].sort());
  });
});
