/**
 * When to stop scheduling trials: the budget (cost and wall time) and the optional early stop
 * once every gated check is settled.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { verdictAgainst } from "../stats/sequence.js";
import { thresholdFor } from "./thresholds.js";
import type { StopInfo, Thresholds } from "./types.js";

/** Limits on what a measurement may spend. */
export interface Budget {
  /** Stop starting trials once the trials' reported cost reaches this (or the next would likely pass it). */
  readonly maxUsd?: number;
  /** Stop starting trials once this much wall time has passed. */
  readonly maxMs?: number;
}

/**
 * Early stop: skip the remaining trials once every gated check is shown above or below its
 * minimum by an anytime-valid test (a mixture martingale, `verdictAgainst`), which may be read
 * after every trial: the chance that any check's stop verdict is wrong stays ≤ 1 − confidence
 * however many trials are looked at (bench/stopping.mjs, test/stats/sequential.test.ts).
 */
export interface EarlyStop {
  /**
   * Trials evaluated before the first look. Not needed for the error guarantee (that holds from
   * the first trial); it keeps a run from ending before slow-to-show failures had a chance.
   * @default 10
   */
  readonly minTrials?: number;
  /**
   * 1 − the error rate of a stop verdict, per check. The guarantee holds at this level whenever the
   * run stops, so it need not be stricter than the report's.
   * @default the measurement's confidence (0.95)
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
export function resolveEarlyStop(option: boolean | EarlyStop | undefined, thresholds: Thresholds | undefined, reportConfidence = 0.95): Required<EarlyStop> | undefined {
  if (!option) return undefined;
  if (!thresholds) throw new InvalidInputError("INVALID_INPUT", "earlyStop needs thresholds: it stops once every check's interval lies clear of its minimum, so pass thresholds: { min } or { per }");
  const o = option === true ? {} : option;
  const minTrials = o.minTrials ?? 10;
  const confidence = o.confidence ?? reportConfidence;
  if (!Number.isInteger(minTrials) || minTrials < 1) throw new InvalidInputError("INVALID_INPUT", `earlyStop.minTrials must be a positive integer; got ${JSON.stringify(minTrials)}`);
  if (!(confidence > 0 && confidence < 1)) throw new InvalidInputError("INVALID_INPUT", `earlyStop.confidence must be within (0, 1), e.g. 0.99; got ${JSON.stringify(confidence)}`);
  return { minTrials, confidence };
}

/** Every gated check is shown above or below its minimum by the anytime-valid test: stop, with each verdict wrong with probability ≤ α. */
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
    const verdict = verdictAgainst(c.passes, n, t.min, 1 - early.confidence);
    if (!verdict) return undefined;
    settled.push(`${c.label} ${verdict} ${t.min}`);
  }
  if (settled.length === 0) return undefined;
  return {
    reason: "early-stop",
    message: `stopped early after ${n} evaluated trials: every gated check is shown above or below its minimum by an anytime-valid test at ${Math.round(early.confidence * 100)}% (${settled.join("; ")})`,
  };
}
