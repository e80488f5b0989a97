/** Validation of (passes, n) pairs, shared by every estimator so bad counts fail the same way. */

/** Throw a RangeError naming the bad count unless 0 ≤ passes ≤ n are integers. */
export function requireCounts(fn: string, passes: number, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${fn}: n must be a non-negative integer; got ${n}`);
  if (!Number.isInteger(passes) || passes < 0 || passes > n) throw new RangeError(`${fn}: passes must be an integer within 0..n (n = ${n}); got ${passes}`);
}
