/** pass@k and pass^k: the closed forms, their edges, and unbiasedness (exactly and by simulation). */
import { describe, expect, it } from "vitest";
import { passAtK, passHatK, seededRandom } from "../../src/index.js";

/** C(n, k) exactly, with BigInt: an independent implementation to check the product form against. */
function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
const ratio = (a: bigint, b: bigint) => Number((a * 10n ** 15n) / b) / 1e15;

function binomialPmf(n: number, x: number, p: number): number {
  return Number(choose(n, x)) * p ** x * (1 - p) ** (n - x);
}

describe("passAtK / passHatK", () => {
  it("agree with 1 − C(n−c,k)/C(n,k) and C(c,k)/C(n,k) computed exactly", () => {
    for (const n of [1, 5, 20, 37]) {
      for (let c = 0; c <= n; c++) {
        for (const k of [1, 2, 5, 10]) {
          if (k > n) continue;
          expect(passAtK(n, c, k)).toBeCloseTo(1 - ratio(choose(n - c, k), choose(n, k)), 12);
          expect(passHatK(n, c, k)).toBeCloseTo(ratio(choose(c, k), choose(n, k)), 12);
        }
      }
    }
  });
  it("pass@1 and pass^1 are the rate", () => {
    expect(passAtK(20, 7, 1)).toBeCloseTo(0.35, 14);
    expect(passHatK(20, 7, 1)).toBeCloseTo(0.35, 14);
  });
  it("are null when k > n — n trials say nothing about a draw of k", () => {
    expect(passAtK(3, 2, 5)).toBeNull();
    expect(passHatK(3, 2, 5)).toBeNull();
  });
  it("handle the edges exactly", () => {
    expect(passAtK(10, 0, 3)).toBe(0);
    expect(passAtK(10, 8, 3)).toBe(1); // fewer than 3 failures: any 3 include a pass
    expect(passHatK(10, 2, 3)).toBe(0);
    expect(passHatK(10, 10, 3)).toBe(1);
  });
  it("stay finite and sane for large n", () => {
    const v = passAtK(100_000, 1_000, 100)!;
    expect(v).toBeGreaterThan(0.63);
    expect(v).toBeLessThan(0.64); // ≈ 1 − 0.99^100
  });
  it("refuse a bad k", () => {
    expect(() => passAtK(10, 3, 0)).toThrow("passAtK: k must be a positive integer; got 0");
  });
});

describe("unbiasedness", () => {
  it("E[pass@k estimate] = 1 − (1−p)^k and E[pass^k estimate] = p^k, exactly over the binomial", () => {
    for (const n of [10, 25]) {
      for (const p of [0.1, 0.3, 0.7]) {
        for (const k of [1, 3, 5, 10]) {
          let atK = 0;
          let hatK = 0;
          for (let c = 0; c <= n; c++) {
            atK += binomialPmf(n, c, p) * passAtK(n, c, k)!;
            hatK += binomialPmf(n, c, p) * passHatK(n, c, k)!;
          }
          expect(atK).toBeCloseTo(1 - (1 - p) ** k, 10);
          expect(hatK).toBeCloseTo(p ** k, 10);
        }
      }
    }
  });

  it("the mean estimate over seeded simulations matches the true pass@k and pass^k", () => {
    const random = seededRandom("pass-at-k");
    const reps = 20_000;
    for (const [n, p, k] of [
      [10, 0.3, 5],
      [20, 0.1, 10],
      [15, 0.8, 3],
    ]) {
      let atK = 0;
      let hatK = 0;
      for (let r = 0; r < reps; r++) {
        let c = 0;
        for (let i = 0; i < n; i++) if (random.chance(p)) c++;
        atK += passAtK(n, c, k)!;
        hatK += passHatK(n, c, k)!;
      }
      // Standard error of a mean of 20,000 estimates in [0, 1] is < 0.0036; allow 4 of them.
      expect(Math.abs(atK / reps - (1 - (1 - p) ** k))).toBeLessThan(0.015);
      expect(Math.abs(hatK / reps - p ** k)).toBeLessThan(0.015);
    }
  });

  it("while the naive plug-in 1 − (1 − ĉ/n)^k is biased (the reason for the estimator)", () => {
    const n = 10;
    const p = 0.1;
    const k = 5;
    let naive = 0;
    for (let c = 0; c <= n; c++) naive += binomialPmf(n, c, p) * (1 - (1 - c / n) ** k);
    expect(1 - (1 - p) ** k - naive).toBeGreaterThan(0.02);
  });
});
