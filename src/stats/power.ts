/**
 * Power analysis for comparing two pass rates with Fisher's exact test: how many trials per arm
 * it takes to see a given difference, and the chance of seeing it with a given number. The exact
 * power sums over every pair of outcomes; the planning formula is Fleiss' continuity-corrected
 * one, which tracks Fisher's exact power closely at the n agent evals run at (tested against it).
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { fisherExact, logFactorial } from "./fisher.js";
import { normalQuantile } from "./normal.js";

function rateArg(fn: string, name: string, v: number): void {
  if (!(typeof v === "number" && v >= 0 && v <= 1)) throw new InvalidInputError("INVALID_INPUT", `${fn}: ${name} must be a rate within 0..1; got ${JSON.stringify(v)}`, { input: name });
}
function levelArg(fn: string, name: string, v: number): void {
  if (!(typeof v === "number" && v > 0 && v < 1)) throw new InvalidInputError("INVALID_INPUT", `${fn}: ${name} must be within (0, 1); got ${JSON.stringify(v)}`, { input: name });
}

function pmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let s = 0; s <= n; s++) {
    if (p === 0 || p === 1) out[s] = (p === 1 ? s === n : s === 0) ? 1 : 0;
    else out[s] = Math.exp(logFactorial(n) - logFactorial(s) - logFactorial(n - s) + s * Math.log(p) + (n - s) * Math.log1p(-p));
  }
  return out;
}

/** The exact chance that Fisher's two-sided test at `alpha` calls two arms of n trials different when their rates are `a` and `b`. O(n²) tests: for n up to a few hundred. */
export function fisherPower(a: number, b: number, n: number, alpha = 0.05): number {
  rateArg("fisherPower", "a", a);
  rateArg("fisherPower", "b", b);
  levelArg("fisherPower", "alpha", alpha);
  if (!Number.isInteger(n) || n < 1) throw new InvalidInputError("INVALID_INPUT", `fisherPower: n must be a positive integer; got ${JSON.stringify(n)}`, { input: "n" });
  const pa = pmf(n, a);
  const pb = pmf(n, b);
  let power = 0;
  for (let x = 0; x <= n; x++) {
    const wx = pa[x] as number;
    if (wx < 1e-12) continue;
    for (let y = 0; y <= n; y++) {
      const w = wx * (pb[y] as number);
      if (w < 1e-14) continue;
      if (fisherExact({ passes: x, n }, { passes: y, n }) <= alpha) power += w;
    }
  }
  return power;
}

/**
 * Trials per arm to detect a change from rate `base` to `base + delta` with Fisher's test at
 * `alpha` (two-sided) with probability `power` — Fleiss' formula with the continuity correction.
 * Undefined when delta is 0 or leaves [0, 1]: no number of trials sees a difference of nothing.
 */
export function trialsPerArm(base: number, delta: number, options: { alpha?: number; power?: number } = {}): number | undefined {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  rateArg("trialsPerArm", "base", base);
  levelArg("trialsPerArm", "alpha", alpha);
  levelArg("trialsPerArm", "power", power);
  if (typeof delta !== "number" || !Number.isFinite(delta)) throw new InvalidInputError("INVALID_INPUT", `trialsPerArm: delta must be a number (the change in rate, e.g. -0.2); got ${JSON.stringify(delta)}`, { input: "delta" });
  const other = base + delta;
  if (delta === 0 || other < 0 || other > 1) return undefined;
  const d = Math.abs(delta);
  const mean = (base + other) / 2;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  const root = za * Math.sqrt(2 * mean * (1 - mean)) + zb * Math.sqrt(base * (1 - base) + other * (1 - other));
  const plain = (root * root) / (d * d);
  return Math.ceil((plain / 4) * (1 + Math.sqrt(1 + 4 / (plain * d))) ** 2);
}

/** The smallest change from `base` (either way, the harder direction) that n trials per arm detect with probability `power`. */
export function detectableDelta(base: number, n: number, options: { alpha?: number; power?: number } = {}): number | undefined {
  rateArg("detectableDelta", "base", base);
  if (!Number.isInteger(n) || n < 1) throw new InvalidInputError("INVALID_INPUT", `detectableDelta: n must be a positive integer; got ${JSON.stringify(n)}`, { input: "n" });
  const need = (d: number) => {
    const up = base + d <= 1 ? trialsPerArm(base, d, options) : undefined;
    const down = base - d >= 0 ? trialsPerArm(base, -d, options) : undefined;
    if (up === undefined) return down ?? Infinity;
    if (down === undefined) return up;
    return Math.max(up, down);
  };
  if (need(Math.max(base, 1 - base)) > n) return undefined;
  let lo = 0;
  let hi = Math.max(base, 1 - base);
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (need(mid) <= n) hi = mid;
    else lo = mid;
  }
  return hi;
}
