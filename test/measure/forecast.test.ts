/** The cost forecast: expected trials under the anytime-valid early stop, pass chances, dollars. */
import { describe, expect, it } from "vitest";
import { measure, tool } from "../../src/index.js";
import { forecastEval, renderForecast } from "../../src/measure/forecast.js";
import { sequenceRule, stoppingCurve } from "../../src/stats/sequential-design.js";
import { makeTrace, usage } from "../helpers/trace.js";

const checks = [{ label: "tool(Bash)", kind: "tool" }];

describe("forecastEval", () => {
  it("without early stop: every planned trial, and the chance of passing is the binomial tail", () => {
    const f = forecastEval({ name: "e", trials: 10, checks, thresholds: { min: 1 }, tier: "mock", assumedRate: 0.9 });
    expect(f.expectedTrials).toBe(10);
    expect(f.checks[0]!.passChance).toBeCloseTo(0.9 ** 10, 12);
    expect(f.expectedUsd).toBeUndefined();
    const eight = forecastEval({ name: "e", trials: 10, checks, thresholds: { min: 0.8 }, tier: "mock", assumedRate: 0.9 });
    // P(X ≥ 8), X ~ Binomial(10, 0.9)
    expect(eight.checks[0]!.passChance).toBeCloseTo(0.9 ** 10 + 10 * 0.9 ** 9 * 0.1 + 45 * 0.9 ** 8 * 0.01, 12);
  });

  it("a deterministic check (a fixed mock script) is forecast at rate 1 and 0, not an assumed 90%; a judged one stays assumed", () => {
    const two = [...checks, { label: "judged(x)", kind: "judged" }];
    const early = { minTrials: 10, confidence: 0.95 };
    const f = forecastEval({ name: "e", trials: 200, checks: two, thresholds: { min: 0.8 }, earlyStop: early, tier: "mock", deterministicKinds: (k) => k !== "judged" });
    expect(f.checks[0]).toMatchObject({ rate: 1, rateSource: "deterministic", passChance: 1 });
    expect(f.checks[0]!.expectedTrials).toBeCloseTo(stoppingCurve(sequenceRule(0.8, 0.05, 10), 1, 200).expectedTrials, 9);
    expect(f.checks[0]!.expectedTrialsIfFails).toBeCloseTo(stoppingCurve(sequenceRule(0.8, 0.05, 10), 0, 200).expectedTrials, 9);
    expect(f.checks[1]).toMatchObject({ rate: 0.9, rateSource: "assumed" });
    expect(renderForecast([f])).toMatch(/tool\(Bash\): deterministic \(a scripted mock run: every trial gives the first one's verdict\) vs minimum 80% → ~\d+ trials if it passes, ~\d+ if it fails/);
  });

  it("with early stop: the exact expected trials of the stopping rule", () => {
    const f = forecastEval({ name: "e", trials: 200, checks, thresholds: { min: 0.8 }, earlyStop: { minTrials: 10, confidence: 0.95 }, tier: "mock", assumedRate: 0.95 });
    expect(f.expectedTrials).toBeCloseTo(stoppingCurve(sequenceRule(0.8, 0.05, 10), 0.95, 200).expectedTrials, 9);
    expect(f.expectedTrials).toBeLessThan(60);
  });

  it("prices real trials from a measured report, else bounds them by the per-run cap; ablation doubles the arms", async () => {
    const previous = await measure({ name: "e", run: () => makeTrace({ calls: [{ name: "Bash", input: {} }], usage }), checks: [tool("Bash")], trials: 4, progress: false });
    const measured = forecastEval({ name: "e", trials: 20, checks, thresholds: { min: 0.9 }, tier: "real", previous, arms: 2 });
    expect(measured.checks[0]).toMatchObject({ rate: 1, rateSource: "baseline" });
    expect(measured.perTrialUsd).toEqual({ usd: 0.02, source: "baseline" });
    expect(measured.expectedUsd).toBeCloseTo(20 * 2 * 0.02, 9);
    const capped = forecastEval({ name: "e", trials: 20, checks, thresholds: { min: 0.9 }, tier: "real", capUsd: 0.25 });
    expect(capped.perTrialUsd).toEqual({ usd: 0.25, source: "cap" });
    expect(renderForecast([capped])).toMatch(/≤ \$5\.00 \(at most \$0\.25 a trial: the per-run cap/);
    expect(renderForecast([measured])).toMatch(/e: ~20 of 20 trials × 2 arms · ≈ \$0\.80/);
  });
});
