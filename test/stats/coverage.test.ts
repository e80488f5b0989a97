/**
 * Prove the interval, don't claim it: Bernoulli trials with known p over a grid of p and n, a
 * seeded RNG so the test is deterministic. Wilson's coverage oscillates with n·p (a property of
 * any interval for a discrete count), so the claim tested is the standard one — mean coverage
 * over p ≥ 94 % at every n — plus a floor on the worst grid point, and the contrast with the
 * Wald interval (p̂ ± z·SE) that proctor deliberately does not use.
 */
import { describe, expect, it } from "vitest";
import { seededRandom, wilsonInterval } from "../../src/index.js";
import { standardError } from "../../src/stats/proportion.js";

const PS = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
const NS = [10, 20, 30, 50, 100];
const REPS = 4000;

function simulate(interval: (x: number, n: number) => { low: number; high: number }) {
  const random = seededRandom("wilson-coverage");
  const rows: { n: number; p: number; coverage: number }[] = [];
  for (const n of NS) {
    // The interval depends only on the count: compute it once per count.
    const table = Array.from({ length: n + 1 }, (_, x) => interval(x, n));
    for (const p of PS) {
      let covered = 0;
      for (let r = 0; r < REPS; r++) {
        let x = 0;
        for (let i = 0; i < n; i++) if (random.next() < p) x++;
        if (table[x].low <= p && p <= table[x].high) covered++;
      }
      rows.push({ n, p, coverage: covered / REPS });
    }
  }
  return rows;
}

const meanBy = (rows: { n: number; coverage: number }[], n: number) => {
  const at = rows.filter((r) => r.n === n);
  return at.reduce((s, r) => s + r.coverage, 0) / at.length;
};

describe("Wilson 95% interval coverage (simulation)", () => {
  const rows = simulate((x, n) => wilsonInterval(x, n));

  it.each(NS)("covers the true p in ≥ 94%% of repetitions on average over p, at n = %i", (n) => {
    expect(meanBy(rows, n)).toBeGreaterThanOrEqual(0.94);
  });

  it("never falls below 89% at any grid point (the known dips at small n·p)", () => {
    const worst = rows.reduce((a, b) => (b.coverage < a.coverage ? b : a));
    expect(worst.coverage).toBeGreaterThanOrEqual(0.89);
  });

  it("does far better than the Wald interval at small n, where Wald collapses", () => {
    const wald = simulate((x, n) => {
      const p = x / n;
      const half = 1.959964 * (standardError(x, n) ?? 0);
      return { low: p - half, high: p + half };
    });
    expect(meanBy(wald, 10)).toBeLessThan(0.9);
    expect(meanBy(rows, 10) - meanBy(wald, 10)).toBeGreaterThan(0.05);
  });
});
