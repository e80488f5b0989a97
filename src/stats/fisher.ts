/**
 * Fisher's exact test for two proportions (a 2×2 table), two-sided. Chosen over the two-proportion
 * z test because agent evals run at small n where the z test's normal approximation is wrong:
 * 0/10 vs 3/10 has expected cell counts of 1.5, and the z test's p-value there is far too small.
 * Fisher's test conditions on the margins and sums exact hypergeometric probabilities, so its
 * false-alarm rate never exceeds alpha at any n (it is conservative — the honest direction for a
 * gate that fails builds).
 */
import { requireCounts } from "./counts.js";

const TABLE = new Float64Array(1025);
for (let i = 2, sum = 0; i < TABLE.length; i++) TABLE[i] = sum += Math.log(i);

/** ln(n!) — a table to 1024, Stirling's series beyond (error below 1e-14 there). */
export function logFactorial(n: number): number {
  if (n < TABLE.length) return TABLE[n] ?? NaN; // a non-integer n has no entry
  const inv = 1 / n;
  const inv2 = inv * inv;
  return n * Math.log(n) - n + 0.5 * Math.log(2 * Math.PI * n) + inv * (1 / 12 - inv2 * (1 / 360 - inv2 / 1260));
}

/** A count of passes out of n. */
export interface Counts {
  readonly passes: number;
  readonly n: number;
}

/** Two-sided p-value of Fisher's exact test that `a` and `b` share one pass rate. 1 when either n is 0. */
export function fisherExact(a: Counts, b: Counts): number {
  requireCounts("fisherExact (first)", a?.passes as number, a?.n as number);
  requireCounts("fisherExact (second)", b?.passes as number, b?.n as number);
  if (a.n === 0 || b.n === 0) return 1;
  const total = a.n + b.n;
  const passes = a.passes + b.passes;
  const base = logFactorial(a.n) + logFactorial(b.n) + logFactorial(passes) + logFactorial(total - passes) - logFactorial(total);
  // P(the first group has x passes | margins): hypergeometric.
  const logP = (x: number) => base - logFactorial(x) - logFactorial(a.n - x) - logFactorial(passes - x) - logFactorial(b.n - passes + x);
  const observed = logP(a.passes);
  // Sum every table at most as likely as the observed one; the relative tolerance keeps ties that
  // differ only by rounding (R's fisher.test uses the same 1e-7).
  const cutoff = observed + Math.log1p(1e-7);
  let p = 0;
  for (let x = Math.max(0, passes - b.n); x <= Math.min(passes, a.n); x++) {
    const lp = logP(x);
    if (lp <= cutoff) p += Math.exp(lp);
  }
  return Math.min(1, p);
}
