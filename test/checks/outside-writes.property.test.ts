/**
 * wrote / didNotWrite / wroteOnly see writes outside the work dir (trace.outsideWrites), against an
 * oracle that looks plain paths up: a write under `$HOME` or a plugin copy fails `wroteOnly` unless
 * allowed, a path outside every compared root is never confirmed unwritten, and a place the run
 * could write uncompared makes `wroteOnly` fail closed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { didNotWrite, wrote, wroteOnly } from "../../src/index.js";
import type { FileChange, OutsideWrites } from "../../src/trace/types.js";
import { makeTrace } from "../helpers/trace.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 200);
const WORK = ["a.txt", "src/c.ts"];
const OUTSIDE = ["$HOME/.config/x", "$TMPDIR/t", "plugin:p/state.txt", "mcp:memory/dist/memory.jsonl"];
const ELSEWHERE = ["/etc/passwd", "$XDG/x", "plugin:other/y"];
const ROOTS = [
  { name: "$HOME", path: "/r/home" },
  { name: "$TMPDIR", path: "/r/tmp" },
  { name: "plugin:p", path: "/r/plugins/p", copiedFrom: "/src/p" },
  { name: "mcp:memory", path: "/r/mcp/memory", copiedFrom: "/nm/memory" },
];
const kind = fc.constantFrom("created" as const, "modified" as const, "deleted" as const);
const changesOf = (paths: string[]) => fc.uniqueArray(fc.record({ path: fc.constantFrom(...paths), change: kind }), { selector: (c) => c.path, maxLength: paths.length });

function traceWith(work: FileChange[], outside: FileChange[], uncovered: string[]) {
  const outsideWrites: OutsideWrites = { sandbox: { on: true }, roots: ROOTS, changes: outside, uncovered };
  return makeTrace({ files: { source: "snapshot", changes: work }, outsideWrites });
}

describe("checks over writes outside the work dir", () => {
  it("wroteOnly passes exactly when every observed change is allowed and nothing was left uncompared", () => {
    fc.assert(
      fc.property(changesOf(WORK), changesOf(OUTSIDE), fc.subarray([...WORK, ...OUTSIDE]), fc.boolean(), (work, outside, allowed, gap) => {
        const trace = traceWith(work, outside, gap ? ["MCP server x is reached over http: what it stores is outside the trial"] : []);
        const oracle = [...work, ...outside].every((c) => allowed.includes(c.path)) && !gap;
        const r = wroteOnly(allowed).eval(trace);
        expect(r.pass).toBe(oracle);
        if (gap && [...work, ...outside].every((c) => allowed.includes(c.path))) expect(r.message).toContain("reached over http");
      }),
      { numRuns: RUNS },
    );
  });

  it("wrote and didNotWrite are complements on every compared path; outside every root didNotWrite never passes", () => {
    fc.assert(
      fc.property(changesOf(WORK), changesOf(OUTSIDE), fc.constantFrom(...WORK, ...OUTSIDE, ...ELSEWHERE), (work, outside, path) => {
        const trace = traceWith(work, outside, []);
        const there = [...work, ...outside].some((c) => c.path === path);
        const compared = !ELSEWHERE.includes(path);
        expect(wrote(path).eval(trace).pass).toBe(there);
        expect(didNotWrite(path).eval(trace).pass).toBe(!there && compared);
      }),
      { numRuns: RUNS },
    );
  });

  it("a trace that compared only the work dir confirms nothing outside it", () => {
    const trace = makeTrace({ files: { source: "snapshot", changes: [] } });
    const r = didNotWrite("/root/.bashrc").eval(trace);
    expect(r.pass).toBe(false);
    expect(r.message).toContain("compared only the work dir");
    expect(didNotWrite("a.txt").eval(trace).pass).toBe(true);
    expect(wroteOnly([]).eval(trace).message).toContain("writes outside the work dir were not observed");
  });

  it("a glob reaches outside changes too, and an unsandboxed run says so when it passes", () => {
    const outside = [{ path: "plugin:p/__state/x", change: "created" as const }];
    const trace = makeTrace({ files: { source: "snapshot", changes: [] }, outsideWrites: { sandbox: { on: false, reason: "needs docker" }, roots: ROOTS, changes: outside, uncovered: [] } });
    expect(wroteOnly(["plugin:p/**"]).eval(trace).pass).toBe(true);
    expect(wroteOnly(["plugin:p/**"]).eval(trace).message).toContain("unsandboxed (needs docker)");
    expect(wroteOnly([]).eval(trace).message).toContain("plugin:p/__state/x");
  });
});
