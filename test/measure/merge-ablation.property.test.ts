/**
 * `mergeReports` keeps an ablation: shards' with-arm reports merge to the ablation the unsharded
 * run computes on all the trials — counts, delta, both intervals, Fisher's p, the plan, the paired
 * counts and their interval — recomputed from the merged counts, never copied from one shard.
 * Oracles: compareAblation on the unsharded arms, and the paired counts counted by hand from the
 * outcome sequences.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareAblation, measure, mergeReports, notTool, tool, type CheckReport, type Trace } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 60);
const bashRead = makeTrace({ calls: [{ name: "Bash" }, { name: "Read" }] });
const bash = makeTrace({ calls: [{ name: "Bash" }] });
const none = makeTrace({ calls: [] });
/** A trial's outcome: "b" Bash and Read, "x" Bash only, "n" neither, "E" the run throws. */
const traceOf = (c: string): Trace => {
  if (c === "E") throw new Error("the run broke");
  return c === "b" ? bashRead : c === "x" ? bash : none;
};
const checks = [tool("Bash"), notTool("Read")];
const arm = (name: string, seq: string, shard?: string) =>
  measure({ name, run: (i) => traceOf(seq[i] as string), checks, trials: seq.length, seed: 7, progress: false, ...(shard ? { shard } : {}) });
const ablated = async (withSeq: string, withoutSeq: string, shard: string | undefined, options: { detect?: number; alpha?: number }) => {
  const w = await arm("e", withSeq, shard);
  const wo = await arm("e [without plugin:x]", withoutSeq, shard);
  return { ...w, ablation: compareAblation(w, wo, "plugin:x", options) } as CheckReport;
};
const outcome = fc.constantFrom("b", "x", "n", "E");

describe("merging an ablated eval's shards", () => {
  it("gives the ablation the unsharded run computes on the same trials", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 40 }).chain((n) => fc.tuple(fc.array(outcome, { minLength: n, maxLength: n }), fc.array(outcome, { minLength: n, maxLength: n }))),
        fc.integer({ min: 1, max: 5 }),
        fc.record({ detect: fc.option(fc.constantFrom(0.1, 0.3), { nil: undefined }), alpha: fc.constantFrom(0.05, 0.1) }),
        async ([w, wo], count, opts) => {
          const options = { alpha: opts.alpha, ...(opts.detect !== undefined ? { detect: opts.detect } : {}) };
          const [withSeq, withoutSeq] = [w.join(""), wo.join("")];
          const shards = await Promise.all(Array.from({ length: count }, (_, i) => ablated(withSeq, withoutSeq, `${i + 1}/${count}`, options)));
          const merged = mergeReports([...shards].reverse());
          const whole = await ablated(withSeq, withoutSeq, undefined, options);
          expect(merged.ablation).toEqual(whole.ablation);
          // The paired counts by hand: Bash (check 0) passes on b and x; not-Read (check 1) on x and n.
          const pass = [(c: string) => c === "b" || c === "x", (c: string) => c === "x" || c === "n"];
          pass.forEach((p, j) => {
            const both = w.map((c, i) => [c, wo[i] as string] as const).filter(([a, b]) => a !== "E" && b !== "E");
            expect(merged.ablation?.checks[j]?.pairs).toMatchObject({ n: both.length, up: both.filter(([a, b]) => p(a) && !p(b)).length, down: both.filter(([a, b]) => !p(a) && p(b)).length });
          });
        },
      ),
      { numRuns: RUNS, seed: 3202 },
    );
  });
});

describe("merging ablations: what does not fit is refused, early stops combine", () => {
  it("refuses shards with and without an ablation, or of different components", async () => {
    const a = await ablated("bbxx", "nnnn", "1/2", {});
    const plain = await arm("e", "bbxx", "2/2");
    expect(() => mergeReports([a, plain], ["a.json", "b.json"])).toThrow(/only some of the reports hold an ablation/);
    expect(() => mergeReports([plain, a], ["b.json", "a.json"])).toThrow(/only some of the reports hold an ablation/);
    const other = { ...(await ablated("bbxx", "nnnn", "2/2", {})) };
    const renamed = { ...other, ablation: { ...other.ablation!, component: "plugin:y" } } as CheckReport;
    expect(() => mergeReports([a, renamed])).toThrow(/different ablations/);
  });

  it("an early stop in any shard marks the merge stopped; the pairs add; verdicts come from the merged pairs", async () => {
    const stop = { alpha: 0.05, minPairs: 1, cap: 16, stopped: false, pairs: 8, verdicts: [] };
    const one = await ablated("b".repeat(16), "n".repeat(16), "1/2", {});
    const two = await ablated("b".repeat(16), "n".repeat(16), "2/2", {});
    const labels = one.ablation!.checks.map((c) => ({ label: c.label, verdict: "open" as const }));
    const merged = mergeReports([
      { ...one, ablation: { ...one.ablation!, earlyStop: { ...stop, verdicts: labels } } },
      { ...two, ablation: { ...two.ablation!, earlyStop: { ...stop, stopped: true, verdicts: labels } } },
    ] as CheckReport[]);
    expect(merged.ablation?.earlyStop).toMatchObject({ stopped: true, pairs: 16, cap: 16 });
    // Bash: 8 + 8 pairs all one way → clear of 0 at 95 %; not-Read: b fails it, n passes it → 16 pairs the other way.
    expect(merged.ablation?.earlyStop?.verdicts).toEqual([
      { label: "tool(Bash)", verdict: "matters" },
      { label: "notTool(Read)", verdict: "matters" },
    ]);
  });
});
