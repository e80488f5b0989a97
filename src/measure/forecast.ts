/**
 * The cost forecast: before a run, how many trials an eval's decision is likely to take, and what
 * they cost. proctor keeps no price table of its own: the claude CLI prices each run from its own
 * (`total_cost_usd` on the result line), so a forecast prices trials from a measured report (a
 * baseline's cost per trial) and, without one, bounds them by the per-run cap.
 */
import { requireArray, requireObject } from "../errors/arguments.js";
import { logFactorial } from "../stats/fisher.js";
import { sequenceRule, stoppingCurve } from "../stats/sequential-design.js";
import type { EarlyStop } from "./stopping.js";
import { thresholdFor } from "./thresholds.js";
import type { CheckReport, Thresholds } from "./types.js";

/** One gated check's outlook. */
export interface CheckForecast {
  readonly label: string;
  readonly min: number;
  /** The rate assumed: the baseline's, else `assumedRate` (1 for a deterministic check: its trials if it passes). */
  readonly rate: number;
  /** `deterministic`: every trial gives the first one's verdict (a scripted mock run), so the rate is 0 or 1. */
  readonly rateSource: "baseline" | "assumed" | "deterministic";
  /** Expected trials until this check's verdict (all planned trials without early stop). */
  readonly expectedTrials: number;
  /** A deterministic check's trials if it fails on every trial (expectedTrials is if it passes). */
  readonly expectedTrialsIfFails?: number;
  /** The chance the check passes its gate (by rate) at the planned trials, at the assumed rate (for a deterministic check: 1, if its first trial passes). */
  readonly passChance: number;
}

/** One eval's outlook. */
export interface EvalForecast {
  readonly name: string;
  readonly plannedTrials: number;
  /** Arms measured (2 with an ablation). */
  readonly arms: number;
  /** Expected trials per arm: the slowest gated check's, capped at the plan (a lower bound: checks decide together). */
  readonly expectedTrials: number;
  readonly checks: readonly CheckForecast[];
  /** Dollars per trial and where the figure comes from; absent for the free tiers. */
  readonly perTrialUsd?: { readonly usd: number; readonly source: "baseline" | "cap" };
  /** expectedTrials × arms × perTrialUsd (an upper bound when the source is the cap). */
  readonly expectedUsd?: number;
}

/** What `forecastEval` takes. */
export interface ForecastInput {
  readonly name: string;
  readonly trials: number;
  readonly checks: readonly { readonly label: string; readonly kind: string }[];
  readonly thresholds: Thresholds;
  readonly earlyStop?: Required<EarlyStop>;
  /** A measured report of this eval (a baseline's) for rates and cost per trial. */
  readonly previous?: CheckReport;
  /** The rate assumed for checks the previous report does not have. @default 0.9 */
  readonly assumedRate?: number;
  /**
   * Kinds of check whose verdict is the same on every trial (every check of a scripted mock eval
   * that asks no model): forecast at rate 1, their trials if they pass; the first trial shows which.
   */
  readonly deterministicKinds?: (kind: string) => boolean;
  /** The tier: mock and replay cost nothing. */
  readonly tier: string;
  /** The per-run cost cap of a real trial (runEval's maxBudgetUsd). @default 1 */
  readonly capUsd?: number;
  readonly arms?: number;
}

/** P(Binomial(n, p) ≥ k). */
function atLeast(n: number, p: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  let sum = 0;
  for (let s = k; s <= n; s++) sum += Math.exp(logFactorial(n) - logFactorial(s) - logFactorial(n - s) + s * Math.log(p) + (n - s) * Math.log1p(-p));
  return Math.min(1, sum);
}

/** The forecast of one eval: exact expected trials under the anytime-valid early stop, the chance each check passes, and the dollars. */
export function forecastEval(input: ForecastInput): EvalForecast {
  requireObject("forecastEval", "input", input, "{ name, trials, checks, thresholds, tier }");
  requireArray("forecastEval", "input.checks", input.checks, "the eval's checks ({ label, kind })");
  const arms = input.arms ?? 1;
  const previous = new Map(input.previous?.checks.map((c) => [c.label, c]));
  const checks: CheckForecast[] = input.checks.flatMap((c) => {
    const t = thresholdFor(input.thresholds, c);
    if (!t) return [];
    const known = previous.get(c.label);
    const deterministic = known?.rate == null && input.deterministicKinds?.(c.kind) === true;
    const rate = known?.rate ?? (deterministic ? 1 : (input.assumedRate ?? 0.9));
    const early = input.earlyStop;
    const trialsAt = (p: number) => (early ? stoppingCurve(sequenceRule(t.min, 1 - early.confidence, early.minTrials), p, input.trials).expectedTrials : input.trials);
    const expectedTrials = trialsAt(rate);
    return [
      {
        label: c.label,
        min: t.min,
        rate,
        rateSource: known?.rate != null ? "baseline" : deterministic ? "deterministic" : "assumed",
        expectedTrials,
        ...(deterministic ? { expectedTrialsIfFails: trialsAt(0) } : {}),
        passChance: atLeast(input.trials, rate, Math.ceil(t.min * input.trials - 1e-9)),
      },
    ];
  });
  const expectedTrials = checks.length === 0 ? input.trials : Math.max(...checks.map((c) => c.expectedTrials));
  if (input.tier === "mock" || input.tier === "replay") return { name: input.name, plannedTrials: input.trials, arms, expectedTrials, checks };
  const used = input.previous?.usage.trialsWithUsage ?? 0;
  const measured = used > 0 && input.previous ? { usd: input.previous.usage.costUsd / used, source: "baseline" as const } : undefined;
  // A run() eval produces its own traces (recorded transcripts, another agent): priced only when measured.
  const perTrialUsd = measured ?? (input.tier === "real" ? { usd: input.capUsd ?? 1, source: "cap" as const } : undefined);
  if (!perTrialUsd) return { name: input.name, plannedTrials: input.trials, arms, expectedTrials, checks };
  return { name: input.name, plannedTrials: input.trials, arms, expectedTrials, checks, perTrialUsd, expectedUsd: expectedTrials * arms * perTrialUsd.usd };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The forecast as lines for `proctor run --forecast`. */
export function renderForecast(forecasts: readonly EvalForecast[]): string {
  requireArray("renderForecast", "forecasts", forecasts, "what forecastEval returned, one per eval");
  for (const [i, f] of forecasts.entries()) requireObject("renderForecast", `forecasts[${i}]`, f, "a forecast from forecastEval");
  const lines: string[] = [];
  let usd = 0;
  let bounded = false;
  for (const f of forecasts) {
    const money = f.expectedUsd === undefined ? "no model cost known" : `${f.perTrialUsd?.source === "cap" ? "≤ " : "≈ "}$${f.expectedUsd.toFixed(2)} (${f.perTrialUsd?.source === "cap" ? `at most $${f.perTrialUsd.usd.toFixed(2)} a trial: the per-run cap; no measured cost yet` : `$${f.perTrialUsd?.usd.toFixed(4)} a trial, measured`})`;
    const arms = f.arms > 1 ? ` × ${f.arms} arms` : "";
    lines.push(`${f.name}: ~${Math.round(f.expectedTrials)} of ${f.plannedTrials} trials${arms} · ${money}`);
    for (const c of f.checks) {
      if (c.rateSource === "deterministic") lines.push(`    ${c.label}: deterministic (a scripted mock run: every trial gives the first one's verdict) vs minimum ${pct(c.min)} → ~${Math.round(c.expectedTrials)} trials if it passes, ~${Math.round(c.expectedTrialsIfFails ?? c.expectedTrials)} if it fails: it passes its gate always or never, and the first trial shows which`);
      else lines.push(`    ${c.label}: rate ${pct(c.rate)} (${c.rateSource}) vs minimum ${pct(c.min)} → ~${Math.round(c.expectedTrials)} trials, passes its gate with chance ${pct(c.passChance)}`);
    }
    if (f.expectedUsd !== undefined) usd += f.expectedUsd;
    if (f.perTrialUsd?.source === "cap") bounded = true;
  }
  lines.push(`forecast: ${forecasts.length} eval${forecasts.length === 1 ? "" : "s"} · ${usd === 0 ? "$0" : `${bounded ? "≤" : "≈"} $${usd.toFixed(2)}`}`);
  return `${lines.join("\n")}\n`;
}
