/**
 * When to stop scheduling trials: the budget (cost and wall time) and the optional early stop
 * once every gated check is settled.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { wilsonInterval } from "../stats/proportion.js";
import { thresholdFor } from "./thresholds.js";
import type { StopInfo, Thresholds } from "./types.js";

/** Limits on what a measurement may spend. */
export interface Budget {
  /** Stop starting trials once the trials' reported cost reaches this (or the next would likely pass it). */
  readonly maxUsd?: number;
  /** Stop starting trials once this much wall time has passed. */
  readonly maxMs?: number;
}

/** Early stop: skip the remaining trials once every gated check's interval clears its minimum. */
export interface EarlyStop {
  /**
   * Trials evaluated before the first look. Every look is a chance to stop on noise; a floor keeps
   * the first few trials from deciding.
   * @default 10
   */
  readonly minTrials?: number;
  /**
   * Confidence of the stopping interval. Higher than the report's, because stopping looks at the
   * data after every trial (repeated looks inflate the error rate of any single-look interval).
   * @default 0.99
   */
  readonly confidence?: number;
}

const usd = (x: number) => `$${x.toFixed(4)}`;

/** Refuse budgets that cannot mean anything. */
export function validateBudget(budget: Budget | undefined): void {
  if (budget === undefined) return;
  for (const key of ["maxUsd", "maxMs"] as const) {
    const v = budget[key];
    if (v !== undefined && !(typeof v === "number" && v > 0)) throw new InvalidInputError("INVALID_INPUT", `budget.${key} must be a positive number; got ${JSON.stringify(v)}`);
  }
}

/**
 * Should the next trial start? `active` trials are running; `spentUsd` came from `withUsage`
 * finished trials. The cost guard projects: with a mean cost m per trial, it won't start a trial
 * when spent + (active + 1)·m would pass maxUsd — so in-flight trials don't blow through the cap.
 */
export function budgetStop(budget: Budget | undefined, state: { spentUsd: number; withUsage: number; active: number; elapsedMs: number; ran: number }): StopInfo | undefined {
  if (!budget) return undefined;
  if (budget.maxMs !== undefined && state.elapsedMs >= budget.maxMs) {
    return { reason: "budget", limit: "maxMs", message: `time budget ${budget.maxMs} ms reached after ${state.ran} trials (${Math.round(state.elapsedMs)} ms elapsed)` };
  }
  if (budget.maxUsd !== undefined) {
    if (state.spentUsd >= budget.maxUsd) {
      return { reason: "budget", limit: "maxUsd", message: `cost budget ${usd(budget.maxUsd)} reached after ${state.ran} trials (spent ${usd(state.spentUsd)})` };
    }
    if (state.withUsage > 0) {
      const mean = state.spentUsd / state.withUsage;
      const projected = state.spentUsd + (state.active + 1) * mean;
      if (projected > budget.maxUsd) {
        return {
          reason: "budget",
          limit: "maxUsd",
          message: `cost budget ${usd(budget.maxUsd)} would be passed: spent ${usd(state.spentUsd)} after ${state.ran} trials at ${usd(mean)} a trial, ${state.active} still running`,
        };
      }
    }
  }
  return undefined;
}

/** Normalise the earlyStop option (true → defaults), refusing it without thresholds to stop against. */
export function resolveEarlyStop(option: boolean | EarlyStop | undefined, thresholds: Thresholds | undefined): Required<EarlyStop> | undefined {
  if (!option) return undefined;
  if (!thresholds) throw new InvalidInputError("INVALID_INPUT", "earlyStop needs thresholds: it stops once every check's interval lies clear of its minimum, so pass thresholds: { min } or { per }");
  const o = option === true ? {} : option;
  const minTrials = o.minTrials ?? 10;
  const confidence = o.confidence ?? 0.99;
  if (!Number.isInteger(minTrials) || minTrials < 1) throw new InvalidInputError("INVALID_INPUT", `earlyStop.minTrials must be a positive integer; got ${JSON.stringify(minTrials)}`);
  if (!(confidence > 0 && confidence < 1)) throw new InvalidInputError("INVALID_INPUT", `earlyStop.confidence must be within (0, 1), e.g. 0.99; got ${JSON.stringify(confidence)}`);
  return { minTrials, confidence };
}

/** Every gated check's interval lies entirely above or below its minimum: more trials cannot change a verdict. */
export function earlyStopDecision(
  early: Required<EarlyStop>,
  thresholds: Thresholds,
  checks: readonly { label: string; kind: string; passes: number }[],
  n: number,
): StopInfo | undefined {
  if (n < early.minTrials) return undefined;
  const settled: string[] = [];
  for (const c of checks) {
    const t = thresholdFor(thresholds, c);
    if (!t) continue;
    const { low, high } = wilsonInterval(c.passes, n, early.confidence);
    if (low >= t.min) settled.push(`${c.label} above ${t.min}`);
    else if (high < t.min) settled.push(`${c.label} below ${t.min}`);
    else return undefined;
  }
  if (settled.length === 0) return undefined;
  return {
    reason: "early-stop",
    message: `stopped early after ${n} evaluated trials: every gated check's ${Math.round(early.confidence * 100)}% interval lies clear of its minimum (${settled.join("; ")})`,
  };
}
