/** Shards and merging: 4 shards merged equal one unsharded run with the same seed, number for number. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { assertRates, compareReports, evaluateThresholds, mergeReports, measure, missingShards, notTool, parseShard, shardTrials, tool, validateCheckReport, type CheckReport, type MeasureOptions, type Trace } from "../../src/index.js";
import { bashSometimes, withoutClock } from "./helpers.js";
import { makeTrace } from "../helpers/trace.js";

const base = (extra: Partial<MeasureOptions<Trace>> = {}): MeasureOptions<Trace> => ({
  run: (i, ctx) => {
    if (i % 17 === 5) throw new Error(`trial ${i} crashed`);
    return bashSometimes(0.3)(i, ctx);
  },
  checks: [tool("Bash"), notTool("Bash"), tool("Read")],
  trials: 103,
  seed: "merge-seed",
  k: [1, 5],
  concurrency: 3,
  thresholds: { min: 0.2, maxErrored: 10 },
  progress: false,
  ...extra,
});

/** Everything but the clock and the shard bookkeeping. */
const numbers = (r: CheckReport) => {
  const { shard: _s, mergedFrom: _m, ...rest } = withoutClock(r);
  return rest;
};

describe("shardTrials", () => {
  it("splits 0..total into contiguous slices that cover every index once", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 40 }), (total, count) => {
        const seen: number[] = [];
        for (let i = 1; i <= count; i++) {
          const { start, end } = shardTrials(total, { index: i, count });
          expect(end - start === Math.floor(total / count) || end - start === Math.ceil(total / count)).toBe(true);
          for (let t = start; t < end; t++) seen.push(t);
        }
        expect(seen).toEqual(Array.from({ length: total }, (_, t) => t));
      }),
    );
  });
  it("parses i/n and refuses anything else, saying how to write it", () => {
    expect(parseShard(" 2 / 4 ")).toEqual({ index: 2, count: 4 });
    expect(() => parseShard("2of4")).toThrow('shard "2of4" is not i/n: write it like "2/4" (the 2nd of 4 shards, counting from 1)');
    expect(() => parseShard("0/4")).toThrow("the index must be within 1..4 (shards count from 1)");
  });
});

describe("mergeReports", () => {
  it("4 shards merged == one unsharded run with the same seed, number for number", async () => {
    const whole = await measure(base());
    const shards = await Promise.all([1, 2, 3, 4].map((i) => measure(base({ shard: `${i}/4` }))));
    expect(shards.map((s) => s.trials.planned)).toEqual([25, 26, 26, 26]);
    // Given in any order.
    const merged = mergeReports([shards[2], shards[0], shards[3], shards[1]]);
    expect(numbers(merged)).toEqual(numbers(whole));
    expect(merged.mergedFrom).toEqual(["3/4", "1/4", "4/4", "2/4"]);
    expect(merged.errors.length).toBeGreaterThan(0);
    expect(merged.checks[0].outcomes).toContain("E");
    validateCheckReport(merged);
    // And the statistics really are recomputed from merged counts, not averaged.
    expect(merged.checks[0].n).toBe(shards.reduce((s, r) => s + r.checks[0].n, 0));
  });

  it("merges merged reports again (1+2, 3+4) to the same numbers", async () => {
    const shards = await Promise.all([1, 2, 3, 4].map((i) => measure(base({ shard: `${i}/4`, trials: 40 }))));
    const once = mergeReports(shards);
    const twice = mergeReports([mergeReports(shards.slice(0, 2)), mergeReports(shards.slice(2))]);
    expect(numbers(twice)).toEqual(numbers(once));
  });

  it("merges shards that were cut short by a budget, keeping the gaps honest", async () => {
    const withCost = (cap: number | undefined, shard: string) => measure(base({ trials: 40, shard, run: bashSometimes(0.3), ...(cap ? { budget: { maxUsd: cap } } : {}) }));
    const merged = mergeReports([await withCost(0.1, "1/2"), await withCost(undefined, "2/2")]);
    expect(merged.trials).toMatchObject({ requested: 40, planned: 40, ran: 25, skipped: 15, ranges: [[0, 5], [20, 40]] });
    expect(merged.checks[0].outcomes).toHaveLength(25);
    expect(merged.stopped?.message).toMatch(/^shard 1\/2: cost budget/);
    validateCheckReport(merged);
  });

  it("refuses overlapping shards and reports of different measurements", async () => {
    const a = await measure(base({ trials: 20, shard: "1/2" }));
    const b = await measure(base({ trials: 20, shard: "2/2" }));
    expect(() => mergeReports([a, a], ["a.json", "a-again.json"])).toThrow("cannot merge: shard 1/2 is given twice");
    const otherSeed = await measure(base({ trials: 20, shard: "2/2", seed: "other" }));
    expect(() => mergeReports([a, otherSeed])).toThrow("cannot merge: the reports used different seeds");
    const otherChecks = await measure(base({ trials: 20, shard: "2/2", checks: [tool("Bash")] }));
    expect(() => mergeReports([a, otherChecks])).toThrow("cannot merge: the reports have different checks");
    const otherSplit = await measure(base({ trials: 20, shard: "3/3" }));
    expect(() => mergeReports([a, otherSplit])).toThrow("cannot merge: the shards come from different splits");
    expect(() => mergeReports([])).toThrow("cannot merge: no reports given");
    expect(mergeReports([a, b]).trials.ran).toBe(20);
  });

  it("names the shards a partial merge lacks", async () => {
    const one = await measure(base({ trials: 12, shard: "1/3" }));
    const three = await measure(base({ trials: 12, shard: "3/3" }));
    expect(missingShards([one, three])).toEqual(["2/3"]);
    expect(missingShards([mergeReports([one, three])])).toEqual(["2/3"]);
  });
});

describe("a merge is complete or says it is not", () => {
  it("marks a merge that lacks shards as incomplete, naming them, and the gate never passes it", async () => {
    const shards = await Promise.all([1, 2, 3].map((i) => measure(base({ shard: `${i}/3`, trials: 30 }))));
    const partial = mergeReports([shards[0], shards[1]]);
    expect(partial.incomplete).toEqual({ reason: "missing-shards", message: "shard 3/3 missing: their trials never ran in this merge", missingShards: ["3/3"] });
    expect(evaluateThresholds(partial).status).toBe("incomplete");
    expect(() => assertRates(partial)).toThrow(/the measurement is incomplete/);
    // Merged again with the last shard, it is whole.
    const whole = mergeReports([partial, shards[2]]);
    expect(whole.incomplete).toBeUndefined();
    expect(evaluateThresholds(whole).status).toBe("passed");
  });

  it("refuses reports of different proctor versions, and shards holding trials outside their slice", async () => {
    const [a, b] = await Promise.all([1, 2].map((i) => measure(base({ shard: `${i}/2`, trials: 20 }))));
    const newer = { ...b, metadata: { ...b.metadata, proctorVersion: "9.9.9" } };
    expect(() => mergeReports([a, newer], ["a.json", "b.json"])).toThrow("cannot merge: the reports were written by different proctor versions");
    const relabelled: CheckReport = { ...a, shard: { index: 2, count: 2 } };
    expect(() => mergeReports([relabelled], ["a.json"])).toThrow("cannot merge: a.json holds trials outside shard 2/2");
  });

  it("keeps the configured number of failure examples, not the longest shard's", async () => {
    // notTool(Bash) fails on every 5th trial: two failures per shard of 10, five kept by the whole run.
    const run = (i: number) => makeTrace({ calls: [{ name: i % 5 === 0 ? "Bash" : "Read" }] });
    const shards = await Promise.all([1, 2, 3].map((i) => measure(base({ shard: `${i}/3`, trials: 30, failureExamples: 5, run }))));
    const merged = mergeReports(shards);
    const whole = await measure(base({ trials: 30, failureExamples: 5, run }));
    const failing = merged.checks.findIndex((c) => c.label === "notTool(Bash)");
    expect(shards.map((s) => s.checks[failing].failures.length)).toEqual([2, 2, 2]);
    expect(merged.checks[failing].failures.map((f) => f.trial)).toEqual([0, 5, 10, 15, 20]);
    expect(merged.checks[failing].failures).toEqual(whole.checks[failing].failures);
    expect(() => mergeReports([shards[0], { ...shards[1], failureExamples: 2 }])).toThrow("cannot merge: the reports keep different numbers of failure examples");
  });

  it("refuses something that is not a report, naming it and the first wrong field", () => {
    expect(() => mergeReports([{} as CheckReport], ["shard-1.json"])).toThrow(/shard-1\.json is not a valid measure report/);
    expect(() => assertRates({ name: "x" } as CheckReport)).toThrow(/^x is not a valid measure report/);
    expect(() => compareReports({} as CheckReport, {} as CheckReport)).toThrow(/^baseline is not a valid measure report/);
  });

  it("a budget cut makes a report incomplete, and its merge too", async () => {
    const cut = await measure(base({ trials: 40, shard: "1/2", run: bashSometimes(0.3), budget: { maxUsd: 0.1 } }));
    expect(cut.incomplete).toMatchObject({ reason: "budget", message: expect.stringMatching(/^\d+ of 20 planned trials ran \(cost budget/) });
    const merged = mergeReports([cut, await measure(base({ trials: 40, shard: "2/2", run: bashSometimes(0.3) }))]);
    expect(merged.incomplete?.reason).toBe("budget");
    expect(evaluateThresholds(merged).status).toBe("incomplete");
  });
});
