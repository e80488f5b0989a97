/**
 * Power analysis: Fleiss' planning formula against Fisher's exact power (computed by summing over
 * every pair of outcomes), and the Fisher p-value the ablation reports against an oracle built
 * from exact binomial coefficients (BigInt) rather than log-factorials.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fisherExact } from "../../src/stats/fisher.js";
import { detectableDelta, fisherPower, trialsPerArm } from "../../src/stats/power.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 100);

function choose(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/** Fisher's two-sided p with exact rational table weights (an independent oracle). */
function fisherOracle(a: number, na: number, b: number, nb: number): number {
  const total = a + b;
  const weight = (x: number) => (x < 0 || x > na || total - x < 0 || total - x > nb ? 0n : choose(na, x) * choose(nb, total - x));
  const observed = weight(a);
  let sum = 0n;
  let all = 0n;
  for (let x = 0; x <= na; x++) {
    const w = weight(x);
    all += w;
    // Ties within 1e-7 relative count as "as extreme" (R's convention); exact integers make ties exact.
    if (w * 10_000_000n <= observed * 10_000_001n) sum += w;
  }
  return Number((sum * 1_000_000_000_000n) / all) / 1e12;
}

describe("Fisher's exact test, as the ablation reports it", () => {
  it("3/3 with vs 0/3 without: p = 0.10 — three trials a side cannot show an effect at 0.05", () => {
    expect(fisherExact({ passes: 0, n: 3 }, { passes: 3, n: 3 })).toBeCloseTo(0.1, 12);
    expect(fisherExact({ passes: 0, n: 4 }, { passes: 4, n: 4 })).toBeCloseTo(2 / 70, 12);
  });

  it("agrees with an exact-integer oracle", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), fc.nat(), fc.nat(), (na, nb, ra, rb) => {
        const a = ra % (na + 1);
        const b = rb % (nb + 1);
        expect(fisherExact({ passes: a, n: na }, { passes: b, n: nb })).toBeCloseTo(fisherOracle(a, na, b, nb), 9);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("trials per arm", () => {
  it("reaches the power it plans for under Fisher's exact test, and 15 % fewer trials do not", () => {
    for (const [base, delta] of [[0.9, -0.25], [0.5, 0.3], [0.2, 0.5], [0.1, 0.3], [0.8, -0.3]] as const) {
      const n = trialsPerArm(base, delta)!;
      expect(fisherPower(base, base + delta, n), `${base}→${base + delta} at n = ${n}`).toBeGreaterThanOrEqual(0.8);
      expect(fisherPower(base, base + delta, Math.round(n * 0.85))).toBeLessThan(0.8);
    }
  });

  it("grows as the delta shrinks, and is undefined for no delta or one that leaves [0, 1]", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.95, noNaN: true }), fc.double({ min: 0.05, max: 0.4, noNaN: true }), (base, d) => {
        fc.pre(base + d <= 1);
        const big = trialsPerArm(base, d)!;
        const small = trialsPerArm(base, d / 2)!;
        expect(small).toBeGreaterThanOrEqual(big);
      }),
      { numRuns: RUNS },
    );
    expect(trialsPerArm(0.5, 0)).toBeUndefined();
    expect(trialsPerArm(0.9, 0.2)).toBeUndefined();
  });

  it("the smallest drop from 90 % seen with 80 % power: 20 per arm → ~45 points, 100 → ~16", () => {
    expect(detectableDelta(0.9, 20)).toBeCloseTo(0.45, 1);
    expect(detectableDelta(0.9, 100)).toBeCloseTo(0.16, 1);
    expect(detectableDelta(0.5, 2)).toBeUndefined();
  });

  it("refuses bad input", () => {
    expect(() => trialsPerArm(1.2, 0.1)).toThrow(/base must be a rate/);
    expect(() => trialsPerArm(0.5, 0.1, { power: 1 })).toThrow(/power must be within/);
    expect(() => fisherPower(0.5, 0.5, 0)).toThrow(/n must be a positive integer/);
  });
});
