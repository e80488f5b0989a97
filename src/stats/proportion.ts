/**
 * One proportion from n Bernoulli trials: the rate, its standard error, and the Wilson score
 * interval. With n = 0 there is no rate: `rate` and `standardError` return null and the interval
 * is the whole of [0, 1] — "we don't know" stated as data, never a made-up 0 or 1.
 */
import { requireCounts } from "./counts.js";
import { zFor } from "./normal.js";

/** A two-sided confidence interval for a proportion. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** passes / n, or null when nothing was observed. */
export function rate(passes: number, n: number): number | null {
  requireCounts("rate", passes, n);
  return n === 0 ? null : passes / n;
}

/** √(p̂(1−p̂)/n): the plug-in standard error of the rate (0 at p̂ = 0 or 1 — read the interval there). */
export function standardError(passes: number, n: number): number | null {
  requireCounts("standardError", passes, n);
  if (n === 0) return null;
  const p = passes / n;
  return Math.sqrt((p * (1 - p)) / n);
}

/**
 * The Wilson score interval: unlike p̂ ± z·SE it never collapses to a point at 0/n or n/n and its
 * coverage stays near the nominal level at the small n agent evals run at (10–100 trials).
 */
export function wilsonInterval(passes: number, n: number, confidence = 0.95): Interval {
  requireCounts("wilsonInterval", passes, n);
  if (n === 0) return { low: 0, high: 1 };
  const z = zFor(confidence);
  const p = passes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0/n and n/n the bound is exactly 0 or 1; don't let rounding report 1e-17.
  return { low: passes === 0 ? 0 : Math.max(0, centre - half), high: passes === n ? 1 : Math.min(1, centre + half) };
}
