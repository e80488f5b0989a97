/**
 * An ablated eval with early stopping: the arms run side by side and stop together once the paired
 * anytime-valid delta of every check settles — clear of 0, or (with detect) inside ±detect.
 * The tier here returns a Trace by whether the spec still has the plugin (the real binary runs in
 * test/run/ablate.test.ts).
 */
import { describe, expect, it } from "vitest";
import { defineEval, runEvals, tool, validateCheckReport, type EvalTiers } from "../../src/index.js";
import { renderRunReportHtml } from "../../reporters/html/run-report.js";
import { renderRunSummary } from "../../reporters/summary/run-summary.js";
import { makeTrace } from "../helpers/trace.js";

const bash = makeTrace({ calls: [{ name: "Bash", input: { command: "ls" } }] });
const read = makeTrace({ calls: [{ name: "Read", input: { file_path: "a" } }] });
const byPlugin: EvalTiers = { mock: { run: async (spec) => ((spec.plugins ?? []).length > 0 ? bash : read) } };
const same: EvalTiers = { mock: { run: async () => bash } };
const make = (earlyStop?: boolean | { minTrials: number }) =>
  defineEval({
    name: "guard",
    mock: { prompt: "p", plugins: ["./tidy"], script: { turns: [] } },
    checks: [tool("Bash")],
    trials: 60,
    concurrency: 2,
    ablate: "plugin:tidy",
    ...(earlyStop !== undefined ? { earlyStop } : {}),
  });

describe("ablation with early stopping", () => {
  it("stops both arms once the part shows it matters (8 pairs all one way at 95 %), and the report says so", async () => {
    const [o] = await runEvals([make({ minTrials: 1 })], { tiers: byPlugin, progress: false });
    const info = o!.report!.ablation!;
    expect(info.earlyStop).toMatchObject({ stopped: true, pairs: 8, cap: 60, alpha: 0.05, verdicts: [{ label: "tool(Bash)", verdict: "matters" }] });
    expect(o!.report!.stopped).toMatchObject({ reason: "early-stop" });
    expect(o!.report!.stopped!.message).toContain("after 8 pairs");
    expect(o!.without!.stopped).toMatchObject({ reason: "early-stop" });
    // In-flight trials finish: a few past the decision, far from the 60 allowed.
    expect(o!.report!.trials.completed).toBeLessThan(12);
    expect(info.checks[0]!.pairs).toMatchObject({ up: info.checks[0]!.pairs!.n, down: 0 });
    expect(info.checks[0]!.pairs!.sequence.low).toBeGreaterThan(0);
    expect(o!.status).toBe("passed");
    validateCheckReport(o!.report!);
    expect(renderRunReportHtml([o!.report!, o!.without!])).toContain("Early stop: both arms stopped after 8 of 60 pairs, every check&#39;s paired anytime-valid interval settled at 95% (tool(Bash): matters).");
  });

  it("the run's earlyStop (--early-stop) turns it on with minTrials 10; off, the arms run every trial", async () => {
    const [on] = await runEvals([make()], { tiers: byPlugin, progress: false, earlyStop: true });
    expect(on!.report!.ablation!.earlyStop).toMatchObject({ stopped: true, pairs: 10, minPairs: 10 });
    const [off] = await runEvals([make()], { tiers: byPlugin, progress: false });
    expect(off!.report!.ablation!.earlyStop).toBeUndefined();
    expect([off!.report!.trials.completed, off!.without!.trials.completed]).toEqual([60, 60]);
  });

  it("with detect, a part that changes nothing is shown to matter less than ±detect; without, it runs to the cap", async () => {
    const [shown] = await runEvals([make({ minTrials: 1 })], { tiers: same, progress: false, ablation: { detect: 0.3 } });
    expect(shown!.report!.ablation!.earlyStop).toMatchObject({ stopped: true, detect: 0.3, verdicts: [{ verdict: "negligible" }] });
    expect(shown!.report!.trials.completed).toBeLessThan(60);
    const [open] = await runEvals([make({ minTrials: 1 })], { tiers: same, progress: false });
    expect(open!.report!.ablation!.earlyStop).toMatchObject({ stopped: false, pairs: 60, verdicts: [{ verdict: "open" }] });
    expect(renderRunSummary([open!], { colour: false })).toContain("early stop: not settled after 60 pairs (tool(Bash) still open at 95%)");
  });

  it("the stop's error rate follows --alpha (7 pairs all one way settle at α = 0.2)", async () => {
    const [o] = await runEvals([make({ minTrials: 1 })], { tiers: byPlugin, progress: false, ablation: { alpha: 0.2 } });
    expect(o!.report!.ablation!.earlyStop).toMatchObject({ stopped: true, alpha: 0.2 });
    expect(o!.report!.ablation!.earlyStop!.pairs).toBeLessThan(8);
  });
});
