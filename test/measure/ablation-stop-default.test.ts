/**
 * The ablation's early stop with its default margin (±20 points when --detect is not given)
 * keeps the documented error rate, computed exactly over every (up, down) count of N pairs (no
 * sampling): with no true difference a wrong "it matters" stays ≤ α — and no higher than without
 * the margin, since settling sooner only takes looks away; with a true difference of exactly the
 * margin, a wrong "no effect beyond ±20" stays ≤ α; and a check the part does not move settles.
 */
import { describe, expect, it } from "vitest";
import { AblationStopper, DEFAULT_DETECT } from "../../src/measure/ablation-stop.js";
import { pairedStoppingCurve } from "../../src/stats/paired-design.js";

const ALPHA = 0.05;
const N = 150;
const MIN_PAIRS = 10;
const at = (a: Float64Array, n: number) => a[n] as number;

describe(`the default margin (±${DEFAULT_DETECT * 100} points) keeps the error rate, exactly, N ≤ ${N}`, () => {
  it("no true difference: a wrong 'it matters' ≤ α at every N, never above the stop without a margin; and it settles", { timeout: 300_000 }, () => {
    // pUp = pDown: any rates, any dependence inside a pair (0: every pair agrees, as a seeded mock script makes them).
    // Share of runs settled by N (computed: 1, 0.994, 0.852, 0.336, 0): the more pairs disagree, the longer it takes.
    for (const [p, settled] of [[0, 1], [0.05, 0.99], [0.15, 0.8], [0.25, 0.3], [0.5, 0]] as const) {
      const margin = pairedStoppingCurve(ALPHA, p, p, N, MIN_PAIRS, DEFAULT_DETECT);
      const none = pairedStoppingCurve(ALPHA, p, p, N, MIN_PAIRS);
      for (let n = MIN_PAIRS; n <= N; n++) {
        const wrong = at(margin.above, n) + at(margin.below, n);
        expect(wrong).toBeLessThanOrEqual(ALPHA);
        expect(wrong).toBeLessThanOrEqual(at(none.above, n) + at(none.below, n) + 1e-12);
      }
      // Without a margin nothing but a wrong "matters" ever stops it; with one, most runs settle.
      expect(at(none.negligible, N)).toBe(0);
      expect(at(margin.negligible, N)).toBeGreaterThanOrEqual(settled);
    }
    // Every pair agreeing (a deterministic mock): settled at exactly 24 pairs.
    const agree = pairedStoppingCurve(ALPHA, 0, 0, 30, MIN_PAIRS, DEFAULT_DETECT);
    expect([at(agree.negligible, 23), at(agree.negligible, 24)]).toEqual([0, 1]);
  });

  it("a true difference of exactly the margin: a wrong 'no effect beyond ±20' ≤ α at every N", { timeout: 300_000 }, () => {
    let worst = 0;
    for (const [up, down] of [[0.2, 0], [0.25, 0.05], [0.35, 0.15], [0.6, 0.4], [0, 0.2], [0.1, 0.3]] as const) {
      const c = pairedStoppingCurve(ALPHA, up, down, N, MIN_PAIRS, DEFAULT_DETECT);
      for (let n = MIN_PAIRS; n <= N; n++) expect(at(c.negligible, n)).toBeLessThanOrEqual(ALPHA);
      worst = Math.max(worst, at(c.negligible, N));
      // Not vacuous: the part is shown to matter instead (36–99 % of runs by N, the fewer the more pairs disagree).
      expect(at(c.above, N) + at(c.below, N)).toBeGreaterThan(0.3);
    }
    expect(worst).toBeGreaterThan(0);
  });

  it("the stopper proctor runs uses it: pairs that all agree stop after 24, one that moves a check stops on it", () => {
    const stopper = new AblationStopper(["moved", "unmoved"], { alpha: ALPHA, minPairs: MIN_PAIRS, cap: 200, detect: DEFAULT_DETECT, defaultDetect: true });
    const [w, wo] = [stopper.arm("with"), stopper.arm("without")];
    let i = 0;
    for (; i < 200 && !w.stop(); i++) {
      w.record(i, [true, true]);
      wo.record(i, [false, true]);
    }
    expect(stopper.info()).toMatchObject({ stopped: true, pairs: 24, detect: 0.2, defaultDetect: true, verdicts: [{ verdict: "matters" }, { verdict: "negligible" }] });
    expect(w.stop()?.message).toContain("(moved matters; unmoved no effect beyond ±20 pts)");
  });
});
