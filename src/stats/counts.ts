/** Validation of (passes, n) pairs, shared by every estimator so bad counts fail the same way. */
import { InvalidInputError } from "../errors/proctor-error.js";

/** Throw an InvalidInputError naming the bad count unless 0 ≤ passes ≤ n are integers. */
export function requireCounts(fn: string, passes: number, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new InvalidInputError("INVALID_INPUT", `${fn}: n must be a non-negative integer; got ${n}`, { input: "n", hint: "pass the number of trials" });
  if (!Number.isInteger(passes) || passes < 0 || passes > n) throw new InvalidInputError("INVALID_INPUT", `${fn}: passes must be an integer within 0..n (n = ${n}); got ${passes}`, { input: "passes", hint: "pass how many of the n trials passed" });
}
