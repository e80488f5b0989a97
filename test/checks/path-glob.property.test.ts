/**
 * `wrote(path)` decides glob or plain path with a cheap character test before loading picomatch;
 * the decision must match picomatch's own (`scan().isGlob`, then its matcher), on any pattern.
 */
import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { evalChecks, wrote } from "../../src/index.js";
import type { Trace } from "../../src/trace/types.js";

/** A trace whose snapshot shows exactly one file written. */
function traceWriting(path: string): Trace {
  return {
    version: 1,
    source: { kind: "synthetic" },
    complete: true,
    toolCalls: [],
    subagents: [],
    skills: [],
    hooks: [],
    replies: [],
    errors: [],
    files: { source: "snapshot", changes: [{ path, change: "created" }] },
  } as unknown as Trace;
}

/** The decision as picomatch alone makes it: glob when it says so, else the exact path. */
function oracle(pattern: string, path: string): boolean {
  return picomatch.scan(pattern).isGlob ? picomatch(pattern, { dot: true })(path) : path === pattern;
}

const piece = fc.constantFrom("a", "b", ".", "/", "x.ts", "src", "-", "_", " ", "*", "**", "?", "[a-c]", "{a,b}", "!", "+", "@", "(", ")", "]", "}", "$", "^", "#", "~");
const text = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(""));

describe("wrote(): glob or plain path", () => {
  it("decides as picomatch does, for patterns with and without glob characters", () => {
    fc.assert(
      fc.property(text, text, (pattern, path) => {
        fc.pre(pattern.trim() !== "" && !pattern.startsWith("./") && !path.startsWith("./") && !pattern.startsWith("/"));
        const [result] = evalChecks(traceWriting(path), [wrote(pattern)]);
        expect(result?.pass).toBe(oracle(pattern, path));
      }),
      { numRuns: 2000 },
    );
  });
});
