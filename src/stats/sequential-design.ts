/**
 * What a stopping rule does, computed exactly rather than simulated: the distribution of passes
 * among the runs still going, pushed forward one trial at a time, with every (passes, n) where
 * the rule stops taken out. From it: the chance of a wrong decision by every n, the chance of any
 * decision by the cap (power), and the expected number of trials used. The same numbers back the
 * cost forecast (how many trials a decision is likely to need) and the simulation in bench/.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { logFactorial } from "./fisher.js";
import { requireRates, verdictAgainst } from "./sequence.js";
import { wilsonInterval } from "./proportion.js";

/** A rule that, after n trials with `passes` passes, says "above" / "below" the minimum or nothing yet. */
export type StopRule = (passes: number, n: number) => "above" | "below" | undefined;

/** The anytime-valid rule `earlyStop` uses: stop once a one-sided mixture test against `min` rejects at α. */
export function sequenceRule(min: number, alpha: number, minTrials = 1): StopRule {
  requireRates("sequenceRule", { min, alpha });
  return (passes, n) => (n < minTrials ? undefined : verdictAgainst(passes, n, min, alpha));
}

/** The rule proctor used before confidence sequences: a fixed-n Wilson interval looked at after every trial (its error grows with the looks). */
export function repeatedWilsonRule(min: number, confidence: number, minTrials = 1): StopRule {
  requireRates("repeatedWilsonRule", { min, confidence });
  return (passes, n) => {
    if (n < minTrials) return undefined;
    const { low, high } = wilsonInterval(passes, n, confidence);
    return low >= min ? "above" : high < min ? "below" : undefined;
  };
}

/** A fixed-n test: decide only at n = `trials`, "above" when the one-sided exact binomial p ≤ α/2, "below" likewise (two-sided α). */
export function fixedRule(min: number, alpha: number, trials: number): StopRule {
  requireRates("fixedRule", { min, alpha });
  if (!Number.isInteger(trials) || trials < 1) throw new InvalidInputError("INVALID_INPUT", `fixedRule: trials must be a positive integer; got ${String(trials)}`);
  const [below, above] = fixedCutoffs(min, alpha, trials);
  return (passes, n) => (n !== trials ? undefined : passes >= above ? "above" : passes <= below ? "below" : undefined);
}

/** The exact-binomial cutoffs of the fixed-n test: [largest count called "below", smallest called "above"]. */
export function fixedCutoffs(min: number, alpha: number, trials: number): [number, number] {
  const pmf = binomialPmf(trials, min);
  let tail = 0;
  let above = trials + 1;
  for (let s = trials; s >= 0; s--) {
    tail += pmf[s] ?? 0;
    if (tail > alpha / 2) break;
    above = s;
  }
  tail = 0;
  let below = -1;
  for (let s = 0; s <= trials; s++) {
    tail += pmf[s] ?? 0;
    if (tail > alpha / 2) break;
    below = s;
  }
  return [below, above];
}

function binomialPmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let s = 0; s <= n; s++) {
    if (p === 0 || p === 1) out[s] = (p === 1 ? s === n : s === 0) ? 1 : 0;
    else out[s] = Math.exp(logFactorial(n) - logFactorial(s) - logFactorial(n - s) + s * Math.log(p) + (n - s) * Math.log1p(-p));
  }
  return out;
}

/** What a rule does on a true rate, trial by trial. Arrays are indexed by n (index 0 unused). */
export interface StoppingCurve {
  /** P(the rule said "above" at some n' ≤ n). */
  readonly above: Float64Array;
  /** P(the rule said "below" at some n' ≤ n). */
  readonly below: Float64Array;
  /** E[trials used] when the run is capped at `maxTrials`. */
  readonly expectedTrials: number;
}

/** Push the rule forward exactly over n = 1 … maxTrials for true rate `p`. O(maxTrials²). */
export function stoppingCurve(rule: StopRule, p: number, maxTrials: number): StoppingCurve {
  if (!(p >= 0 && p <= 1)) throw new InvalidInputError("INVALID_INPUT", `stoppingCurve: p must be a rate within 0..1; got ${p}`, { input: "p" });
  if (!Number.isInteger(maxTrials) || maxTrials < 1) throw new InvalidInputError("INVALID_INPUT", `stoppingCurve: maxTrials must be a positive integer; got ${maxTrials}`, { input: "maxTrials" });
  let going = new Float64Array(maxTrials + 2);
  let next = new Float64Array(maxTrials + 2);
  going[0] = 1;
  const above = new Float64Array(maxTrials + 1);
  const below = new Float64Array(maxTrials + 1);
  let sumAbove = 0;
  let sumBelow = 0;
  let expected = 0;
  for (let n = 1; n <= maxTrials; n++) {
    next.fill(0);
    let alive = 0;
    for (let s = 0; s < n; s++) {
      const mass = going[s] ?? 0;
      if (mass === 0) continue;
      next[s] = (next[s] ?? 0) + mass * (1 - p);
      next[s + 1] = (next[s + 1] ?? 0) + mass * p;
      alive += mass;
    }
    expected += alive; // every run still going at n − 1 runs trial n
    for (let s = 0; s <= n; s++) {
      const mass = next[s] ?? 0;
      if (mass === 0) continue;
      const verdict = rule(s, n);
      if (verdict === "above") sumAbove += mass;
      else if (verdict === "below") sumBelow += mass;
      else continue;
      next[s] = 0;
    }
    above[n] = sumAbove;
    below[n] = sumBelow;
    [going, next] = [next, going];
  }
  return { above, below, expectedTrials: expected };
}

/** Smallest fixed n whose two-sided exact test (level α) says "above" with probability ≥ power when the rate is p (> min). */
export function fixedTrialsForPower(min: number, p: number, alpha: number, power: number, limit = 5000): number | undefined {
  requireRates("fixedTrialsForPower", { min, p, alpha, power });
  for (let n = 1; n <= limit; n++) {
    const [, cut] = fixedCutoffs(min, alpha, n);
    if (cut > n) continue;
    const pmf = binomialPmf(n, p);
    let reach = 0;
    for (let s = cut; s <= n; s++) reach += pmf[s] ?? 0;
    if (reach >= power) return n;
  }
  return undefined;
}
