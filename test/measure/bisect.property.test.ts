/**
 * `bisectVersions` against a brute-force oracle: versions whose checks pass at a known rate, one
 * change point, and a linear scan for the first version that behaves like the new end.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bisectVersions, type Probe } from "../../src/measure/bisect.js";
import { compareVersions, testedRangeWarning, TESTED_CLAUDE_RANGE } from "../../src/measure/claude-versions.js";
import { versionMatrix } from "../../src/measure/version-matrix.js";
import { normaliseWording, wordingDrift } from "../../src/trace/version-drift.js";
import { measure, notTool, type Trace } from "../../src/index.js";
import { makeTrace, usage } from "../helpers/trace.js";

const versions = (n: number) => Array.from({ length: n }, (_, i) => `2.1.${200 + i}`);

/** A probe where every trial of a version passes (before the change) or fails (from it on). */
function stepProbe(list: readonly string[], change: number, calls: string[] = []): Probe {
  return async (version, trials) => {
    calls.push(version);
    const passes = list.indexOf(version) < change ? trials : 0;
    return { "tool(Edit)": { passes, n: trials } };
  };
}

/** The oracle: scan every version, in order, for the first that differs from the first. */
async function linearFirstChange(list: readonly string[], probe: Probe): Promise<string | undefined> {
  const first = (await probe(list[0]!, 5))["tool(Edit)"]!;
  for (const v of list.slice(1)) {
    const c = (await probe(v, 5))["tool(Edit)"]!;
    if (c.passes / c.n !== first.passes / first.n) return v;
  }
  return undefined;
}

describe("bisectVersions", () => {
  it("finds the first changed version the linear scan finds, probing O(log n) versions", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 130 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n - 1 }))), async ([n, change]) => {
        const list = versions(n);
        const calls: string[] = [];
        const result = await bisectVersions(list, stepProbe(list, change, calls), { trials: 5 });
        const expected = await linearFirstChange(list, stepProbe(list, change));
        expect(result.status).toBe("found");
        expect(result.firstNew).toBe(expected);
        expect(result.lastOld).toBe(list[change - 1]);
        expect(result.confidence).toBeGreaterThan(0.9);
        expect(new Set(calls).size).toBeLessThanOrEqual(Math.ceil(Math.log2(n)) + 2);
      }),
      { numRuns: 60 },
    );
  });

  it("says no-change, claiming nothing, when the ends do not differ", async () => {
    const list = versions(9);
    const result = await bisectVersions(list, async (_v, trials) => ({ c: { passes: Math.floor(trials / 2), n: trials } }), { trials: 5 });
    expect(result.status).toBe("no-change");
    expect(result.firstNew).toBeUndefined();
    expect(result.note).toMatch(/do not differ significantly/);
  });

  it("marks a step it cannot decide as uncertain and claims no confidence", async () => {
    const list = versions(3);
    // The middle version passes half its trials: neither end's rate, so no test decides it.
    const result = await bisectVersions(list, async (v, trials) => ({ c: { passes: v === list[0] ? trials : v === list[2] ? 0 : Math.floor(trials / 2), n: trials } }), { trials: 6, maxTrials: 12 });
    expect(result.status).toBe("found");
    expect(result.steps.some((s) => s.uncertain)).toBe(true);
    expect(result.confidence).toBeUndefined();
    expect(result.note).toMatch(/no confidence is claimed/);
  });

  it("ends when every trial errors (no evidence at all): no-change, after a bounded number of probes", async () => {
    const list = versions(9);
    let probes = 0;
    const result = await bisectVersions(
      list,
      async () => {
        // A search that loops on evidence-free rounds never yields to a timer: stop it here instead.
        if (++probes > 50) throw new Error("bisect kept probing trials that measured nothing");
        return { c: { passes: 0, n: 0 } };
      },
      { trials: 5, maxTrials: 20 },
    );
    expect(result.status).toBe("no-change");
    expect(probes).toBeLessThanOrEqual(2 * 4);
  });

  it("a middle version whose trials all error is topped up a bounded number of times, then marked uncertain", async () => {
    const list = versions(3);
    let middle = 0;
    const result = await bisectVersions(
      list,
      async (v, trials) => {
        if (v === list[1] && ++middle > 50) throw new Error("bisect kept topping up a version that measured nothing");
        return { c: v === list[1] ? { passes: 0, n: 0 } : { passes: v === list[0] ? trials : 0, n: trials } };
      },
      { trials: 5, maxTrials: 20 },
    );
    expect(result.status).toBe("found");
    expect(middle).toBeLessThanOrEqual(4);
    expect(result.steps.find((s) => s.version === list[1])?.uncertain).toBe(true);
  });

  it("refuses fewer than two versions and a check the ends did not measure", async () => {
    await expect(bisectVersions(["2.1.200"], stepProbe(["2.1.200"], 0))).rejects.toThrow(/at least two versions/);
    await expect(bisectVersions(versions(4), stepProbe(versions(4), 2), { check: "nope" })).rejects.toThrow(/no check labelled "nope"/);
  });
});

describe("claude versions", () => {
  it("compares versions numerically, and warns outside the tested range", () => {
    expect(compareVersions("2.1.197", "2.1.332")).toBeLessThan(0);
    expect(compareVersions("2.1.40", "2.1.197")).toBeLessThan(0);
    expect(compareVersions("2.2.0", "2.1.999")).toBeGreaterThan(0);
    expect(testedRangeWarning(TESTED_CLAUDE_RANGE.min)).toBeUndefined();
    expect(testedRangeWarning(TESTED_CLAUDE_RANGE.max)).toBeUndefined();
    expect(testedRangeWarning("2.1.100")).toMatch(new RegExp(`${TESTED_CLAUDE_RANGE.min}.*${TESTED_CLAUDE_RANGE.max}`));
    expect(testedRangeWarning("2.1.400")).toMatch(/2\.1\.400/);
  });

  it("a reworded hook deny is drift; any other difference is not", () => {
    const before = "Blocked by repo-hygiene: recursive force-removal (rm -rf).";
    expect(wordingDrift(before, `PreToolUse:Bash hook error: ${before}`)).toEqual(["hook-deny-prefix"]);
    expect(wordingDrift(before, `PreToolUse:Bash hook error: ${before} (and more)`)).toBeUndefined();
    expect(wordingDrift(before, before)).toBeUndefined();
    expect(normaliseWording(`<tool_use_error>PreToolUse:Write hook error: no</tool_use_error>`).text).toBe("<tool_use_error>no</tool_use_error>");
  });

  it("the version matrix flags a check whose rate moved significantly, not one that held", async () => {
    const withBash = makeTrace({ calls: [{ name: "Bash", input: {} }], usage });
    const withRead = makeTrace({ calls: [{ name: "Read", input: {} }], usage });
    const at = (bash: number) => measure({ name: "guard", run: (i: number): Trace => (i < bash ? withBash : withRead), checks: [notTool("Bash"), notTool("Write")], trials: 20, progress: false });
    const m = versionMatrix([
      { version: "2.1.197", reports: [await at(0)] },
      { version: "2.1.332", reports: [await at(15)] },
    ]);
    expect(m.versions).toEqual(["2.1.197", "2.1.332"]);
    expect(m.changed).toEqual(["guard: notTool(Bash)"]);
    expect(m.evals[0]!.rows.map((r) => r.label)).toEqual(["notTool(Bash)", "notTool(Write)"]);
  });
});
