/**
 * Comparing two proportions: the difference with a Newcombe interval, Fisher's exact p-value, and
 * Holm's adjustment for testing many checks at once.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { fisherExact, type Counts } from "./fisher.js";
import { wilsonInterval, type Interval } from "./proportion.js";

/** What a comparison of two proportions found. */
export interface ProportionComparison {
  /** rate(b) − rate(a); null when either side has no trials. */
  readonly diff: number | null;
  /** Newcombe's hybrid score interval for the difference (built from the two Wilson intervals). */
  readonly diffInterval: Interval | null;
  /** Fisher's exact two-sided p-value. */
  readonly pValue: number;
}

/** Is b's rate different from a's? Newcombe (1998, method 10) for the interval, Fisher for the test. */
export function compareProportions(a: Counts, b: Counts, confidence = 0.95): ProportionComparison {
  const pValue = fisherExact(a, b);
  if (a.n === 0 || b.n === 0) return { diff: null, diffInterval: null, pValue };
  const pa = a.passes / a.n;
  const pb = b.passes / b.n;
  const wa = wilsonInterval(a.passes, a.n, confidence);
  const wb = wilsonInterval(b.passes, b.n, confidence);
  const diff = pb - pa;
  const low = diff - Math.sqrt((pb - wb.low) ** 2 + (wa.high - pa) ** 2);
  const high = diff + Math.sqrt((wb.high - pb) ** 2 + (pa - wa.low) ** 2);
  return { diff, diffInterval: { low: Math.max(-1, low), high: Math.min(1, high) }, pValue };
}

/**
 * Holm's step-down adjustment: p-values you can hold to one alpha across several checks while
 * keeping the chance of any false alarm ≤ alpha (uniformly more powerful than Bonferroni).
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  if (!Array.isArray(pValues)) throw new InvalidInputError("INVALID_INPUT", "holmAdjust(pValues) needs an array of p-values", { input: "pValues" });
  const bad = pValues.findIndex((p) => typeof p !== "number" || !(p >= 0 && p <= 1));
  if (bad !== -1) throw new InvalidInputError("INVALID_INPUT", `holmAdjust: pValues[${bad}] must be a p-value within 0..1; got ${String(pValues[bad])}`, { input: `pValues[${bad}]` });
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
