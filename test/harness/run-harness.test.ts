/** runHarness against the real claude binary: files, model requests, subagents, skills, MCP, the permission default. */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect as vexpect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { advertised, denied, expect, mcp, notTool, onlyTools, output, received, skill, subagent, tool, toolWith, validateTrace, wroteOnly } from "../../src/index.js";
import { mainAgentView } from "../../src/trace/scope.js";

const APP = fileURLToPath(new URL("../../examples/fixtures/app", import.meta.url));
const ECHO_MCP = fileURLToPath(new URL("./fixtures/echo-mcp.mjs", import.meta.url));

describe("runHarness (real claude binary)", () => {
  it("runs in a fresh work dir: exact file changes, model requests, and the acceptEdits default", async () => {
    const result = await runHarness({
      prompt: "tidy the project",
      fixture: APP,
      files: { "old.txt": "stale\n" },
      script: {
        turns: [
          {
            text: "Three things at once.",
            tools: [
              { name: "Write", input: { file_path: "new.md", content: "# New\n" } },
              { name: "Bash", input: { command: "rm old.txt" } },
              { name: "Bash", input: { command: "echo appended >> notes.txt" } },
            ],
          },
          { tools: [{ name: "Bash", input: { command: "node scripts/check.mjs" } }] },
          { text: "Done." },
        ],
      },
    });
    const { trace } = result;
    validateTrace(trace);
    vexpect(trace.source).toMatchObject({ kind: "harness", permissionMode: "acceptEdits", cwd: result.workDir });
    vexpect(trace.files).toEqual({
      source: "snapshot",
      changes: [
        { path: "new.md", change: "created", content: "# New\n" },
        { path: "notes.txt", change: "modified", content: "Keep this file: the guard must stop rm -rf from deleting it.\nappended\n" },
        { path: "old.txt", change: "deleted" },
      ],
    });
    // Edits and file commands inside the work dir run; a command a user would be asked about is denied.
    vexpect(trace.toolCalls.map((c) => [c.name, c.status])).toEqual([
      ["Write", "success"],
      ["Bash", "success"],
      ["Bash", "success"],
      ["Bash", "denied"],
    ]);
    expect(trace, [
      wroteOnly(["new.md", "notes.txt", "old.txt"]),
      denied("Bash", { command: "node scripts/check.mjs" }, { by: "permission" }),
      received("tidy the project"),
      received("[tool_result"),
      advertised("Bash"),
      output("Done."),
    ]);
    vexpect(trace.toolCalls[3].deniedBy).toBe("permission");
    vexpect(trace.modelRequests?.map((r) => r.agent)).toEqual(["main", "main", "main"]);
    vexpect(advertised("mcp__*").eval(trace)).toMatchObject({ pass: false });
    vexpect(result.exitCode).toBe(0);
    vexpect(existsSync(result.workDir)).toBe(true);
    await result.cleanup();
    vexpect(existsSync(path.dirname(result.workDir))).toBe(false); // work dir, temp HOME and config dir all gone
  });

  it("attributes a subagent's calls to it, routes its turns by conversation, and branches on a tool result", async () => {
    const result = await runHarness({
      prompt: "review the code",
      fixture: APP,
      agents: { reviewer: "---\nname: reviewer\ndescription: Reviews code for risks\ntools: Read\n---\nReview what you are pointed at.\n" },
      keep: true,
      script: {
        turns: [
          { tools: [{ name: "Agent", input: { description: "review", prompt: "Review src/index.js", subagent_type: "reviewer", run_in_background: false } }], usage: { inputTokens: 1000, outputTokens: 40 } },
          (ctx) => ({ text: `Reviewer said: ${ctx.lastToolResult?.content.match(/No risks found\./)?.[0]}` }),
        ],
        subagents: [{ type: "reviewer", turns: [{ tools: [{ name: "Read", input: { file_path: "src/index.js" } }] }, { text: "No risks found." }] }],
      },
    });
    const { trace } = result;
    expect(trace, [subagent("reviewer", [onlyTools(["Read"]), toolWith("Read", { file_path: "src/index.js" })]), output("Reviewer said: No risks found.")]);
    expect(mainAgentView(trace), [notTool("Read"), onlyTools(["Agent"])]);
    vexpect(trace.toolCalls.map((c) => [c.name, c.agent === "main" ? "main" : c.agentType])).toEqual([
      ["Agent", "main"],
      ["Read", "reviewer"],
    ]);
    vexpect(trace.toolCalls[1].agent).toBe(trace.toolCalls[0].id);
    vexpect(trace.output).toBe("Reviewer said: No risks found.");
    vexpect(trace.modelRequests?.map((r) => r.agent)).toEqual(["main", "reviewer", "reviewer", "main"]);
    vexpect(trace.modelRequests?.[1].tools.map((t) => t.name)).toEqual(["Read"]);
    vexpect(trace.usage?.inputTokens).toBeGreaterThanOrEqual(1000);
    // keep: the work dir outlives cleanup() for inspection.
    await result.cleanup();
    vexpect(existsSync(result.workDir)).toBe(true);
    rmSync(result.workDir.replace(/\/work$/, ""), { recursive: true, force: true });
  });

  it("loads skills written as files and MCP servers from a config, approving both by default", async () => {
    const { trace, cleanup } = await runHarness({
      prompt: "greet, then echo",
      skills: { greet: "---\nname: greet\ndescription: Greets the user\n---\nSay hello to the user.\n" },
      mcpConfig: { mcpServers: { echo: { command: "node", args: [ECHO_MCP] } } },
      script: {
        turns: [
          { tools: [{ name: "Skill", input: { skill: "greet" } }] },
          { tools: [{ name: "mcp__echo__echo", input: { text: "ping" } }] },
          { text: "Hello! The server said echo: ping." },
        ],
      },
    });
    await cleanup();
    expect(trace, [skill("greet"), mcp("echo", "echo"), advertised("mcp__echo__echo"), received("Say hello to the user."), tool("Skill")]);
    vexpect(trace.source.mcpServers).toEqual([{ name: "echo", status: "connected" }]);
    // By name: on claude ≥ 2.1.3xx a ToolSearch call (the mock's, for the deferred MCP tool) comes first.
    vexpect(trace.toolCalls.find((c) => c.name === "mcp__echo__echo")).toMatchObject({ status: "success", result: "echo: ping" });
  });
});
