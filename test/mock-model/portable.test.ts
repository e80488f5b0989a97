/**
 * One script, every claude: the mock answers the CLI's protocol turns itself (a background
 * subagent's launch and notification, the ToolSearch before a deferred MCP tool), so the same
 * script gives the same verdicts on 2.1.197 and on 2.1.3xx — and a script can still take those
 * turns over. Runs the real binary (CI runs it again on the newest published claude).
 */
import { fileURLToPath } from "node:url";
import { describe, expect as vexpect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHarness, runReplay, type HarnessSpec } from "../../harness/index.js";
import { expect, mcp, onlyTools, output, subagent, toolWith, type Trace } from "../../src/index.js";
import type { Script } from "../../mock-model/index.js";
import { atLeast, claudeVersion } from "../helpers/claude-version.js";

const ECHO_MCP = fileURLToPath(new URL("../harness/fixtures/echo-mcp.mjs", import.meta.url));
/** claude runs subagents in the background and defers MCP tools from here on (2.1.332 does; 2.1.197 does neither). */
const PROTOCOL_VERSION = "2.1.300";

const reviewer = { type: "reviewer", turns: [{ tools: [{ name: "Read", input: { file_path: "notes.txt" } }] }, { text: "Looks fine." }] };
const dispatch = (extra: Record<string, unknown> = {}) => ({ name: "Agent", input: { description: "review", prompt: "Review notes.txt", subagent_type: "reviewer", ...extra } });
const echo = { name: "mcp__echo__echo", input: { text: "ping" } };

/** The model's decisions only: dispatch a reviewer, call an MCP tool with its answer in hand, report. */
const PORTABLE: Script = {
  turns: [
    { tools: [dispatch()] },
    (ctx) => ({ text: "Calling echo.", tools: [{ ...echo, input: { text: /Looks fine\./.test(ctx.lastToolResult?.content ?? "") ? "reviewed" : "unreviewed" } }] }),
    { text: "Done: reviewed and echoed." },
  ],
  subagents: [reviewer],
};

const spec = (script: Script): HarnessSpec => ({
  prompt: "review notes.txt, then echo",
  script,
  files: { "notes.txt": "hello\n" },
  agents: { reviewer: "---\nname: reviewer\ndescription: Reviews files\ntools: Read\n---\nReview what you are pointed at.\n" },
  mcpConfig: { mcpServers: { echo: { command: "node", args: [ECHO_MCP] } } },
});

const calls = (trace: Trace) => trace.toolCalls.map((c) => `${c.name}:${c.status}`).sort();

describe(`one script on every claude (this run: ${claudeVersion()})`, () => {
  it("a background subagent and an MCP call: the same verdicts, replies and output on 2.1.197 and 2.1.3xx, and its recording replays", async () => {
    const result = await runHarness(spec(PORTABLE));
    const { trace, mockRun } = result;
    vexpect(mockRun.errors).toEqual([]);
    vexpect(mockRun.unusedTurns()).toEqual([]);
    vexpect(trace.health?.ok, JSON.stringify(trace.health)).toBe(true);
    expect(trace, [
      subagent("reviewer", [toolWith("Read", { file_path: "notes.txt" }), onlyTools(["Read"])]),
      mcp("echo", "echo"),
      toolWith("mcp__echo__echo", { text: "reviewed" }),
      output("Done: reviewed and echoed."),
    ]);
    // The mock's empty turns are no replies: the main agent's replies are the script's, on every version.
    vexpect(trace.replies.map((r) => r.text)).toEqual(["Done: reviewed and echoed."]);
    // Its recording replays on the same claude without a divergence: the filled turns are filled again.
    const dir = mkdtempSync(join(tmpdir(), "proctor-portable-"));
    try {
      const recording = join(dir, "run.jsonl");
      writeFileSync(recording, result.stdout);
      const { script: _, ...setup } = spec(PORTABLE);
      const replay = await runReplay({ ...setup, recording });
      vexpect(replay.trace.replay?.divergences).toEqual([]);
      vexpect(replay.trace.replay?.stoppedEarly).toBe(false);
      vexpect(calls(replay.trace)).toEqual(calls(trace));
      vexpect(replay.trace.output).toBe("Done: reviewed and echoed.");
      await replay.cleanup();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const kinds = mockRun.filledTurns.map((f) => f.kind);
    if (atLeast(PROTOCOL_VERSION)) {
      // What differs is claude's own: the subagent ran in the background, the tool was searched for.
      vexpect(kinds).toContain("await-background");
      vexpect(kinds.filter((k) => k === "tool-search")).toEqual(["tool-search"]);
      vexpect(calls(trace)).toEqual(["Agent:success", "Read:success", "ToolSearch:success", "mcp__echo__echo:success"]);
      vexpect(trace.toolCalls.find((c) => c.name === "ToolSearch")?.input).toEqual({ query: "select:mcp__echo__echo" });
    } else {
      vexpect(kinds).toEqual([]);
      vexpect(calls(trace)).toEqual(["Agent:success", "Read:success", "mcp__echo__echo:success"]);
    }
    await result.cleanup();
  });

  it("takeover: run_in_background and a scripted ToolSearch are the script's own turns, on every version", async () => {
    const script: Script = {
      protocolTurns: false,
      turns: [
        { tools: [dispatch({ run_in_background: true })] },
        { text: "Started the reviewer." },
        // The notification's turn: the script answers it, and loads the tool itself.
        { tools: [{ name: "ToolSearch", input: { query: "select:mcp__echo__echo" } }] },
        { tools: [echo] },
        { text: "Done." },
      ],
      subagents: [reviewer],
    };
    const result = await runHarness(spec(script));
    const { trace, mockRun } = result;
    vexpect(mockRun.errors).toEqual([]);
    vexpect(mockRun.filledTurns).toEqual([]);
    vexpect(mockRun.unusedTurns()).toEqual([]);
    vexpect(trace.health?.ok, JSON.stringify(trace.health)).toBe(true);
    expect(trace, [subagent("reviewer", [toolWith("Read", { file_path: "notes.txt" })]), mcp("echo", "echo"), output("Done.")]);
    // 2.1.197 offers no ToolSearch: the scripted call is refused there, as the script asked for it.
    vexpect(trace.toolCalls.find((c) => c.name === "ToolSearch")?.status).toBe(atLeast(PROTOCOL_VERSION) ? "success" : "invalid");
    await result.cleanup();
  });

  it("takeover: protocolTurns { toolSearch: false } calls the deferred tool directly (no ToolSearch in the trace)", async () => {
    const result = await runHarness(spec({ ...PORTABLE, protocolTurns: { toolSearch: false } }));
    const { trace, mockRun } = result;
    vexpect(mockRun.errors).toEqual([]);
    vexpect(mockRun.filledTurns.map((f) => f.kind)).not.toContain("tool-search");
    vexpect(trace.toolCalls.map((c) => c.name)).not.toContain("ToolSearch");
    expect(trace, [mcp("echo", "echo"), output("Done: reviewed and echoed.")]);
    await result.cleanup();
  });
});
