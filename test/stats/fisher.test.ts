/**
 * Fisher's exact test: reference values, an independent BigInt enumeration, and its size —
 * computed exactly over the binomial, not sampled — never above alpha.
 */
import { describe, expect, it } from "vitest";
import { compareProportions, fisherExact, holmAdjust } from "../../src/index.js";
import { logFactorial } from "../../src/stats/fisher.js";

function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/** Two-sided Fisher p-value by exact rational arithmetic. */
function fisherBrute(a: number, na: number, b: number, nb: number): number {
  const k = a + b;
  const total = choose(na + nb, k);
  const weight = (x: number) => choose(na, x) * choose(nb, k - x);
  const observed = weight(a);
  let tail = 0n;
  for (let x = 0; x <= k; x++) if (weight(x) <= observed) tail += weight(x);
  return Number((tail * 10n ** 15n) / total) / 1e15;
}

function binomialPmf(n: number, x: number, p: number): number {
  return Math.exp(logFactorial(n) - logFactorial(x) - logFactorial(n - x) + x * Math.log(p) + (n - x) * Math.log(1 - p));
}

describe("fisherExact", () => {
  it.each([
    // scipy.stats.fisher_exact([[a, na − a], [b, nb − b]]).pvalue; the first is the lady tasting tea.
    [3, 4, 1, 4, 0.4857142857],
    [10, 10, 5, 10, 0.0325077399],
    [0, 10, 3, 10, 0.2105263158],
    [9, 10, 9, 10, 1],
    [18, 20, 10, 20, 0.0138141479],
  ])("%i/%i vs %i/%i → p = %f", (a, na, b, nb, p) => {
    expect(fisherExact({ passes: a, n: na }, { passes: b, n: nb })).toBeCloseTo(p, 9);
  });

  it("matches exact rational enumeration on every table up to 12 × 12", () => {
    for (let na = 1; na <= 12; na += 3) {
      for (let nb = 1; nb <= 12; nb += 2) {
        for (let a = 0; a <= na; a++) {
          for (let b = 0; b <= nb; b++) {
            expect(fisherExact({ passes: a, n: na }, { passes: b, n: nb })).toBeCloseTo(fisherBrute(a, na, b, nb), 10);
          }
        }
      }
    }
  });

  it("is symmetric and 1 when a side has no trials", () => {
    expect(fisherExact({ passes: 2, n: 9 }, { passes: 7, n: 11 })).toBeCloseTo(fisherExact({ passes: 7, n: 11 }, { passes: 2, n: 9 }), 14);
    expect(fisherExact({ passes: 0, n: 0 }, { passes: 3, n: 5 })).toBe(1);
  });

  it("handles large n (Stirling beyond the table) consistently with the table", () => {
    expect(logFactorial(1025)).toBeCloseTo(logFactorial(1024) + Math.log(1025), 9);
    // scipy.stats.fisher_exact([[4500, 500], [4400, 600]]).pvalue
    expect(fisherExact({ passes: 4500, n: 5000 }, { passes: 4400, n: 5000 })).toBeCloseTo(0.00154671541786, 12);
  });

  it("never raises a false alarm more often than alpha (size computed exactly over the binomial grid)", () => {
    for (const n of [5, 10, 20, 30]) {
      for (const p of [0.1, 0.3, 0.5, 0.8, 0.95]) {
        let size = 0;
        for (let a = 0; a <= n; a++) {
          for (let b = 0; b <= n; b++) {
            if (fisherExact({ passes: a, n }, { passes: b, n }) < 0.05) size += binomialPmf(n, a, p) * binomialPmf(n, b, p);
          }
        }
        expect(size).toBeLessThanOrEqual(0.05);
      }
    }
  });
});

describe("compareProportions", () => {
  it("gives the difference, a Newcombe interval around it, and Fisher's p", () => {
    // Newcombe (1998), Table II, example (a): 56/70 − 48/80, method 10 → (0.0524, 0.3339).
    const c = compareProportions({ passes: 48, n: 80 }, { passes: 56, n: 70 });
    expect(c.diff).toBeCloseTo(0.2, 12);
    expect(c.diffInterval!.low).toBeCloseTo(0.0524, 4);
    expect(c.diffInterval!.high).toBeCloseTo(0.3339, 4);
    expect(c.pValue).toBeCloseTo(fisherBrute(48, 80, 56, 70), 10);
  });
  it("has no difference to report when a side is empty", () => {
    expect(compareProportions({ passes: 0, n: 0 }, { passes: 1, n: 2 })).toEqual({ diff: null, diffInterval: null, pValue: 1 });
  });
});

describe("holmAdjust", () => {
  it("steps down: (m − rank)·p, monotone, capped at 1", () => {
    expect(holmAdjust([0.01, 0.04, 0.03, 0.5])).toEqual([0.04, 0.09, 0.09, 0.5]);
    expect(holmAdjust([0.6, 0.6])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });
});
