/**
 * Only the main agent's answer completes a session: a log whose last line is a subagent's message
 * (`isSidechain: true`, as logs that keep subagents in the main file write them) was cut while the
 * subagent ran, and its answer is not the run's output.
 */
import { describe, expect, it } from "vitest";
import { readTranscript } from "../../src/index.js";

const SESSION = "3eb61bf7-a3c6-40c6-8236-1a79cd7784f6";
let n = 0;
const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ parentUuid: null, isSidechain: false, uuid: `u${++n}`, timestamp: `2026-12-03T09:08:2${n % 10}.000Z`, cwd: "/w", sessionId: SESSION, version: "2.1.197", ...fields });
const assistant = (id: string, stop: string, block: Record<string, unknown>, sidechain = false) =>
  line({ type: "assistant", isSidechain: sidechain, message: { id, role: "assistant", model: "claude-opus-4-8", content: [block], stop_reason: stop } });

describe("session log: a subagent's last message", () => {
  it("does not complete the session", () => {
    const log = [
      line({ type: "user", message: { role: "user", content: "Review the notes" } }),
      assistant("msg_1", "tool_use", { type: "tool_use", id: "toolu_a", name: "Agent", input: { prompt: "Review notes.txt", subagent_type: "reviewer" } }),
      line({ type: "user", isSidechain: true, message: { role: "user", content: "Review notes.txt" } }),
      assistant("msg_s1", "end_turn", { type: "text", text: "Looks fine." }, true),
    ].join("\n");
    const trace = readTranscript(log);
    expect(trace.complete).toBe(false);
    expect(trace.output).toBeUndefined();
  });
});
