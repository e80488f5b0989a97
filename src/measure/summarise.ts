/**
 * From counts to statistics — the one place a CheckStats is computed, used by `measure` and by
 * `mergeReports`, so a merged report's numbers are the numbers an unsharded run would print.
 */
import type { CheckJSON } from "../checks/check.js";
import { passAtK, passHatK } from "../stats/pass-at-k.js";
import { rate, standardError, wilsonInterval } from "../stats/proportion.js";
import type { CheckStats, TrialFailure, UsageTotals } from "./types.js";
import { at } from "../util/narrow.js";

/** Scores and costs are summed as integers (1e-9 units) so the total never depends on the order. */
export const UNITS = 1e9;

/** The counts a CheckStats is computed from. */
export interface CheckCounts {
  readonly label: string;
  readonly kind: string;
  readonly check: CheckJSON;
  readonly n: number;
  readonly passes: number;
  /** Σ round(score × 1e9). */
  readonly scoreUnits: number;
  readonly outcomes: string;
  readonly failures: readonly TrialFailure[];
}

/** Compute every statistic of one check from its counts. */
export function summariseCheck(counts: CheckCounts, confidence: number, ks: readonly number[]): CheckStats {
  const { n, passes } = counts;
  return {
    label: counts.label,
    kind: counts.kind,
    check: counts.check,
    n,
    passes,
    rate: rate(passes, n),
    se: standardError(passes, n),
    interval: wilsonInterval(passes, n, confidence),
    passAtK: Object.fromEntries(ks.map((k) => [String(k), passAtK(n, passes, k)])),
    passHatK: Object.fromEntries(ks.map((k) => [String(k), passHatK(n, passes, k)])),
    scoreSum: counts.scoreUnits / UNITS,
    meanScore: n === 0 ? null : counts.scoreUnits / UNITS / n,
    flaky: passes > 0 && passes < n,
    outcomes: counts.outcomes,
    failures: counts.failures,
  };
}

/** Usage totals held as integers (cost in 1e-9 USD) until the report is written. */
export interface UsageCounts {
  costUnits: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  trialsWithUsage: number;
}

/** An empty usage tally. */
export function emptyUsage(): UsageCounts {
  return { costUnits: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, trialsWithUsage: 0 };
}

/** The report form of a usage tally. */
export function summariseUsage(u: UsageCounts): UsageTotals {
  return {
    costUsd: u.costUnits / UNITS,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    cacheCreationTokens: u.cacheCreationTokens,
    cacheReadTokens: u.cacheReadTokens,
    trialsWithUsage: u.trialsWithUsage,
  };
}

/** Insert into a list kept sorted by trial and cut to `max`: the examples never depend on completion order. */
export function keepLowest(list: TrialFailure[], item: TrialFailure, max: number): void {
  if (max <= 0) return; // no examples wanted (and no last one to compare with)
  const last = list.at(-1);
  if (list.length >= max && last && item.trial > last.trial) return;
  let i = list.length;
  while (i > 0 && at(list, i - 1).trial > item.trial) i--;
  list.splice(i, 0, item);
  if (list.length > max) list.pop();
}

/** Give duplicate labels a ` #2`, ` #3` suffix so every check has its own name in the report. */
export function uniqueLabels(labels: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(labels);
  return labels.map((label) => {
    const count = (seen.get(label) ?? 0) + 1;
    seen.set(label, count);
    if (count === 1) return label;
    let suffix = count;
    while (taken.has(`${label} #${suffix}`)) suffix++;
    const unique = `${label} #${suffix}`;
    taken.add(unique);
    return unique;
  });
}
