/**
 * Early stopping that keeps its error rate. The stopping rule is pushed forward exactly over every
 * (passes, n) for N = 10…300 here (bench/stopping.mjs runs N = 1000 and more rates), cross-checked
 * by a seeded simulation; the mixtures are checked against independent numerical oracles.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/measure/random.js";
import { wilsonInterval } from "../../src/stats/proportion.js";
import { differenceSequence, logMixture, logOneSided, sequenceExcludes, sequenceInterval, sequenceP, verdictAgainst } from "../../src/stats/sequence.js";
import { fixedTrialsForPower, repeatedWilsonRule, sequenceRule, stoppingCurve } from "../../src/stats/sequential-design.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 100);
const ALPHA = 0.05;
const N = 300;

/** ∫₀¹ q^S (1−q)^F dq by Simpson's rule on 4000 panels — an oracle independent of the factorial formula. */
function betaIntegral(s: number, f: number, from = 0, to = 1): number {
  const m = 4000;
  const h = (to - from) / m;
  let sum = 0;
  for (let i = 0; i <= m; i++) {
    const q = from + i * h;
    const w = i === 0 || i === m ? 1 : i % 2 ? 4 : 2;
    sum += w * q ** s * (1 - q) ** f;
  }
  return (sum * h) / 3;
}

describe("the mixtures match their definitions", () => {
  it("logMixture is ln(∫ q^S(1−q)^F dq / p^S(1−p)^F)", () => {
    for (const [s, n, p] of [[3, 5, 0.5], [9, 10, 0.8], [0, 7, 0.3], [20, 30, 0.4]] as const) {
      const oracle = Math.log(betaIntegral(s, n - s) / (p ** s * (1 - p) ** (n - s)));
      expect(logMixture(s, n, p)).toBeCloseTo(oracle, 5);
    }
  });

  it("logOneSided is the mean likelihood ratio over (min, 1) or (0, min) (a grid of 64; Simpson oracle within 2 %)", () => {
    for (const [s, n, min] of [[9, 10, 0.5], [18, 20, 0.8], [2, 20, 0.4], [40, 50, 0.9]] as const) {
      const f = n - s;
      const base = min ** s * (1 - min) ** f;
      const above = betaIntegral(s, f, min, 1) / (1 - min) / base;
      const below = betaIntegral(s, f, 0, min) / min / base;
      expect(Math.abs(logOneSided(s, n, min, "above") - Math.log(above))).toBeLessThan(0.02);
      expect(Math.abs(logOneSided(s, n, min, "below") - Math.log(below))).toBeLessThan(0.02);
    }
  });

  it("a minimum of 1 is refuted by one failure, 0 by one pass, and never confirmed", () => {
    expect(verdictAgainst(9, 10, 1, ALPHA)).toBe("below");
    expect(verdictAgainst(1000, 1000, 1, ALPHA)).toBeUndefined();
    expect(verdictAgainst(1, 10, 0, ALPHA)).toBe("above");
    expect(verdictAgainst(0, 1000, 0, ALPHA)).toBeUndefined();
  });
});

describe("the confidence sequence", () => {
  it("holds the point estimate, is wider than Wilson, and is exactly the set the martingale has not rejected", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0.9, 0.95, 0.99), (n, frac, confidence) => {
        const s = Math.round(frac * n);
        const cs = sequenceInterval(s, n, confidence);
        const w = wilsonInterval(s, n, confidence);
        expect(cs.low).toBeLessThanOrEqual(s / n);
        expect(cs.high).toBeGreaterThanOrEqual(s / n);
        expect(cs.low).toBeLessThanOrEqual(w.low + 1e-12);
        expect(cs.high).toBeGreaterThanOrEqual(w.high - 1e-12);
        // Just inside the edges the martingale has not crossed; just outside it has.
        if (cs.low > 1e-6) expect(sequenceExcludes(s, n, cs.low - 1e-6, 1 - confidence)).toBe(true);
        if (cs.low + 1e-6 < s / n) expect(sequenceExcludes(s, n, cs.low + 1e-6, 1 - confidence)).toBe(false);
        if (cs.high < 1 - 1e-6) expect(sequenceExcludes(s, n, cs.high + 1e-6, 1 - confidence)).toBe(true);
        expect(sequenceP(s, n, s / n)).toBe(1);
      }),
      { numRuns: RUNS },
    );
  });

  it("the difference sequence holds both arms' sequences (a union bound)", () => {
    const d = differenceSequence({ passes: 3, n: 10 }, { passes: 9, n: 10 });
    const a = sequenceInterval(3, 10, 0.975);
    const b = sequenceInterval(9, 10, 0.975);
    expect(d.low).toBeCloseTo(b.low - a.high, 12);
    expect(d.high).toBeCloseTo(b.high - a.low, 12);
    expect(differenceSequence({ passes: 0, n: 0 }, { passes: 0, n: 0 })).toEqual({ low: -1, high: 1 });
  });

  it("refuses bad counts and levels", () => {
    expect(() => sequenceInterval(5, 4)).toThrow(/passes must be an integer within 0..n/);
    expect(() => sequenceInterval(1, 4, 1)).toThrow(/confidence must be within/);
  });
});

describe("early stopping keeps its error rate at every N (exact, N = 10…300)", () => {
  // The hardest case for a test of "rate > min" is the rate sitting exactly at the minimum.
  for (const min of [0.5, 0.8, 0.9, 0.95]) {
    it(`min ${min}: P(a wrong stop by N) ≤ α = ${ALPHA} for every N`, () => {
      const curve = stoppingCurve(sequenceRule(min, ALPHA, 10), min, N);
      for (let n = 10; n <= N; n++) {
        expect(curve.above[n], `"above" at n = ${n}`).toBeLessThanOrEqual(ALPHA);
        expect(curve.below[n], `"below" at n = ${n}`).toBeLessThanOrEqual(ALPHA);
      }
    });
  }

  it("the rule it replaces (a 99 % Wilson interval after every trial) passes α by N = 300 at min 0.9", () => {
    const curve = stoppingCurve(repeatedWilsonRule(0.9, 0.99, 10), 0.9, N);
    expect(curve.above[N] + curve.below[N]).toBeGreaterThan(ALPHA);
  });

  it("a seeded simulation agrees with the exact computation", () => {
    const min = 0.8;
    const raw = sequenceRule(min, ALPHA, 10);
    const memo = new Map<number, string | undefined>();
    const rule = (s: number, n: number) => {
      const key = n * 1000 + s;
      if (!memo.has(key)) memo.set(key, raw(s, n));
      return memo.get(key);
    };
    const exact = stoppingCurve(raw, min, 200);
    const random = seededRandom("sequential-error");
    const reps = 3000;
    let wrong = 0;
    let used = 0;
    for (let r = 0; r < reps; r++) {
      let s = 0;
      let n = 0;
      let verdict: string | undefined;
      while (n < 200 && !verdict) {
        n++;
        if (random.next() < min) s++;
        verdict = rule(s, n);
      }
      if (verdict) wrong++;
      used += n;
    }
    const p = exact.above[200]! + exact.below[200]!;
    expect(Math.abs(wrong / reps - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / reps) + 1e-3);
    expect(Math.abs(used / reps - exact.expectedTrials) / exact.expectedTrials).toBeLessThan(0.03);
  });
});

describe("trials saved against a fixed-N test of equal power", () => {
  it("min 0.8, true rate 0.9, power 0.8: the fixed test needs 107 trials; stopping early uses fewer on average", () => {
    const fixed = fixedTrialsForPower(0.8, 0.9, ALPHA, 0.8);
    expect(fixed).toBe(107);
    const cap = 145; // the smallest cap at which early stopping has power ≥ 0.8 (bench/stopping.mjs finds it)
    const curve = stoppingCurve(sequenceRule(0.8, ALPHA, 10), 0.9, cap);
    expect(curve.above[cap]).toBeGreaterThanOrEqual(0.8);
    expect(curve.expectedTrials).toBeLessThan(0.85 * 107);
    // A larger true effect than planned: far fewer still.
    expect(stoppingCurve(sequenceRule(0.8, ALPHA, 10), 0.97, cap).expectedTrials).toBeLessThan(40);
  });
});
