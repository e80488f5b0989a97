/**
 * Running declared evals: pick each eval's tier, hand its trials to `measure`, gate the report
 * with measure's thresholds. The tiers themselves (what spawns claude) are passed in, so this
 * module stays free of processes: the CLI wires the harness in.
 */
import { join } from "node:path";
import type { MeasureOptions, TrialContext } from "../measure/measure.js";
import { measure } from "../measure/measure.js";
import { trialRandom } from "../measure/random.js";
import { parseShard } from "../measure/shard.js";
import { evaluateThresholds, type ThresholdVerdict } from "../measure/thresholds.js";
import type { CheckReport } from "../measure/types.js";
import { ConfigError, InvalidInputError, ProctorError } from "../errors/proctor-error.js";
import type { Trace } from "../trace/types.js";
import { isEvalDefinition, type EvalDefinition, type MockSpec, type PerTrial, type RealSpec, type ReplayTierSpec } from "./define.js";

/** One way to turn a spec into a Trace (the mock-model harness, the real API). */
export interface TierRunner<S> {
  /** Run one trial of `definition`. A throw is an errored trial (never a pass). */
  run(spec: S, context: TrialContext, definition: EvalDefinition): Promise<Trace>;
  /** Refuse a malformed spec before any trial runs (a throw is bad input, exit 2). */
  validate?(spec: S, definition: EvalDefinition): void;
  /** Why this tier cannot run here (e.g. no API key), or undefined when it can. */
  unavailable?(): string | undefined;
}

/** The tiers a run can use. */
export interface EvalTiers {
  readonly mock?: TierRunner<MockSpec>;
  readonly replay?: TierRunner<ReplayTierSpec>;
  readonly real?: TierRunner<RealSpec>;
}

export type TierChoice = "auto" | "mock" | "replay" | "real";
export type Tier = "mock" | "replay" | "real" | "run";

/** Options of `runEvals`. */
export interface RunEvalsOptions extends Pick<MeasureOptions, "shard" | "progress" | "signal"> {
  readonly tiers: EvalTiers;
  /** `auto`: the mock tier when an eval has one, else replay, else real, else its run function. @default "auto" */
  readonly tier?: TierChoice;
  /** Override every eval's trial count. */
  readonly trials?: number | undefined;
  /** Override every eval's concurrency. */
  readonly concurrency?: number | undefined;
  /** A cost cap for the whole run, shared by the evals in order. */
  readonly budgetUsd?: number | undefined;
  /** Keep trials' Traces under `dir/<eval>/trial-N.json` (failing ones, or all) for `proctor show`. */
  readonly traces?: { readonly dir: string; readonly keep?: "failing" | "all" };
  /** Called before each eval starts. */
  readonly onEvalStart?: (definition: EvalDefinition, tier: Tier) => void;
}

/** What happened to one eval. */
export interface EvalOutcome {
  readonly definition: EvalDefinition;
  /** `not-run`: filtered out by the tier flag or stopped before it started (budget); see `note`. */
  readonly status: "passed" | "failed" | "skipped" | "incomplete" | "partial" | "not-run";
  readonly tier?: Tier;
  readonly report?: CheckReport;
  /** measure's gate over the report (absent for partial shard reports and evals that did not run). */
  readonly verdict?: ThresholdVerdict;
  readonly note?: string;
}

/** Which tier an eval runs on under `choice`, or why it does not run. */
export function chooseTier(definition: EvalDefinition, choice: TierChoice): Tier | { notRun: string } {
  if (!isEvalDefinition(definition)) throw new InvalidInputError("INVALID_INPUT", "chooseTier(definition, choice) needs an eval definition", { input: "definition", hint: "pass what defineEval returns" });
  const has = (t: Tier) => definition.tiers.includes(t);
  if (has("run")) return "run";
  if (choice === "mock") return has("mock") ? "mock" : { notRun: "it has no mock tier (run with --real)" };
  if (choice === "real") return has("real") ? "real" : { notRun: "it has no real tier (run with --mock)" };
  if (choice === "replay") return has("replay") ? "replay" : { notRun: "it has no replay tier" };
  return has("mock") ? "mock" : has("replay") ? "replay" : "real";
}

const resolveSpec = <S>(spec: PerTrial<S>, context: TrialContext): S => (typeof spec === "function" ? (spec as (c: TrialContext) => S)(context) : spec);

/** Trial 0's context, for validating a per-trial spec before anything runs. */
function previewContext(definition: EvalDefinition): TrialContext {
  return { trial: 0, seed: definition.seed, random: trialRandom(definition.seed, 0) };
}

/**
 * Run every eval in order and gate each report with its thresholds. Bad input (a malformed spec,
 * an unavailable tier such as the real API without a key) is refused before the first trial.
 */
export async function runEvals(definitions: readonly EvalDefinition[], options: RunEvalsOptions): Promise<EvalOutcome[]> {
  const choice = options.tier ?? "auto";
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  if (options.budgetUsd !== undefined && !(options.budgetUsd > 0)) throw new InvalidInputError("INVALID_INPUT", `the budget must be a positive number of dollars; got ${options.budgetUsd}`);

  // Decide every tier and refuse what cannot run before spending anything.
  const plan = definitions.map((definition) => ({ definition, tier: chooseTier(definition, choice) }));
  for (const { definition, tier } of plan) {
    if (typeof tier !== "string" || tier === "run") continue;
    const runner = options.tiers[tier];
    if (!runner) throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(definition.name)} needs the ${tier} tier, which is not available in this run`);
    const why = runner.unavailable?.();
    if (why) {
      const message = `eval ${JSON.stringify(definition.name)} runs on the ${tier} tier, but ${why}`;
      throw tier === "real" ? new ConfigError("NO_API_KEY", message) : new InvalidInputError("INVALID_INPUT", message);
    }
    const spec = definition[tier] as PerTrial<MockSpec & RealSpec & ReplayTierSpec>;
    try {
      runner.validate?.(resolveSpec(spec, previewContext(definition)), definition);
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(definition.name)}: ${(error as Error).message}`, { cause: error });
    }
  }

  const outcomes: EvalOutcome[] = [];
  let spent = 0;
  let budgetReached = false;
  for (const { definition, tier } of plan) {
    if (typeof tier !== "string") {
      outcomes.push({ definition, status: "not-run", note: `not run: ${tier.notRun}` });
      continue;
    }
    const remaining = options.budgetUsd === undefined ? undefined : options.budgetUsd - spent;
    // Once the shared budget stopped an eval (or is gone), later evals don't start: their first trial would pass it.
    if (remaining !== undefined && (remaining <= 0 || budgetReached)) {
      outcomes.push({ definition, tier, status: "not-run", note: `not run: the run's budget of $${options.budgetUsd} was spent by earlier evals` });
      continue;
    }
    options.onEvalStart?.(definition, tier);
    const runner = tier === "run" ? undefined : options.tiers[tier];
    const run =
      tier === "run"
        ? definition.run
        : runner && ((_trial: number, context: TrialContext) => runner.run(resolveSpec(definition[tier] as PerTrial<MockSpec & RealSpec & ReplayTierSpec>, context), context, definition));
    // Checked before the first trial; this only tells the compiler.
    if (!run) throw new ProctorError("INVALID_INPUT", `eval ${JSON.stringify(definition.name)} needs the ${tier} tier, which is not available in this run`);
    const budget = remaining === undefined ? definition.budget : { ...definition.budget, maxUsd: Math.min(remaining, definition.budget?.maxUsd ?? Infinity) };
    const report = await measure({
      name: definition.name,
      run,
      checks: definition.checks,
      trials: options.trials ?? definition.trials,
      concurrency: options.concurrency ?? definition.concurrency ?? 1,
      thresholds: definition.thresholds,
      seed: definition.seed,
      ...(definition.k ? { k: definition.k } : {}),
      ...(definition.confidence !== undefined ? { confidence: definition.confidence } : {}),
      ...(definition.earlyStop !== undefined ? { earlyStop: definition.earlyStop } : {}),
      ...(budget ? { budget } : {}),
      ...(definition.health ? { health: definition.health } : {}),
      ...(shard ? { shard } : {}),
      progress: options.progress ?? "auto",
      ...(options.traces ? { traces: { ...options.traces, dir: tracesDirOf(options.traces.dir, definition.name) } } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    spent += report.usage.costUsd;
    if (remaining !== undefined && report.stopped?.limit === "maxUsd") budgetReached = true;
    if (shard) {
      outcomes.push({ definition, tier, report, status: "partial", note: `shard ${shard.index}/${shard.count}: a partial report — merge the shards (proctor merge), then gate` });
      continue;
    }
    const verdict = evaluateThresholds(report);
    outcomes.push({ definition, tier, report, verdict, status: verdict.status });
  }
  return outcomes;
}

/** Where one eval's kept Traces go: its name as a folder name. */
export function tracesDirOf(dir: string, evalName: string): string {
  return join(dir, evalName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "eval");
}
