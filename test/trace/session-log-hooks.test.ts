/**
 * What a Claude Code session log holds about hooks, recorded from one run on each claude (the
 * repo-hygiene guard denying `rm -rf` by exit 2, a settings hook denying Write by JSON, a
 * PostToolUse hook adding context, silent Stop hooks), trimmed to the lines that matter:
 * a hook that left a mark is a hook event, a denial the log attributes to a hook is one, and
 * hookFired never contradicts denied — where the log cannot tell, it fails saying why.
 */
import { describe, expect, it } from "vitest";
import { denied, hookFired, hookSaid, readTranscript } from "../../src/index.js";

const log = (name: string) => new URL(`../fixtures/session-logs/hooks/${name}`, import.meta.url).pathname;
const V197 = log("2.1.197-9c8313fe-6400-479a-8e5f-b59ab0c0c76f.jsonl");
const V332 = log("2.1.332-7b3480ab-ed6e-425e-b2c7-a33db7987a14.jsonl");

describe("session log: hooks", () => {
  it.each([
    ["2.1.197", V197],
    ["2.1.332", V332],
  ])("claude %s: a logged hook run is a hook event, tied to its call, and the record is marked partial", (_v, file) => {
    const t = readTranscript(file);
    expect(t.source.hookRecord).toBe("partial");
    expect(t.hooks).toEqual([expect.objectContaining({ name: "PostToolUse:Bash", event: "PostToolUse", exitCode: 0, blocked: false, callId: "toolu_mock_1_5" })]);
    expect(hookFired("PostToolUse").eval(t).pass).toBe(true);
    expect(hookSaid("PostToolUse", "ctx from post", { in: "context" }).eval(t).pass).toBe(true);
  });

  it("claude 2.1.332 logs who denied a call: both denials are the hook's, and hookFired agrees with denied", () => {
    const t = readTranscript(V332);
    expect(t.toolCalls.map((c) => [c.name, c.status, c.deniedBy])).toEqual([
      ["Bash", "denied", "hook"],
      ["Write", "denied", "hook"],
      ["Bash", "success", undefined],
    ]);
    expect(denied("Bash", { command: /rm -rf/ }).eval(t).pass).toBe(true);
    expect(denied("Write").eval(t).pass).toBe(true);
    const fired = hookFired("PreToolUse").eval(t);
    expect(fired).toMatchObject({ pass: true, message: "PreToolUse hook fired: it denied #0 Bash, #1 Write (the trace records the denial, not the hook's own output)" });
    expect(hookFired("PreToolUse:Write").eval(t).pass).toBe(true);
    expect(hookFired("PreToolUse:Read").eval(t).pass).toBe(false);
  });

  it("where the log cannot tell (2.1.197 keeps no denier; silent Stop hooks leave no line), hookFired fails closed and says why", () => {
    for (const [file, event] of [
      [V197, "PreToolUse"],
      [V332, "Stop"],
    ] as const) {
      const r = hookFired(event).eval(readTranscript(file));
      expect(r.pass).toBe(false);
      expect(r.message).toContain(`expected a ${event} hook to fire; hooks recorded: PostToolUse:Bash — and proctor cannot tell whether it fired: this trace was read from a Claude Code session log`);
      expect(r.message).toContain("--include-hook-events");
    }
    expect(hookSaid("Stop", "x").eval(readTranscript(V332)).message).toContain("no Stop hook run is recorded (hooks recorded: PostToolUse:Bash) — this trace was read from a Claude Code session log");
    // 2.1.197's log does not say who refused: denied does not claim a hook either.
    expect(denied("Bash", { command: /rm -rf/ }).eval(readTranscript(V197)).pass).toBe(false);
  });

  it("a stream-json trace keeps the usual message: no claim that the record is partial", () => {
    const stream = ['{"type":"system","subtype":"init","session_id":"s","tools":["Bash"],"claude_code_version":"2.1.197"}', '{"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":1,"session_id":"s"}'].join("\n");
    const r = hookFired("Stop").eval(readTranscript(stream));
    expect(r.message).toBe("expected a Stop hook to fire; no hooks fired (is the hook registered in the settings or plugin the run loaded, and does its matcher match?)");
  });
});
