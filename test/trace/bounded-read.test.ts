/** Reading transcripts within caps (against a line-by-line reference), the JSON nesting cap, and tool inputs that carry a `__proto__` key. */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { expect as expectChecks, isProctorError, parseTranscript, readTranscript, toolWith } from "../../src/index.js";
import { findExcessDepth, parseJsonWithinDepth } from "../../src/io/json-depth.js";
import { readBytesWithin, ReadOverflowError, type ReadLimits, type ReadOverflow } from "../../src/io/read-bounded.js";
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

describe("the line and total caps agree with reading line by line", () => {
  /** The reference: every line of the bytes read (a regular file is read up to maxBytes + 1), in order. */
  function oracle(bytes: Buffer, limits: ReadLimits): ReadOverflow | "ok" {
    const read = bytes.subarray(0, Math.min(bytes.length, limits.maxBytes + 1));
    let line = 1;
    let start = 0;
    for (let i = 0; i < read.length; i++) {
      if (read[i] !== 10) continue;
      if (i - start > limits.maxLineBytes) return { kind: "line", line };
      line++;
      start = i + 1;
    }
    if (read.length - start > limits.maxLineBytes) return { kind: "line", line };
    return read.length > limits.maxBytes ? { kind: "total", line } : "ok";
  }

  const outcome = (file: string, limits: ReadLimits): ReadOverflow | "ok" => {
    try {
      readBytesWithin(file, limits);
      return "ok";
    } catch (error) {
      if (error instanceof ReadOverflowError) return error.overflow;
      throw error;
    }
  };

  it("for any lines and caps (a regular file, read in one buffer)", () => {
    const file = path.join(dir, "caps.jsonl");
    const lines = fc.array(fc.oneof(fc.nat(12), fc.nat(300)).map((n) => "é".repeat(n >> 2) + "x".repeat(n - (n >> 2))), { maxLength: 30 });
    fc.assert(
      fc.property(lines, fc.boolean(), fc.nat(400), fc.nat(4000), (ls, trailing, maxLineBytes, maxBytes) => {
        const bytes = Buffer.from(ls.join("\n") + (trailing ? "\n" : ""));
        writeFileSync(file, bytes);
        const limits = { maxLineBytes, maxBytes };
        expect(outcome(file, limits)).toEqual(oracle(bytes, limits));
        expect(outcome(file, { maxLineBytes: Number.POSITIVE_INFINITY, maxBytes })).toEqual(oracle(bytes, { maxLineBytes: Number.POSITIVE_INFINITY, maxBytes }));
      }),
      { numRuns: 300 },
    );
  });

  it.runIf(process.platform !== "win32")("for a pipe, read in 1 MiB chunks, with lines across chunk boundaries", async () => {
    const line = (n: number) => "y".repeat(n);
    const text = Buffer.from([line(10), line(1_500_000), line(20), line(900_000), line(700_000), ""].join("\n"));
    const source = path.join(dir, "pipe-source.jsonl");
    writeFileSync(source, text);
    for (const limits of [
      { maxLineBytes: 1_500_000, maxBytes: 8 << 20 },
      { maxLineBytes: 1_499_999, maxBytes: 8 << 20 },
      { maxLineBytes: 899_999, maxBytes: 8 << 20 },
      { maxLineBytes: 1_500_000, maxBytes: 2_000_000 },
    ]) {
      const fifo = path.join(dir, "pipe.fifo");
      rmSync(fifo, { force: true });
      execFileSync("mkfifo", [fifo]);
      const writer = spawn("sh", ["-c", 'cat "$1" > "$2" 2>/dev/null', "sh", source, fifo], { stdio: "ignore" });
      const closed = new Promise((resolve) => writer.once("close", resolve));
      const got = outcome(fifo, limits);
      writer.kill();
      await closed;
      // Past the total cap the pipe stops within the 900 000-byte line 4, whatever its chunk sizes.
      const expected = limits.maxBytes < text.length ? { kind: "total", line: 4 } : oracle(text, { ...limits, maxBytes: Number.POSITIVE_INFINITY });
      expect(got, JSON.stringify(limits)).toEqual(expected);
    }
  });
});
