/**
 * `proctor run --forecast`: before spending anything, each eval's expected trials (under its early
 * stop, computed exactly) and dollars — rates and cost per trial from `--baseline` when given.
 * Runs nothing.
 */
import type { EvalDefinition } from "../../src/eval/define.js";
import { chooseTier, type TierChoice } from "../../src/eval/run-evals.js";
import { forecastEval, renderForecast } from "../../src/measure/forecast.js";
import { resolveEarlyStop } from "../../src/measure/stopping.js";
import { uniqueLabels } from "../../src/measure/summarise.js";
import type { Baseline } from "../../reporters/baseline/format.js";

export interface ForecastRunOptions {
  readonly definitions: readonly EvalDefinition[];
  readonly tier: TierChoice;
  readonly trials: number | undefined;
  readonly baseline: Baseline | undefined;
  readonly ablate: string | undefined;
  /** `--early-stop`: every eval as if it had `earlyStop: true` (its own settings win). */
  readonly earlyStop?: boolean;
}

/** Does the eval run one fixed spec on a tier that replays it the same way every trial (a scripted mock, a recording)? */
function fixedSpec(d: EvalDefinition, tier: string): boolean {
  const spec = tier === "mock" ? d.mock : tier === "replay" ? d.replay : undefined;
  return spec !== undefined && typeof spec !== "function";
}

/** The forecast text for these evals. */
export function forecastRun(options: ForecastRunOptions): string {
  const forecasts = options.definitions.flatMap((d) => {
    const tier = chooseTier(d, options.tier);
    if (typeof tier !== "string") return [];
    const labels = uniqueLabels(d.checks.map((c) => c.label ?? c.kind));
    const ablated = (options.ablate ?? d.ablate) !== undefined;
    // An ablated eval stops on its paired delta, not on the gate: forecast its full trials (an upper bound).
    const early = ablated ? undefined : resolveEarlyStop(d.earlyStop ?? (options.earlyStop ? true : undefined), d.thresholds, d.confidence ?? 0.95);
    const real = typeof d.real === "object" ? d.real : undefined;
    const previous = options.baseline?.evals[d.name];
    return [
      forecastEval({
        name: d.name,
        trials: options.trials ?? d.trials,
        checks: d.checks.map((c, i) => ({ label: labels[i] as string, kind: c.kind })),
        thresholds: d.thresholds,
        ...(early ? { earlyStop: early } : {}),
        ...(previous ? { previous } : {}),
        tier,
        // A fixed script on the mock (or a replayed recording) is the same run every trial: only a
        // model-graded check varies. A spec built per trial (`mock: ({ random }) => …`) may vary.
        ...(fixedSpec(d, tier) ? { deterministicKinds: (kind: string) => kind !== "judged" } : {}),
        ...(real?.maxBudgetUsd !== undefined ? { capUsd: real.maxBudgetUsd } : {}),
        arms: ablated ? 2 : 1,
      }),
    ];
  });
  const assumed = forecasts.some((f) => f.checks.some((c) => c.rateSource === "assumed"));
  return `${renderForecast(forecasts)}${assumed ? "(rates without a baseline are assumed at 90%; pass --baseline FILE for measured rates and costs)\n" : ""}`;
}
