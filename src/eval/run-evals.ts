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
import { ablateSpec, compareAblation, componentText, parseComponent, withoutName, type AblatableSpec, type AblationOptions } from "../measure/ablation.js";
import { AblationStopper, DEFAULT_DETECT } from "../measure/ablation-stop.js";
import { partsNamedBy, removedParts, type RemovedParts } from "../measure/ablation-parts.js";
import { evalVerdict } from "../measure/ablation-verdict.js";
import { resolveEarlyStop } from "../measure/stopping.js";
import { uniqueLabels } from "../measure/summarise.js";
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
  /**
   * Also run every eval without this component (`plugin:NAME`, `skill:NAME`, `agent:NAME`,
   * `hook:EVENT`, `mcp:SERVER`) and record the difference; overrides each eval's own `ablate`.
   */
  readonly ablate?: string | undefined;
  /** Alpha, power and planned delta of the ablation comparison. */
  readonly ablation?: AblationOptions;
  /**
   * Early stopping for every eval (`proctor run --early-stop`), as if each had `earlyStop: true`
   * (an eval's own `earlyStop` settings win). An ablated eval then stops on its paired delta.
   */
  readonly earlyStop?: boolean;
  /** The directory an eval's relative paths resolve against (its file's), for reading plugin manifests. */
  readonly baseDir?: (definition: EvalDefinition) => string | undefined;
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
  /** The arm without the ablated component (its report is named `<eval> [without <component>]`; `report.ablation` holds the comparison). */
  readonly without?: CheckReport;
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
      const preview = resolveSpec(spec, previewContext(definition));
      runner.validate?.(preview, definition);
      const component = ablationOf(definition, options);
      if (component) ablateSpec(asAblatable(preview, definition, options), parseComponent(component));
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(definition.name)}: ${(error as Error).message}`, { cause: error });
    }
  }

  if (options.ablate !== undefined) parseComponent(options.ablate);
  if (plan.some((p) => p.tier === "run" && ablationOf(p.definition, options))) {
    const named = plan.find((p) => p.tier === "run" && ablationOf(p.definition, options));
    throw new InvalidInputError("INVALID_INPUT", `eval ${JSON.stringify(named?.definition.name)} produces its trials with run(): there is no spec to remove ${ablationOf(named?.definition as EvalDefinition, options)} from — ablation needs a mock, replay or real tier`);
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
    const component = ablationOf(definition, options);
    // Two arms share the run's remaining budget half and half.
    const share = remaining === undefined ? undefined : component ? remaining / 2 : remaining;
    const budget = share === undefined ? definition.budget : { ...definition.budget, maxUsd: Math.min(share, definition.budget?.maxUsd ?? Infinity) };
    const early = earlyStopOf(definition, options);
    const common = {
      checks: definition.checks,
      trials: options.trials ?? definition.trials,
      thresholds: definition.thresholds,
      seed: definition.seed,
      ...(definition.k ? { k: definition.k } : {}),
      ...(definition.confidence !== undefined ? { confidence: definition.confidence } : {}),
      ...(early !== undefined ? { earlyStop: early } : {}),
      ...(budget ? { budget } : {}),
      ...(definition.health ? { health: definition.health } : {}),
      ...(shard ? { shard } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const concurrency = options.concurrency ?? definition.concurrency ?? 1;
    const limit = component ? (await import("p-limit")).default(concurrency) : undefined;
    // With early stopping, an ablation's arms stop together on the paired delta, not on the gate.
    const stopper = component && runner && tier !== "run" ? ablationStopper(definition, options, common.trials) : undefined;
    // What the component takes away: expected missing in the arm without it (run health reads it so).
    const removed = component && tier !== "run" ? removedFrom(definition, tier, component, options) : undefined;
    const withoutArm =
      component && runner && tier !== "run"
        ? measure({
            // Not gated (it is expected to do worse) and so not stopped early: it runs its trials.
            ...withoutGate(common),
            name: withoutName(definition.name, component),
            // Same seed, same trial indices: a stochastic script makes the same draws in both arms.
            run: (_trial: number, context: TrialContext) =>
              runner.run(
                ablateSpec(asAblatable(resolveSpec(definition[tier] as PerTrial<MockSpec & RealSpec & ReplayTierSpec>, context), definition, options), parseComponent(component)) as MockSpec & RealSpec & ReplayTierSpec,
                context,
                definition,
              ),
            concurrency,
            ...(limit ? { limit } : {}),
            ...(stopper ? { sequential: stopper.arm("without") } : {}),
            ...(removed ? { absent: removed } : {}),
            progress: false,
          })
        : undefined;
    // A without arm that is never awaited must not reject unhandled if the with arm throws first.
    withoutArm?.catch(() => undefined);
    const withReport = await measure({
      ...(stopper ? { ...withoutEarlyStop(common), sequential: stopper.arm("with") } : common),
      ...(limit ? { limit } : {}),
      name: definition.name,
      run,
      concurrency,
      progress: options.progress ?? "auto",
      ...(options.traces ? { traces: { ...options.traces, dir: tracesDirOf(options.traces.dir, definition.name) } } : {}),
    });
    const without = await withoutArm;
    const report = without && component ? { ...withReport, ablation: ablationField(definition, withReport, without, component, removed, stopper, options) } : withReport;
    spent += report.usage.costUsd + (without?.usage.costUsd ?? 0);
    if (remaining !== undefined && (report.stopped?.limit === "maxUsd" || without?.stopped?.limit === "maxUsd")) budgetReached = true;
    if (shard) {
      outcomes.push({ definition, tier, report, ...(without ? { without } : {}), status: "partial", note: `shard ${shard.index}/${shard.count}: a partial report — merge the shards (proctor merge), then gate` });
      continue;
    }
    // An ablated eval is also held to its arm without the part having evidence (ablation-verdict.ts).
    const verdict = without ? evalVerdict(report, without) : evaluateThresholds(report);
    outcomes.push({ definition, tier, report, verdict, status: verdict.status, ...(without ? { without } : {}) });
  }
  return outcomes;
}

/** The report's `ablation` field: the comparison, the parts the component took away (and which checks name them), the early stop. */
function ablationField(definition: EvalDefinition, withReport: CheckReport, without: CheckReport, component: string, removed: RemovedParts | undefined, stopper: AblationStopper | undefined, options: RunEvalsOptions) {
  const info = compareAblation(withReport, without, component, options.ablation);
  const labels = uniqueLabels(definition.checks.map((c) => c.label ?? c.kind));
  const named = new Map(definition.checks.map((c, i) => [labels[i], removed ? partsNamedBy(c, removed) : []]));
  const checks = info.checks.map((c) => {
    const parts = named.get(c.label) ?? [];
    return parts.length ? { ...c, namesRemoved: parts } : c;
  });
  const hasParts = removed && Object.values(removed).some((v) => (v as readonly string[]).length > 0);
  return { ...info, checks, ...(hasParts ? { removed } : {}), ...(stopper ? { earlyStop: stopper.info() } : {}) };
}

/** The parts `component` removes from this eval's spec (as trial 0 resolves it). */
function removedFrom(definition: EvalDefinition, tier: "mock" | "replay" | "real", component: string, options: RunEvalsOptions): RemovedParts {
  const before = asAblatable(resolveSpec(definition[tier] as PerTrial<MockSpec & RealSpec & ReplayTierSpec>, previewContext(definition)), definition, options);
  const parsed = parseComponent(component);
  return removedParts(before, ablateSpec(before, parsed), parsed);
}

function withoutGate<O extends { thresholds?: unknown; earlyStop?: unknown }>(options: O): Omit<O, "thresholds" | "earlyStop"> {
  const { thresholds: _t, earlyStop: _e, ...rest } = options;
  return rest;
}

function withoutEarlyStop<O extends { earlyStop?: unknown }>(options: O): Omit<O, "earlyStop"> {
  const { earlyStop: _e, ...rest } = options;
  return rest;
}

/** The eval's early stop in this run: its own settings, else the run's `earlyStop: true`. */
function earlyStopOf(definition: EvalDefinition, options: RunEvalsOptions): EvalDefinition["earlyStop"] {
  return definition.earlyStop ?? (options.earlyStop ? true : undefined);
}

/**
 * The paired stop of an ablated eval with early stopping on: α is 1 − its earlyStop.confidence when
 * given, else the ablation's alpha; minTrials counts pairs; a check shown inside ±detect
 * (DEFAULT_DETECT unless given) is settled too.
 */
function ablationStopper(definition: EvalDefinition, options: RunEvalsOptions, trials: number): AblationStopper | undefined {
  const option = earlyStopOf(definition, options);
  const early = resolveEarlyStop(option, definition.thresholds);
  if (!early) return undefined;
  const alpha = typeof option === "object" && option.confidence !== undefined ? 1 - option.confidence : (options.ablation?.alpha ?? 0.05);
  const labels = uniqueLabels(definition.checks.map((c) => c.label ?? c.kind));
  // Without --detect, a check the part does not move settles inside the default margin instead of running to the cap.
  const detect = options.ablation?.detect;
  return new AblationStopper(labels, { alpha, minPairs: early.minTrials, cap: trials, detect: detect ?? DEFAULT_DETECT, ...(detect === undefined ? { defaultDetect: true } : {}) });
}

/** The component this eval is ablated by in this run: the run's `ablate`, else the eval's own. */
function ablationOf(definition: EvalDefinition, options: RunEvalsOptions): string | undefined {
  const text = options.ablate ?? definition.ablate;
  return text === undefined ? undefined : componentText(parseComponent(text));
}

/** A resolved tier spec as ablation sees it: a replay given as a bare path has nothing to remove. */
function asAblatable(spec: unknown, definition: EvalDefinition, options: RunEvalsOptions): AblatableSpec {
  const base: AblatableSpec = typeof spec === "string" ? ({ recording: spec } as AblatableSpec) : (spec as AblatableSpec);
  const cwd = base.cwd ?? options.baseDir?.(definition);
  return cwd === undefined ? base : { ...base, cwd };
}

/** Where one eval's kept Traces go: its name as a folder name. */
export function tracesDirOf(dir: string, evalName: string): string {
  return join(dir, evalName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "eval");
}
