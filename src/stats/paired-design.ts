/**
 * What the ablation's paired early stop does, computed exactly rather than simulated: the
 * distribution of (up, down) counts among runs still going, pushed forward one pair at a time
 * with every state where the stop fires taken out. From it, the chance of a wrong "it matters" by
 * every N, the chance of any verdict by a cap (power), and the expected pairs used.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { logPairedBet, pairedExcludes } from "./paired-sequence.js";
import { requireRates } from "./sequence.js";
import type { StopRule } from "./sequential-design.js";

/**
 * The "it matters" stop at δ = 0 as a rule over discordant pairs alone (concordant pairs do not
 * move the test): `up` of `discordant`. Pushed forward by `stoppingCurve` at rate ½ it gives the
 * chance of a wrong stop within N discordant pairs — a bound for N pairs of ANY kind, whatever
 * the rates and the dependence inside a pair, since N pairs hold at most N discordant ones.
 */
export function discordantRule(alpha: number): StopRule {
  requireRates("discordantRule", { alpha });
  return (up, discordant) => (pairedExcludes({ n: discordant, up, down: discordant - up }, 0, alpha) ? (2 * up > discordant ? "above" : "below") : undefined);
}

/** pairedVerdict's "negligible" test alone (no validation; hot path): both ±detect rejected. */
function negligibleAt(c: { n: number; up: number; down: number }, alpha: number, detect: number): boolean {
  const bar = Math.log(2 / alpha);
  return logPairedBet(c, (1 + detect) / 2, "below") >= bar && logPairedBet(c, (1 - detect) / 2, "above") >= bar;
}

/** The paired stop pushed forward over pairs: cumulative chances by n (index 0 unused) and expected pairs. */
export interface PairedCurve {
  /** P(it stopped saying "with is better" at some n' ≤ n). */
  readonly above: Float64Array;
  /** P(it stopped saying "without is better" at some n' ≤ n). */
  readonly below: Float64Array;
  /** P(it stopped saying "no effect beyond ±detect" at some n' ≤ n); all zero without `detect`. */
  readonly negligible: Float64Array;
  /** E[pairs used] when the arms are capped at `maxPairs`. */
  readonly expectedPairs: number;
}

/**
 * Push the "it matters" stop forward exactly over n = 1 … maxPairs, each pair up with probability
 * `pUp` (with passed, without failed), down with `pDown`, else concordant; no look before
 * `minPairs`. With `detect`, the stop also fires on "no effect beyond ±detect" (pairedVerdict's
 * `negligible`), as the ablation's early stop does. O(maxPairs³): for a few hundred pairs.
 */
export function pairedStoppingCurve(alpha: number, pUp: number, pDown: number, maxPairs: number, minPairs = 1, detect?: number): PairedCurve {
  requireRates("pairedStoppingCurve", { alpha });
  if (!(pUp >= 0 && pDown >= 0 && pUp + pDown <= 1)) throw new InvalidInputError("INVALID_INPUT", `pairedStoppingCurve: pUp and pDown must be chances with pUp + pDown ≤ 1; got ${pUp}, ${pDown}`, { input: "pUp" });
  for (const [name, v] of [["maxPairs", maxPairs], ["minPairs", minPairs]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new InvalidInputError("INVALID_INPUT", `pairedStoppingCurve: ${name} must be a positive integer; got ${v}`, { input: name });
  }
  const w = maxPairs + 1;
  const pSame = 1 - pUp - pDown;
  let going = new Float64Array(w * w);
  let next = new Float64Array(w * w);
  going[0] = 1;
  // The verdict at (up, down): 0 unknown, 1 none, 2 above, 3 below, 4 negligible.
  const verdict = new Uint8Array(w * w);
  const above = new Float64Array(maxPairs + 1);
  const below = new Float64Array(maxPairs + 1);
  const negligible = new Float64Array(maxPairs + 1);
  let sumAbove = 0;
  let sumBelow = 0;
  let sumNegligible = 0;
  let expected = 0;
  for (let n = 1; n <= maxPairs; n++) {
    next.fill(0);
    let alive = 0;
    for (let up = 0; up < n; up++) {
      for (let down = 0; up + down < n; down++) {
        const mass = going[up * w + down] as number;
        if (mass === 0) continue;
        alive += mass;
        next[up * w + down] = (next[up * w + down] as number) + mass * pSame;
        next[(up + 1) * w + down] = (next[(up + 1) * w + down] as number) + mass * pUp;
        next[up * w + down + 1] = (next[up * w + down + 1] as number) + mass * pDown;
      }
    }
    expected += alive; // every run still going after n − 1 pairs runs pair n
    if (n >= minPairs) {
      for (let up = 0; up <= n; up++) {
        for (let down = 0; up + down <= n; down++) {
          const i = up * w + down;
          const mass = next[i] as number;
          if (mass === 0) continue;
          // "It matters" reads the discordant pairs only (concordant ones multiply its bet by 1): cached by (up, down).
          if (verdict[i] === 0) verdict[i] = pairedExcludes({ n: up + down, up, down }, 0, alpha) ? (up > down ? 2 : 3) : 1;
          // "Negligible" reads the concordant pairs too, and more of them only push it further: once from n, for good.
          // (The interval holds the observed delta, so a state whose |up − down| / n reaches detect cannot be inside it.)
          if (verdict[i] === 1 && detect !== undefined && Math.abs(up - down) < Math.abs(detect) * n && negligibleAt({ n, up, down }, alpha, Math.abs(detect))) verdict[i] = 4;
          if (verdict[i] === 1) continue;
          if (verdict[i] === 2) sumAbove += mass;
          else if (verdict[i] === 3) sumBelow += mass;
          else sumNegligible += mass;
          next[i] = 0;
        }
      }
    }
    above[n] = sumAbove;
    below[n] = sumBelow;
    negligible[n] = sumNegligible;
    [going, next] = [next, going];
  }
  return { above, below, negligible, expectedPairs: expected };
}
