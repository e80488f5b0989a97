/**
 * An anytime-valid confidence sequence for the change an ablated part makes, read from PAIRED
 * trials: trial i with the part and trial i without it (same seed, same index). Each pair gives
 * Y = (with − without + 1)/2 ∈ {0, ½, 1}, whose mean is (1 + δ)/2 for δ = rate(with) − rate(without),
 * whatever the dependence inside a pair. For a candidate mean m the betting process
 *
 *   K⁺_n(m) = mean over u of ∏ (1 + u·(Yᵢ/m − 1)),   K⁻_n(m) = mean over u of ∏ (1 + u·((1−Yᵢ)/(1−m) − 1))
 *
 * (u spread evenly on (0, 1)) is a non-negative martingale with mean 1 when m is the true mean, so
 * by Ville's inequality each reaches 2/α with probability ≤ α/2 at ANY n: the set of δ neither
 * rejects is an interval that holds the true δ at every n at once with probability ≥ 1 − α. Read
 * it after every pair and stop when it clears 0 (the part matters) or lies inside ±detect (it
 * does not matter by that much): each verdict is wrong with probability ≤ α.
 *
 * At δ = 0 only discordant pairs move it (a concordant pair multiplies by 1), and K⁺(½) is exactly
 * the one-sided mixture `logOneSided(up, up + down, ½, "above")`: the classic sign test on
 * discordant pairs, made sequential. It depends on counts only, so merged shards give the same.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import type { Interval } from "./proportion.js";

/** Paired trials of two arms, per check: `n` pairs with both sides evaluated; `up` passed with and failed without; `down` the reverse. */
export interface PairedCounts {
  readonly n: number;
  readonly up: number;
  readonly down: number;
}

/** What the paired sequence shows about δ: `matters` (clear of 0), `negligible` (inside ±detect), or nothing yet. */
export type PairedVerdict = "matters" | "negligible" | undefined;

const GRID = 64;
const U = Float64Array.from({ length: GRID }, (_, k) => (k + 0.5) / GRID);
const LOG_1MU = U.map((u) => Math.log1p(-u));

/** Refuse counts that cannot be pairs. */
export function requirePairs(fn: string, c: PairedCounts): void {
  const ok = (x: unknown) => Number.isInteger(x) && (x as number) >= 0;
  if (typeof c !== "object" || c === null || !ok(c.n) || !ok(c.up) || !ok(c.down) || c.up + c.down > c.n) {
    throw new InvalidInputError("INVALID_INPUT", `${fn}: pairs must be { n, up, down }, non-negative integers with up + down ≤ n; got ${JSON.stringify(c)}`, { input: "pairs" });
  }
}

function logMeanExp(terms: Float64Array): number {
  let top = -Infinity;
  for (const t of terms) if (t > top) top = t;
  if (top === -Infinity) return -Infinity;
  let sum = 0;
  for (const t of terms) sum += Math.exp(t - top);
  return top + Math.log(sum / terms.length);
}

/**
 * ln K(m) on one side (no validation; hot path). "above" gathers evidence that the mean exceeds m
 * (rejecting m from below), "below" that it falls short. A pair counted `hi` has Y = 1 on the
 * side's own scale, `lo` Y = 0.
 */
export function logPairedBet(c: PairedCounts, m: number, side: "above" | "below"): number {
  const same = c.n - c.up - c.down;
  // On the "below" side the roles flip: Y ↦ 1 − Y and m ↦ 1 − m.
  const hi = side === "above" ? c.up : c.down;
  const lo = side === "above" ? c.down : c.up;
  // δ = ±1 exactly sits on the edge of the bets' range: a hair inside gives the limit.
  const mm = Math.min(1 - 1e-12, Math.max(1e-12, side === "above" ? m : 1 - m));
  const terms = new Float64Array(GRID);
  for (let k = 0; k < GRID; k++) {
    const u = U[k] as number;
    terms[k] = (hi ? hi * Math.log1p(u * (1 / mm - 1)) : 0) + (same ? same * Math.log1p(u * (0.5 / mm - 1)) : 0) + (lo ? lo * (LOG_1MU[k] as number) : 0);
  }
  return logMeanExp(terms);
}

/** Does the (1 − α) paired sequence leave out δ = `delta`? (no validation; hot path) */
export function pairedExcludes(c: PairedCounts, delta: number, alpha: number): boolean {
  const bar = Math.log(2 / alpha);
  const m = (1 + delta) / 2;
  return logPairedBet(c, m, "above") >= bar || logPairedBet(c, m, "below") >= bar;
}

function requireConfidence(fn: string, confidence: number): void {
  if (!(typeof confidence === "number" && confidence > 0 && confidence < 1)) {
    throw new InvalidInputError("INVALID_INPUT", `${fn}: confidence must be within (0, 1), e.g. 0.95; got ${JSON.stringify(confidence)}`, { input: "confidence" });
  }
}

/**
 * The paired sequence's interval for δ after `n` pairs: valid at every n at once, [−1, 1] at n = 0.
 * It always holds the observed (up − down)/n.
 */
export function pairedSequence(c: PairedCounts, confidence = 0.95): Interval {
  requirePairs("pairedSequence", c);
  requireConfidence("pairedSequence", confidence);
  if (c.n === 0) return { low: -1, high: 1 };
  const alpha = 1 - confidence;
  const bar = Math.log(2 / alpha);
  const centre = (c.up - c.down) / c.n;
  // K⁺ falls as δ rises and K⁻ rises: each side's rejected set is one end of [−1, 1].
  const edge = (side: "above" | "below", outside: number) => {
    const out = (d: number) => logPairedBet(c, (1 + d) / 2, side) >= bar;
    if (!out(outside)) return outside;
    let inside = centre;
    let far = outside;
    for (let i = 0; i < 50; i++) {
      const mid = (inside + far) / 2;
      if (out(mid)) far = mid;
      else inside = mid;
    }
    return inside;
  };
  return { low: edge("above", -1), high: edge("below", 1) };
}

/**
 * The stop verdict on δ at error ≤ α: `matters` once the sequence leaves out 0, `negligible`
 * once it lies inside (−detect, detect); undefined while neither holds.
 */
export function pairedVerdict(c: PairedCounts, alpha: number, detect?: number): PairedVerdict {
  requirePairs("pairedVerdict", c);
  requireConfidence("pairedVerdict", 1 - alpha);
  if (detect !== undefined && !(Math.abs(detect) > 0 && Math.abs(detect) <= 1)) {
    throw new InvalidInputError("INVALID_INPUT", `pairedVerdict: detect must be a change in rate within (0, 1], like 0.2; got ${JSON.stringify(detect)}`, { input: "detect" });
  }
  if (c.n === 0) return undefined;
  if (pairedExcludes(c, 0, alpha)) return "matters";
  if (detect !== undefined) {
    const bar = Math.log(2 / alpha);
    const d = Math.abs(detect);
    if (logPairedBet(c, (1 + d) / 2, "below") >= bar && logPairedBet(c, (1 - d) / 2, "above") >= bar) return "negligible";
  }
  return undefined;
}
