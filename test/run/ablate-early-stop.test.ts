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
const make = (earlyStop?: boolean | { minTrials: number }, trials = 60, concurrency = 2) =>
  defineEval({
    name: "guard",
    mock: { prompt: "p", plugins: ["./tidy"], script: { turns: [] } },
    checks: [tool("Bash")],
    trials,
    concurrency,
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

  it("with detect, a part that changes nothing is shown to matter less than ±detect", async () => {
    const [shown] = await runEvals([make({ minTrials: 1 })], { tiers: same, progress: false, ablation: { detect: 0.3 } });
    expect(shown!.report!.ablation!.earlyStop).toMatchObject({ stopped: true, detect: 0.3, verdicts: [{ verdict: "negligible" }] });
    expect(shown!.report!.ablation!.earlyStop!.defaultDetect).toBeUndefined();
    expect(shown!.report!.trials.completed).toBeLessThan(60);
  });

  it("without --detect, the default ±20-point margin settles a check the part does not move (24 agreeing pairs at 95 %)", async () => {
    const [o] = await runEvals([make({ minTrials: 1 })], { tiers: same, progress: false });
    expect(o!.report!.ablation!.earlyStop).toMatchObject({ stopped: true, pairs: 24, detect: 0.2, defaultDetect: true, verdicts: [{ verdict: "negligible" }] });
    expect(o!.report!.stopped!.message).toContain("clears 0 or lies within ±0.2 (the default margin; --detect sets another) at 95% (tool(Bash) no effect beyond ±20 pts)");
    expect(o!.status).toBe("passed");
    // The HTML report says it in the same words as the console, in points.
    expect(renderRunReportHtml([o!.report!, o!.without!])).toContain("(tool(Bash): no effect beyond ±20 pts (the default margin)).");
    validateCheckReport(o!.report!);
  });

  it("a check still open at the cap is named with its interval, what it needs, and the --detect that would settle it", async () => {
    // Every pair split, half one way and half the other: δ = 0 but each pair disagrees, so 12 pairs settle nothing.
    const split: EvalTiers = { mock: { run: async (spec, context) => (((spec.plugins ?? []).length > 0) === (context.trial % 2 === 0) ? bash : read) } };
    const lines: string[] = [];
    const stream = { write: (t: string) => lines.push(t), isTTY: false };
    const [o] = await runEvals([make({ minTrials: 2 }, 12, 1)], { tiers: split, progress: { stream, mode: "lines", intervalMs: 0 } });
    const e = o!.report!.ablation!.earlyStop!;
    expect(e).toMatchObject({ stopped: false, pairs: 12, verdicts: [{ verdict: "open" }] });
    const summary = renderRunSummary([o!], { colour: false });
    expect(summary).toMatch(/early stop: not settled after 12 pairs — still open at 95%: tool\(Bash\) −\d+…\+\d+ \(each needs its interval clear of 0, or within ±20 pts \(the default margin\)\); --detect (0\.\d|1) would settle it, or raise --trials/);
    // The progress line says the same while it runs: which check is open, its interval, and the way out.
    expect(lines.join("")).toMatch(/ablation \d+ pairs, open: tool\(Bash\) −\d+…\+\d+ \(needs clear of 0, or within ±20\) — --detect (0\.\d|1) would settle it/);
    expect(lines.join("")).toContain("ablation 1 pairs, first look at 2");
  });

  it("the stop's error rate follows --alpha (7 pairs all one way settle at α = 0.2)", async () => {
    const [o] = await runEvals([make({ minTrials: 1 })], { tiers: byPlugin, progress: false, ablation: { alpha: 0.2 } });
    expect(o!.report!.ablation!.earlyStop).toMatchObject({ stopped: true, alpha: 0.2 });
    expect(o!.report!.ablation!.earlyStop!.pairs).toBeLessThan(8);
  });
});
