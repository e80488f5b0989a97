/**
 * A session log is complete only when it ended with the main agent's answer. Claude Code writes
 * each block of an assistant message as its own line (same message id, the message's stop reason
 * on every line), so a log cut between the blocks of one message can end on a text or thinking
 * line of a message that went on to call a tool: that is a cut, not an answer.
 */
import { describe, expect, it } from "vitest";
import { readTranscript } from "../../src/index.js";

const SESSION = "3eb61bf7-a3c6-40c6-8236-1a79cd7784f6";
const CWD = "/tmp/proctor-run-x/work";
let n = 0;
const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ parentUuid: null, isSidechain: false, uuid: `u${++n}`, timestamp: `2026-12-03T09:08:2${n % 10}.000Z`, cwd: CWD, sessionId: SESSION, version: "2.1.197", gitBranch: "HEAD", ...fields });
const assistant = (id: string, stop: string, block: Record<string, unknown>) =>
  line({ type: "assistant", message: { id, type: "message", role: "assistant", model: "claude-opus-4-8", content: [block], stop_reason: stop, usage: { input_tokens: 10, output_tokens: 5 } } });
const prompt = line({ type: "user", message: { role: "user", content: "Look around" }, permissionMode: "acceptEdits" });
const result = (id: string, text: string) => line({ type: "user", message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: text }] } });

describe("session log: completeness", () => {
  it("a log cut after the text line of a message that calls a tool is incomplete", () => {
    const log = [prompt, assistant("msg_1", "tool_use", { type: "text", text: "Listing first." })].join("\n");
    const trace = readTranscript(log);
    expect(trace.complete).toBe(false);
    expect(trace.output).toBeUndefined();
  });

  it("a log cut after the thinking line of a message that calls a tool is incomplete", () => {
    const log = [
      prompt,
      assistant("msg_1", "tool_use", { type: "text", text: "Listing first." }),
      assistant("msg_1", "tool_use", { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }),
      result("toolu_1", "notes.txt"),
      assistant("msg_2", "tool_use", { type: "thinking", thinking: "Now remove it.", signature: "" }),
    ].join("\n");
    expect(readTranscript(log).complete).toBe(false);
  });

  it("the same log ending with the message's answer is complete (the check above can pass)", () => {
    const log = [
      prompt,
      assistant("msg_1", "tool_use", { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }),
      result("toolu_1", "notes.txt"),
      assistant("msg_2", "end_turn", { type: "text", text: "Summary: listed." }),
    ].join("\n");
    const trace = readTranscript(log);
    expect(trace.complete).toBe(true);
    expect(trace.output).toBe("Summary: listed.");
  });

  it("a malformed line is reported by its line number in the log", () => {
    const log = [
      prompt,
      assistant("msg_1", "tool_use", { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }),
      '{"type":"user","message":', // line 3 of the log
      assistant("msg_2", "end_turn", { type: "text", text: "Summary: listed." }),
    ].join("\n");
    const trace = readTranscript(log);
    expect(trace.errors.filter((e) => e.kind === "malformed-line").map((e) => e.line)).toEqual([3]);
  });
});
