/**
 * Anytime-valid confidence sequences for a pass rate: intervals you may look at after every trial
 * and stop on whenever you like, with the stated error rate still holding.
 *
 * A fixed-n interval (Wilson) covers the rate with 95 % at ONE pre-chosen n; looked at after every
 * trial, the chance that it misses at SOME look grows with the number of looks. Here the interval
 * comes from Robbins' mixture martingale: for a candidate rate p,
 *
 *   M_n(p) = ∫ q^S (1−q)^F dBeta(q; 1, 1) / (p^S (1−p)^F) = B(1+S, 1+F) / (p^S (1−p)^F)
 *
 * (S passes, F fails after n trials) is a non-negative martingale with mean 1 when p is the true
 * rate, so by Ville's inequality P(M_n(p) ≥ 1/α for some n) ≤ α. The set {p : M_n(p) < 1/α} is
 * therefore an interval that holds the true rate at every n at once with probability ≥ 1 − α.
 *
 * Stopping against a minimum uses one-sided mixtures instead (`verdictAgainst`): for any true rate
 * only one of "above" and "below" can be wrong, so each side spends all of α, and the mixture
 * puts its weight only where the alternative lies — about a fifth fewer trials than a fixed-n test
 * of the same power (bench/stopping.mjs), where the two-sided interval would need more.
 */
import { requireCounts } from "./counts.js";
import { logFactorial, type Counts } from "./fisher.js";
import type { Interval } from "./proportion.js";
import { InvalidInputError } from "../errors/proctor-error.js";

/** Each value a rate strictly between 0 and 1 (a minimum, α, a power), or a proctor error naming it. */
export function requireRates(fn: string, values: Readonly<Record<string, number>>): void {
  for (const [name, v] of Object.entries(values)) {
    // A minimum may be 0 or 1 (a check that must always pass); α, a confidence or a power may not.
    const ok = name === "min" ? v >= 0 && v <= 1 : v > 0 && v < 1;
    if (typeof v !== "number" || !ok) throw new InvalidInputError("INVALID_INPUT", `${fn}: ${name} must be a number ${name === "min" ? "within 0..1" : "strictly between 0 and 1"}; got ${JSON.stringify(v) ?? String(v)}`);
  }
}

function requireConfidence(fn: string, confidence: number): void {
  if (!(typeof confidence === "number" && confidence > 0 && confidence < 1)) {
    throw new InvalidInputError("INVALID_INPUT", `${fn}: confidence must be within (0, 1), e.g. 0.95; got ${JSON.stringify(confidence)}`, { input: "confidence" });
  }
}

/** ln M_n(p): the log of the uniform-mixture likelihood ratio against rate p (no validation; hot path). */
export function logMixture(passes: number, n: number, p: number): number {
  const fails = n - passes;
  // ln B(1+S, 1+F) = ln S! + ln F! − ln (n+1)!
  const logMarginal = logFactorial(passes) + logFactorial(fails) - logFactorial(n + 1);
  const logLik = (passes === 0 ? 0 : passes * Math.log(p)) + (fails === 0 ? 0 : fails * Math.log1p(-p));
  return logMarginal - logLik;
}

/** Does the (1 − α) confidence sequence at (passes, n) leave out `p`? (no validation; hot path) */
export function sequenceExcludes(passes: number, n: number, p: number, alpha: number): boolean {
  return logMixture(passes, n, p) >= -Math.log(alpha);
}

/**
 * The confidence sequence's interval after n trials with `passes` passes: valid at every n at
 * once (stop whenever it lies clear of what you care about). [0, 1] at n = 0. Wider than
 * Wilson's at the same n — the price of looking as often as you like.
 */
export function sequenceInterval(passes: number, n: number, confidence = 0.95): Interval {
  requireCounts("sequenceInterval", passes, n);
  requireConfidence("sequenceInterval", confidence);
  if (n === 0) return { low: 0, high: 1 };
  const alpha = 1 - confidence;
  const centre = passes / n; // M_n(p̂) ≤ 1 < 1/α: the point estimate is always inside
  const out = (p: number) => sequenceExcludes(passes, n, p, alpha);
  const edge = (inside: number, outside: number) => {
    let lo = inside;
    let hi = outside;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (out(mid)) hi = mid;
      else lo = mid;
    }
    return lo;
  };
  const low = passes === 0 || !out(0) ? 0 : edge(centre, 0);
  const high = passes === n || !out(1) ? 1 : edge(centre, 1);
  return { low, high };
}

/**
 * An anytime-valid p-value for "the rate is p0": min(1, 1/M_n(p0)). Since M_n(p0) reaches 1/α at
 * some n with probability ≤ α, P(this p-value is ≤ α at any n) ≤ α — read it whenever you like.
 */
export function sequenceP(passes: number, n: number, p0: number): number {
  requireCounts("sequenceP", passes, n);
  if (!(p0 >= 0 && p0 <= 1)) throw new InvalidInputError("INVALID_INPUT", `sequenceP: p0 must be a rate within 0..1; got ${p0}`, { input: "p0" });
  return Math.min(1, Math.exp(-logMixture(passes, n, p0)));
}

/**
 * A confidence sequence for the difference rate(b) − rate(a) of two independent arms: each arm's
 * sequence at (1 − α/2), combined (a union bound, so the pair holds at every n with ≥ 1 − α).
 * Conservative, and valid for any stopping rule that reads it.
 */
export function differenceSequence(a: Counts, b: Counts, confidence = 0.95): Interval {
  requireCounts("differenceSequence (first)", a?.passes as number, a?.n as number);
  requireCounts("differenceSequence (second)", b?.passes as number, b?.n as number);
  requireConfidence("differenceSequence", confidence);
  const half = 1 - (1 - confidence) / 2;
  const ia = sequenceInterval(a.passes, a.n, half);
  const ib = sequenceInterval(b.passes, b.n, half);
  return { low: Math.max(-1, ib.low - ia.high), high: Math.min(1, ib.high - ia.low) };
}

/** Grid points of the one-sided mixtures: fine enough that a finer grid changes no decision at n ≤ 1000 by more than a trial. */
const GRID = 64;
const grids = new Map<string, { logQ: Float64Array; log1mQ: Float64Array }>();

function gridFor(min: number, side: "above" | "below") {
  const key = `${side}:${min}`;
  let g = grids.get(key);
  if (!g) {
    const logQ = new Float64Array(GRID);
    const log1mQ = new Float64Array(GRID);
    for (let k = 0; k < GRID; k++) {
      const q = side === "above" ? min + ((k + 0.5) * (1 - min)) / GRID : ((k + 0.5) * min) / GRID;
      logQ[k] = Math.log(q);
      log1mQ[k] = Math.log1p(-q);
    }
    if (grids.size > 256) grids.clear();
    g = { logQ, log1mQ };
    grids.set(key, g);
  }
  return g;
}

/**
 * ln of the one-sided mixture against `min`: the mean, over rates q spread evenly on (min, 1)
 * ("above") or (0, min) ("below"), of the likelihood ratio q^S(1−q)^F / min^S(1−min)^F. When the
 * true rate lies on the other side of `min` (or at it), every ratio is a supermartingale, so the
 * mixture reaches 1/α with probability ≤ α at any n — a test of "rate > min" (or "< min") that may
 * be read after every trial.
 */
export function logOneSided(passes: number, n: number, min: number, side: "above" | "below"): number {
  const fails = n - passes;
  // The evidence against a rate of exactly 0 or 1 is absolute: one pass refutes 0, one fail refutes 1.
  if ((min === 1 && fails > 0) || (min === 0 && passes > 0)) return Infinity;
  if (min <= 0 || min >= 1) return -Infinity;
  const base = passes * Math.log(min) + fails * Math.log1p(-min);
  const { logQ, log1mQ } = gridFor(min, side);
  let top = -Infinity;
  const terms = new Float64Array(GRID);
  for (let k = 0; k < GRID; k++) {
    const t = passes * (logQ[k] as number) + fails * (log1mQ[k] as number) - base;
    terms[k] = t;
    if (t > top) top = t;
  }
  let sum = 0;
  for (let k = 0; k < GRID; k++) sum += Math.exp((terms[k] as number) - top);
  return top + Math.log(sum / GRID);
}

/**
 * The anytime-valid verdict against a minimum: "above" once the data show rate > min, "below"
 * once they show rate < min, each at error ≤ α however often it is asked (only one of the two can
 * be wrong for any true rate, so each side may spend all of α).
 */
export function verdictAgainst(passes: number, n: number, min: number, alpha: number): "above" | "below" | undefined {
  requireCounts("verdictAgainst", passes, n);
  requireRates("verdictAgainst", { min, alpha });
  if (n === 0) return undefined;
  const bar = -Math.log(alpha);
  const rate = passes / n;
  if (rate > min && logOneSided(passes, n, min, "above") >= bar) return "above";
  if (rate < min && logOneSided(passes, n, min, "below") >= bar) return "below";
  return undefined;
}
