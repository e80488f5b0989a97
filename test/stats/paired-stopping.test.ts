/**
 * The ablation's early stop keeps its error rate. With no true difference (δ = 0), the chance that
 * the paired stop ever says "it matters" is computed exactly for N = 10…1000 (a bound over every
 * pair distribution), checked against an exact pair-level push-forward and against a seeded
 * simulation of the stopper `proctor run --ablate --early-stop` uses; the betting martingale is
 * checked against its sequential definition and against the one-sided mixture it reduces to.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AblationStopper } from "../../src/measure/ablation-stop.js";
import { seededRandom } from "../../src/measure/random.js";
import { discordantRule, pairedStoppingCurve } from "../../src/stats/paired-design.js";
import { logPairedBet, pairedExcludes, pairedSequence, pairedVerdict } from "../../src/stats/paired-sequence.js";
import { fisherPower } from "../../src/stats/power.js";
import { logOneSided } from "../../src/stats/sequence.js";
import { fixedCutoffs, stoppingCurve, type StopRule } from "../../src/stats/sequential-design.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 100);
/** Simulated runs per scenario; raise for a tighter check (the tolerance follows). */
const SIMS = Number(process.env.PROCTOR_SIM_RUNS ?? 400);
const ALPHA = 0.05;
const counts = fc
  .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }))
  .map(([up, down, same]) => ({ n: up + down + same, up, down }));

/** The betting process by its definition: one factor 1 + λ(Y − m) per pair, in the given order, averaged over λ = u/m. */
function betOracle(ys: readonly number[], m: number): number {
  let total = 0;
  for (let k = 0; k < 64; k++) {
    const lambda = (k + 0.5) / 64 / m;
    let wealth = 1;
    for (const y of ys) wealth *= 1 + lambda * (y - m);
    total += wealth;
  }
  return Math.log(total / 64);
}

describe("the paired betting martingale", () => {
  it("equals its sequential definition in any order of the pairs (Y = 1 up, ½ same, 0 down)", () => {
    fc.assert(
      fc.property(counts, fc.double({ min: 0.05, max: 0.95, noNaN: true }), fc.integer(), (c, m, seed) => {
        const ys = [...Array(c.up).fill(1), ...Array(c.down).fill(0), ...Array(c.n - c.up - c.down).fill(0.5)];
        const r = seededRandom(seed);
        for (let i = ys.length - 1; i > 0; i--) {
          const j = r.int(0, i + 1);
          [ys[i], ys[j]] = [ys[j], ys[i]];
        }
        expect(logPairedBet(c, m, "above")).toBeCloseTo(betOracle(ys, m), 8);
        expect(logPairedBet(c, m, "below")).toBeCloseTo(betOracle(ys.map((y) => 1 - y), 1 - m), 8);
      }),
      { numRuns: RUNS },
    );
  });

  it("at δ = 0 it is the one-sided mixture on the discordant pairs (the sign test, made sequential)", () => {
    fc.assert(
      fc.property(counts, (c) => {
        const d = c.up + c.down;
        expect(logPairedBet(c, 0.5, "above")).toBeCloseTo(logOneSided(c.up, d, 0.5, "above"), 9);
        expect(logPairedBet(c, 0.5, "below")).toBeCloseTo(logOneSided(c.up, d, 0.5, "below"), 9);
      }),
      { numRuns: RUNS },
    );
  });

  it("the interval holds the observed delta and is exactly the set neither side has rejected", () => {
    fc.assert(
      fc.property(counts, fc.constantFrom(0.8, 0.9, 0.95, 0.99), (c, confidence) => {
        const { low, high } = pairedSequence(c, confidence);
        const alpha = 1 - confidence;
        const centre = c.n === 0 ? 0 : (c.up - c.down) / c.n;
        expect(low).toBeLessThanOrEqual(centre + 1e-12);
        expect(high).toBeGreaterThanOrEqual(centre - 1e-12);
        if (low > -1 + 1e-6) expect(pairedExcludes(c, low - 1e-6, alpha)).toBe(true);
        if (high < 1 - 1e-6) expect(pairedExcludes(c, high + 1e-6, alpha)).toBe(true);
        expect(pairedExcludes(c, centre, alpha)).toBe(false);
        // The stop verdict reads the same interval.
        const verdict = pairedVerdict(c, alpha);
        expect(verdict === "matters").toBe(c.n > 0 && (low > 0 || high < 0));
      }),
      { numRuns: RUNS },
    );
  });

  it("8 pairs all one way show a difference at 95 %, 7 do not; a negligible effect is shown inside ±detect", () => {
    expect(pairedVerdict({ n: 8, up: 8, down: 0 }, ALPHA)).toBe("matters");
    expect(pairedVerdict({ n: 7, up: 7, down: 0 }, ALPHA)).toBeUndefined();
    expect(pairedVerdict({ n: 200, up: 3, down: 2 }, ALPHA, 0.1)).toBe("negligible");
    expect(pairedVerdict({ n: 200, up: 3, down: 2 }, ALPHA)).toBeUndefined();
    expect(pairedVerdict({ n: 20, up: 3, down: 2 }, ALPHA, 0.1)).toBeUndefined();
  });
});

/** P(a wrong "it matters" by N discordant pairs) at δ = 0, exactly: an upper bound for N pairs of any kind. */
const bound = stoppingCurve(discordantRule(ALPHA), 0.5, 1000);
const wrongBy = (n: number) => (bound.above[n] as number) + (bound.below[n] as number);

describe("with no true difference, a wrong 'it matters' stays ≤ α at every N", () => {
  it("exactly, for N = 10…1000 pairs (any rates, any dependence inside a pair)", () => {
    for (let n = 10; n <= 1000; n++) expect(wrongBy(n)).toBeLessThanOrEqual(ALPHA);
    // Not vacuous: the error does build up with the looks, towards α.
    expect(wrongBy(1000)).toBeGreaterThan(ALPHA / 2);
  });

  it("while the exact sign test looked at after every pair passes α within 300 pairs (the error the stop avoids)", () => {
    const cut = new Map<number, [number, number]>();
    const naive: StopRule = (up, d) => {
      if (d === 0) return undefined;
      const [below, above] = cut.get(d) ?? fixedCutoffs(0.5, ALPHA, d);
      cut.set(d, [below, above]);
      return up >= above ? "above" : up <= below ? "below" : undefined;
    };
    const c = stoppingCurve(naive, 0.5, 300);
    expect((c.above[300] as number) + (c.below[300] as number)).toBeGreaterThan(2 * ALPHA);
  });

  it("pushed forward pair by pair (concordant pairs too, minPairs 10) it stays under that bound", () => {
    for (const [pUp, pDown] of [[0.25, 0.25], [0.05, 0.05], [0.5, 0.5], [0.16, 0.16]] as const) {
      const c = pairedStoppingCurve(ALPHA, pUp, pDown, 150, 10);
      for (let n = 10; n <= 150; n++) expect((c.above[n] as number) + (c.below[n] as number)).toBeLessThanOrEqual(wrongBy(n) + 1e-12);
    }
  });

  it(`simulated through the stopper proctor runs (seeded, ${SIMS} runs of up to 1000 pairs): ≤ α within 3 standard errors, and as computed`, () => {
    const looks = [10, 50, 100, 150, 500, 1000];
    const stoppedBy = looks.map(() => 0);
    const r = seededRandom("paired-stop-null");
    for (let run = 0; run < SIMS; run++) {
      // δ = 0 with common random numbers: half the pairs share one draw, the rest are independent; both rates 0.4.
      const stopper = new AblationStopper(["c"], { alpha: ALPHA, minPairs: 10, cap: 1000 });
      const [withArm, withoutArm] = [stopper.arm("with"), stopper.arm("without")];
      for (let i = 0; i < 1000 && !withArm.stop(); i++) {
        const shared = r.chance(0.5);
        const w = r.chance(0.4);
        const wo = shared ? w : r.chance(0.4);
        withArm.record(i, [w]);
        withoutArm.record(i, [wo]);
      }
      const at = stopper.info().pairs;
      if (!stopper.info().stopped) continue;
      looks.forEach((n, j) => {
        if (at <= n) stoppedBy[j] = (stoppedBy[j] as number) + 1;
      });
    }
    const se = Math.sqrt((ALPHA * (1 - ALPHA)) / SIMS);
    // The exact pair-level figure for this distribution: up = down = 0.5 · 0.4 · 0.6.
    const exact = pairedStoppingCurve(ALPHA, 0.12, 0.12, 150, 10);
    looks.forEach((n, j) => {
      const rate = (stoppedBy[j] as number) / SIMS;
      expect(rate).toBeLessThanOrEqual(ALPHA + 3 * se);
      if (n <= 150) expect(Math.abs(rate - ((exact.above[n] as number) + (exact.below[n] as number)))).toBeLessThan(4 * se + 1e-9);
    });
  });

  it(`'negligible within ±detect' is wrong ≤ α too (seeded, ${SIMS} runs, true δ = detect = 0.2)`, () => {
    const r = seededRandom("paired-stop-detect");
    let wrong = 0;
    for (let run = 0; run < SIMS; run++) {
      const stopper = new AblationStopper(["c"], { alpha: ALPHA, minPairs: 10, detect: 0.2, cap: 400 });
      const [withArm, withoutArm] = [stopper.arm("with"), stopper.arm("without")];
      for (let i = 0; i < 400 && !withArm.stop(); i++) {
        withArm.record(i, [r.chance(0.6)]);
        withoutArm.record(i, [r.chance(0.4)]);
      }
      if (stopper.info().verdicts[0]?.verdict === "negligible") wrong++;
    }
    expect(wrong / SIMS).toBeLessThanOrEqual(ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / SIMS));
  });
});

describe("it saves pairs", () => {
  it("at equal power (80 %), 0.5 → 0.8 takes fewer pairs on average than Fisher's fixed-N design", () => {
    let fixed = 1;
    while (fisherPower(0.8, 0.5, fixed, ALPHA) < 0.8) fixed++;
    const c = pairedStoppingCurve(ALPHA, 0.8 * 0.5, 0.5 * 0.2, 3 * fixed, 10);
    let cap = 10;
    while ((c.above[cap] as number) < 0.8) cap++;
    let used = 0;
    for (let n = 0; n < cap; n++) used += 1 - (n === 0 ? 0 : (c.above[n] as number) + (c.below[n] as number));
    expect(used).toBeLessThan(fixed);
  });
});
