/** The standard normal quantile: z for a confidence level. */
import { InvalidInputError } from "../errors/proctor-error.js";

// Acklam's rational approximation: relative error below 1.2e-9 over (0, 1), ample for intervals.
const A = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239] as const;
const B = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1] as const;
const C = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] as const;
const D = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416] as const;

/** Φ⁻¹(p): the z with P(Z ≤ z) = p. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    throw new InvalidInputError("INVALID_INPUT", `normalQuantile: p must be within (0, 1); got ${p}`, { input: "p", hint: "pass a probability strictly between 0 and 1" });
  }
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q) / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1);
  }
  return x;
}

/** The two-sided critical value for a confidence level: 0.95 → 1.959964. */
export function zFor(confidence: number): number {
  if (!(confidence > 0 && confidence < 1)) throw new InvalidInputError("INVALID_INPUT", `confidence must be within (0, 1), e.g. 0.95; got ${confidence}`, { input: "confidence", hint: "pass a level such as 0.95" });
  return normalQuantile(1 - (1 - confidence) / 2);
}
