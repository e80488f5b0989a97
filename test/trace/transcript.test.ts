/** Recorded claude 2.1.197 transcripts → Traces, and every way a transcript can be damaged. */
import { readFileSync } from "node:fs";
import { describe, expect as vexpect, it } from "vitest";
import {
  denied, didNotWrite, expect, hookFired, notTool, onlyTools, output, parseTranscript, readTranscript, subagent, tool,
  validateTrace, wrote, isProctorError,
} from "../../src/index.js";

const fixture = (name: string) => new URL(`../fixtures/transcripts/${name}`, import.meta.url).pathname;
const lines = (name: string) => readFileSync(fixture(name), "utf8").trim().split("\n");

describe("edit-write-bash-fail.jsonl", () => {
  const trace = readTranscript(fixture("edit-write-bash-fail.jsonl"));

  it("reads source, calls, statuses, replies, usage and files", () => {
    vexpect(trace.source).toMatchObject({ kind: "transcript", agentVersion: "2.1.197", cwd: "/home/dev/wf1", model: "claude-opus-4-8[1m]" });
    vexpect(trace.complete).toBe(true);
    vexpect(trace.toolCalls.map((c) => [c.name, c.status])).toEqual([
      ["Read", "success"],
      ["Edit", "success"],
      ["Write", "success"],
      ["Bash", "failure"],
    ]);
    vexpect(trace.replies.map((r) => r.text)).toEqual(["Edited app.js and added a test. The check command failed with exit code 3."]);
    vexpect(trace.output).toBe(trace.replies[0].text);
    vexpect(trace.turns).toBe(5);
    vexpect(trace.usage).toEqual({ costUsd: 0.0063750000000000005, durationMs: 494, inputTokens: 500, outputTokens: 125, cacheCreationTokens: 100, cacheReadTokens: 250 });
    vexpect(trace.files).toEqual({
      source: "tool-calls",
      changes: [
        { path: "src/app.js", change: "modified" },
        { path: "test/app.test.js", change: "created" },
      ],
    });
    vexpect(trace.errors).toEqual([]);
  });

  it("a text block sharing a message with a tool call is not a reply", () => {
    vexpect(trace.replies.some((r) => r.text.includes("Now a test file"))).toBe(false);
  });

  it("satisfies the schema and round-trips through JSON unchanged", () => {
    const copy = JSON.parse(JSON.stringify(trace));
    vexpect(validateTrace(copy)).toEqual(trace);
  });

  it("checks read it as expected", () => {
    vexpect(() => expect(trace, [tool("Edit"), wrote("test/app.test.js"), output(/exit code 3/)])).not.toThrow();
    vexpect(didNotWrite("package.json").eval(trace).pass).toBe(false); // no snapshot: fails closed
  });
});

describe("explore-subagent-lockfile-hook.jsonl", () => {
  const trace = readTranscript(fixture("explore-subagent-lockfile-hook.jsonl"));

  it("attributes the subagent's calls to it", () => {
    vexpect(trace.subagents).toEqual([
      { id: "toolu_g1", type: "Explore", description: "find configs", prompt: "List every config file in this repo", calls: [1], output: "Config files: tsconfig.json", status: "success" },
    ]);
    vexpect(trace.toolCalls[1]).toMatchObject({ name: "Glob", agent: "toolu_g1", agentType: "Explore" });
  });

  it("reads hooks, ties the PreToolUse hook to its call, and marks the call denied", () => {
    vexpect(trace.hooks.map((h) => [h.name, h.exitCode, h.blocked, h.callId])).toEqual([
      ["SubagentStop", 0, false, undefined],
      ["PreToolUse:Write", 2, true, "toolu_g2"],
    ]);
    vexpect(trace.toolCalls[2]).toMatchObject({ name: "Write", status: "denied", deniedBy: "hook" });
  });

  it("checks read it as expected", () => {
    const results = expect(trace, [
      denied("Write", { file_path: /package-lock\.json$/ }),
      hookFired("PreToolUse:Write"),
      subagent("Explore", [onlyTools(["Glob", "Grep", "Read"]), notTool("Write")]),
    ]);
    vexpect(results.every((r) => r.pass)).toBe(true);
    vexpect(notTool("Write").eval(trace).pass).toBe(false);
  });

  it("replies come from the main agent only", () => {
    vexpect(trace.replies.map((r) => r.text)).toEqual(["Found the config files; I did not touch the lockfile."]);
  });
});

describe("damaged and unusual transcripts", () => {
  const base = lines("edit-write-bash-fail.jsonl");

  it("reports a malformed line by number and keeps everything else", () => {
    const text = [...base.slice(0, 3), '{"type":"assistant", oops', ...base.slice(3)].join("\n");
    const t = parseTranscript(text);
    vexpect(t.errors).toEqual([vexpect.objectContaining({ kind: "malformed-line", line: 4 })]);
    vexpect(t.errors[0].message).toContain("line 4 is not JSON");
    vexpect(t.toolCalls).toHaveLength(4);
    vexpect(t.complete).toBe(true);
  });

  it("tolerates line types it does not know", () => {
    const t = parseTranscript([base[0], '{"type":"rate_limit_event","info":{}}', '{"type":"system","subtype":"shiny_new"}', ...base.slice(1)].join("\n"));
    vexpect(t.errors).toEqual([]);
    vexpect(t.toolCalls).toHaveLength(4);
  });

  it("marks a transcript without a result line incomplete; calls without results are pending", () => {
    const t = parseTranscript(base.slice(0, 9).join("\n"));
    vexpect(t.complete).toBe(false);
    vexpect(t.errors.map((e) => e.kind)).toEqual(["incomplete"]);
    vexpect(t.toolCalls.map((c) => c.status)).toEqual(["success", "success", "success", "pending"]);
    vexpect(t.usage).toBeUndefined();
    vexpect(t.output).toBeUndefined();
    vexpect(notTool("Agent").eval(t).pass).toBe(false); // absence can't be shown
  });

  it("reads the older Task tool as a subagent dispatch", () => {
    const t = parseTranscript(
      lines("explore-subagent-lockfile-hook.jsonl")
        .map((l) => l.replace('"name":"Agent"', '"name":"Task"'))
        .join("\n"),
    );
    vexpect(t.subagents.map((s) => s.type)).toEqual(["Explore"]);
    vexpect(t.toolCalls[1].agent).toBe("toolu_g1");
  });

  it("classifies unknown tools as invalid and permission denials as denied", () => {
    const assistant = (id: string, name: string) =>
      JSON.stringify({ type: "assistant", message: { id: `m_${id}`, content: [{ type: "tool_use", id, name, input: { command: "ls" } }] }, parent_tool_use_id: null });
    const result = (id: string, content: string) => JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: id, content, is_error: true }] }, parent_tool_use_id: null });
    const text = [
      base[0],
      assistant("t1", "Frobnicate"),
      result("t1", "<tool_use_error>Error: No such tool available: Frobnicate</tool_use_error>"),
      assistant("t2", "Bash"),
      result("t2", "Permission to use Bash has been denied because Claude Code is running in don't ask mode."),
      assistant("t3", "Bash"),
      result("t3", "Hook said no: use the safe script"),
      JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "ok", num_turns: 4, permission_denials: [{ tool_name: "Bash", tool_use_id: "t2" }, { tool_name: "Bash", tool_use_id: "t3" }] }),
    ].join("\n");
    const t = parseTranscript(text);
    // t3 is listed as denied, but no hook event and no CLI wording says who refused it: never guessed.
    vexpect(t.toolCalls.map((c) => [c.status, c.deniedBy])).toEqual([
      ["invalid", undefined],
      ["denied", "permission"],
      ["denied", "unknown"],
    ]);
  });

  it("records an API failure from the result line as a run error", () => {
    const t = parseTranscript(
      [base[0], JSON.stringify({ type: "result", subtype: "success", is_error: true, api_error_status: 529, result: "API Error: 529 Overloaded", num_turns: 1 })].join("\n"),
    );
    vexpect(t.outcome).toEqual({ subtype: "success", isError: true, apiErrorStatus: 529 });
    vexpect(t.errors).toEqual([{ kind: "api-error", message: "API Error: 529 Overloaded" }]);
    vexpect(t.output).toBeUndefined();
  });

  it("an empty transcript is an incomplete trace, not a crash", () => {
    const t = parseTranscript("");
    vexpect(t.complete).toBe(false);
    vexpect(onlyTools(["Read"]).eval(t).pass).toBe(false);
  });

  it("a missing file is a ProctorError naming the path", () => {
    try {
      readTranscript("/nonexistent/run.jsonl");
      throw new Error("unreachable");
    } catch (error) {
      vexpect(isProctorError(error)).toBe(true);
      vexpect((error as Error).message).toContain("cannot read transcript /nonexistent/run.jsonl: ENOENT");
    }
  });
});
