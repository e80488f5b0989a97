/**
 * proctor's readers build only valid Traces, whatever the transcript holds: `trustTrace` lets
 * checks skip validating a Trace a reader has just built, and that is sound only while this holds.
 * Random line sequences from the recorded transcripts and from session logs (dropped, repeated,
 * reordered, cut short, damaged) are read, and a copy of each Trace (a new object, so nothing is
 * taken on trust) must pass the full schema and consistency validation.
 */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTranscript, readTranscript } from "../../src/index.js";
import { traceErrors } from "../../src/trace/schema.js";

const dir = new URL("../fixtures/transcripts/", import.meta.url).pathname;
const streamLines = readdirSync(dir)
  .filter((f) => f.endsWith(".jsonl"))
  .flatMap((f) => readFileSync(dir + f, "utf8").split("\n").filter(Boolean));

const SESSION = "3eb61bf7-a3c6-40c6-8236-1a79cd7784f6";
const base = { parentUuid: null, isSidechain: false, timestamp: "2026-12-03T09:08:20.000Z", cwd: "/tmp/w", sessionId: SESSION, version: "2.1.197", gitBranch: "HEAD" };
const log = (n: number, fields: Record<string, unknown>) => JSON.stringify({ ...base, uuid: `u${n}`, ...fields });
const assistant = (id: string, stop: string | null, block: Record<string, unknown>) => ({ type: "assistant", message: { id, type: "message", role: "assistant", model: "claude-opus-4-8", content: [block], stop_reason: stop, usage: { input_tokens: 10, output_tokens: 5 } } });
const SESSION_EVENTS: Record<string, unknown>[] = [
  { type: "user", message: { role: "user", content: "Look around" }, permissionMode: "acceptEdits" },
  assistant("msg_1", "tool_use", { type: "text", text: "Listing first." }),
  assistant("msg_1", "tool_use", { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }),
  assistant("msg_2", "tool_use", { type: "tool_use", id: "toolu_2", name: "Agent", input: { subagent_type: "Explore", prompt: "look" } }),
  { type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_1", type: "tool_result", content: "notes.txt" }] } },
  { type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_2", type: "tool_result", content: "done", is_error: true }] } },
  assistant("msg_3", "end_turn", { type: "text", text: "Done." }),
  assistant("msg_3", null, { type: "thinking", thinking: "hm", signature: "" }),
  { type: "system", subtype: "compact_boundary", content: "compacted" },
  { type: "attachment", attachment: { type: "hook_success", hookName: "PreToolUse:Bash", toolUseID: "toolu_1", hookEvent: "PreToolUse", content: "", exitCode: 0 } },
  { type: "last-prompt", lastPrompt: "Look around" },
  { type: "summary", summary: "x", leafUuid: "u1" },
];

const ODD = ["", "not json", "[1,2]", "42", "null", '{"type":7}', "{}", '{"type":"constructor"}', '{"type":"__proto__"}', '{"type":"assistant","message":null}', '{"type":"user","message":{"content":[null,{}]}}'];

/** Lines drawn from `pool`, some damaged: cut short, replaced by other JSON, or blank. */
function sequences(pool: fc.Arbitrary<string>) {
  const line = fc.oneof(
    { weight: 8, arbitrary: pool },
    { weight: 1, arbitrary: fc.tuple(pool, fc.nat()).map(([l, n]) => l.slice(0, n % Math.max(1, l.length))) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  );
  return fc.array(line, { minLength: 1, maxLength: 40 }).map((ls) => ls.join("\n"));
}

/** Validation of a copy: a new object, so the reader's trust does not answer for it. */
const errorsOfCopy = (trace: object) => traceErrors(structuredClone(trace));

describe("the Traces proctor's readers build are valid", () => {
  it("claude -p stream-json, damaged and reordered", () => {
    fc.assert(fc.property(sequences(fc.constantFrom(...streamLines)), (text) => {
      expect(errorsOfCopy(parseTranscript(text))).toEqual([]);
    }), { numRuns: 400 });
  });

  it("Claude Code session logs, damaged and reordered", () => {
    const pool = fc.tuple(fc.constantFrom(...SESSION_EVENTS), fc.nat(99)).map(([e, n]) => log(n, e));
    // readTranscript reads text that starts like a session log as one (the first event decides).
    const session = fc.tuple(fc.constant(log(0, SESSION_EVENTS[0] as Record<string, unknown>)), sequences(pool)).map(([first, rest]) => `${first}\n${rest}`);
    fc.assert(fc.property(session, (text) => {
      expect(errorsOfCopy(readTranscript(text))).toEqual([]);
    }), { numRuns: 400 });
  });

  it("a Trace changed after it was read is still refused by a check (trust is per object, not per shape)", () => {
    const trace = parseTranscript(streamLines.slice(0, 20).join("\n"));
    expect(traceErrors(trace)).toEqual([]);
    const broken = { ...trace, toolCalls: "none" };
    expect(traceErrors(broken)).not.toEqual([]);
  });
});
