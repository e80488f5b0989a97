/**
 * Merge completeness against set arithmetic: any subset of a split's shards, in any order, merges
 * to a report whose missing shards are exactly the complement (none: complete), whose failure
 * examples are the lowest failing trials of the whole run up to the configured count, and a
 * shard given twice is refused.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateThresholds, measure, mergeReports, notTool, type CheckReport, type Trace } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const failingEvery = (m: number) => (i: number): Trace => makeTrace({ calls: [{ name: i % m === 0 ? "Bash" : "Read" }] });
const run = (trials: number, m: number, examples: number, shard?: string) =>
  measure({ run: failingEvery(m), checks: [notTool("Bash")], trials, seed: 3, progress: false, failureExamples: examples, thresholds: { min: 0 }, ...(shard ? { shard } : {}) });

describe("merging any subset of a split's shards", () => {
  it("names exactly the missing shards, and keeps the whole run's first failures", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 5, max: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.infiniteStream(fc.boolean()),
        async (count, trials, m, examples, picks) => {
          const all = await Promise.all(Array.from({ length: count }, (_, i) => run(trials, m, examples, `${i + 1}/${count}`)));
          const taken = all.filter(() => picks.next().value);
          const chosen = taken.length > 0 ? taken : [all[count - 1]];
          const shuffled = [...chosen].reverse();
          const merged = mergeReports(shuffled);
          const have = new Set(chosen.map((r) => `${r.shard!.index}/${r.shard!.count}`));
          const missing = all.map((r) => `${r.shard!.index}/${r.shard!.count}`).filter((s) => !have.has(s));
          expect(merged.incomplete?.missingShards ?? []).toEqual(missing);
          expect(evaluateThresholds(merged).status).toBe(missing.length ? "incomplete" : "passed");
          // The oracle for examples: the failing trials among those merged, lowest first, cut to the configured count.
          const failing = chosen.flatMap((r) => r.trials.ranges.flatMap(([a, b]) => Array.from({ length: b - a }, (_, k) => a + k))).filter((t) => t % m === 0).sort((a, b) => a - b);
          expect(merged.checks[0].failures.map((f) => f.trial)).toEqual(failing.slice(0, examples));
          if (chosen.length < count || count === 1) return;
          expect(() => mergeReports([...chosen, chosen[0]] as CheckReport[])).toThrow(/is given twice/);
        },
      ),
      { numRuns: 40, seed: 1206 },
    );
  });

  it("kept seed: failureExamples 0 keeps none (it used to count every failing trial as errored too)", async () => {
    const r = await run(5, 1, 0, "1/1");
    expect(r.trials).toMatchObject({ ran: 5, completed: 5, errored: 0, skipped: 0 });
    expect(mergeReports([r]).checks[0].failures).toEqual([]);
  });
});
