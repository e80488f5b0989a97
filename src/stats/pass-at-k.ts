/**
 * pass@k and pass^k from n trials with c passes — the unbiased estimators (Chen et al. 2021 for
 * pass@k): the chance that k trials drawn without replacement from the n observed contain at least
 * one pass (pass@k) or only passes (pass^k). Both need k ≤ n; otherwise they return null, since n
 * trials cannot say anything about a draw of k > n.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { requireCounts } from "./counts.js";

function requireK(fn: string, k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new InvalidInputError("INVALID_INPUT", `${fn}: k must be a positive integer; got ${k}`, { input: "k", hint: "pass k ≥ 1, the number of draws" });
}

/** 1 − C(n−c, k)/C(n, k): would at least one of k attempts pass? (null when k > n) */
export function passAtK(n: number, c: number, k: number): number | null {
  requireCounts("passAtK", c, n);
  requireK("passAtK", k);
  if (k > n) return null;
  if (n - c < k) return 1;
  // C(n−c,k)/C(n,k) = ∏_{i=n−c+1}^{n} (1 − k/i): a product of terms in (0, 1], no overflow.
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/** C(c, k)/C(n, k): would all k attempts pass? — the reliability view (null when k > n). */
export function passHatK(n: number, c: number, k: number): number | null {
  requireCounts("passHatK", c, n);
  requireK("passHatK", k);
  if (k > n) return null;
  if (c < k) return 0;
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}
