/** Reading transcripts within caps, the JSON nesting cap, and tool inputs that carry a `__proto__` key. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expect as expectChecks, isProctorError, parseTranscript, readTranscript, toolWith } from "../../src/index.js";
import { findExcessDepth, parseJsonWithinDepth } from "../../src/io/json-depth.js";
import { encodeValue } from "../../src/match/codec.js";
import { stringifySorted } from "../../reporters/baseline/file.js";
import { readCodexJsonl } from "../../harness/index.js";
import { thrown } from "../helpers/thrown.js";

const dir = mkdtempSync(path.join(tmpdir(), "proctor-bounded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readTranscript within caps", () => {
  it("names the line that passes the line cap, and says what to do", () => {
    const file = path.join(dir, "long-line.jsonl");
    writeFileSync(file, `{"type":"system","subtype":"init"}\n{"type":"user","pad":"${"x".repeat(500)}"}\n{"type":"result"}\n`);
    const error = thrown(() => readTranscript(file, { maxLineBytes: 100 }));
    expect(isProctorError(error) && error.code).toBe("TRANSCRIPT_UNREADABLE");
    expect(error.message).toBe(
      `transcript ${file}: line 2 is longer than 100 bytes; reading stopped there\n  one event per line is expected: is this the right file? If it is, pass a larger maxLineBytes to readTranscript`,
    );
    expect(readTranscript(file, { maxLineBytes: 1000 }).source.kind).toBe("transcript");
    expect(() => readCodexJsonl(file, { maxLineBytes: 100 })).toThrow(`Codex events ${file}: line 2 is longer than 100 bytes; reading stopped there`);
  });

  it("stops at the total cap", () => {
    const file = path.join(dir, "many-lines.jsonl");
    writeFileSync(file, `${'{"type":"system","subtype":"x"}\n'.repeat(1000)}`);
    expect(() => readTranscript(file, { maxBytes: 4096 })).toThrow(/^transcript .* is larger than 4 KiB \(reading stopped at line \d+\); reading stopped there/);
  });

  it("refuses a non-string with a ProctorError, not a TypeError", () => {
    const error = thrown(() => readTranscript(123 as never));
    expect(isProctorError(error)).toBe(true);
    expect(error.message).toBe("readTranscript: expected a transcript file path or the transcript text (a string); got number 123");
  });
});

describe("JSON nesting cap", () => {
  it("finds the first place input nests too deep, ignoring brackets in strings", () => {
    expect(findExcessDepth('{"a":[1,{"b":"[[[[[["}]}', 3)).toBeUndefined();
    expect(findExcessDepth('{"a":[[1]]}', 2)).toBe(6);
    expect(findExcessDepth('{"a":"\\"[[[[["}', 2)).toBeUndefined();
    expect(() => parseJsonWithinDepth(`${"[".repeat(100_000)}${"]".repeat(100_000)}`, "the payload")).toThrow(/^the payload nests deeper than 512 levels \(at character 512\)/);
  });

  it("turns a transcript line nested 100 000 deep into a reported malformed line, not a RangeError", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const trace = parseTranscript(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"x":${deep}}}]}}\n`);
    expect(trace.errors[0]).toMatchObject({ kind: "malformed-line", line: 1, message: expect.stringContaining("nests deeper than 512 levels") });
    expect(() => JSON.stringify(trace)).not.toThrow();
  });
});

describe("a tool input with a __proto__ key", () => {
  const line = (input: string) =>
    [
      `{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":${input}}]}}`,
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}',
      '{"type":"result","subtype":"success","is_error":false,"result":"done"}',
    ].join("\n");

  it("keeps every own key through parsing, JSON, sorted JSON and the check codec, and pollutes no prototype", () => {
    const trace = parseTranscript(line('{"__proto__":{"polluted":"yes"},"command":"ls"}'));
    const input = trace.toolCalls[0].input;
    expect(Object.keys(input)).toEqual(["__proto__", "command"]);
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(JSON.stringify(trace)).toContain('"input":{"__proto__":{"polluted":"yes"},"command":"ls"}');
    expect(stringifySorted(trace)).toContain('"__proto__": {\n');
    expect(Object.keys(encodeValue(input) as object)).toEqual(["__proto__", "command"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expectChecks(trace, [toolWith("Bash", { command: "ls" })]);
  });
});
