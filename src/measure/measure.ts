/**
 * `measure`: the scored verdict. Run N trials with bounded concurrency, evaluate the same checks on
 * each Trace with the one evaluator `expect` uses, and report per-check rates with honest
 * intervals. Errored trials are counted and listed, never passes; memory stays flat in N.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LimitFunction } from "p-limit";
import { evaluateChecks, type Check } from "../checks/check.js";
import { isProctorError, InvalidInputError } from "../errors/proctor-error.js";
import type { Trace } from "../trace/types.js";
import { PROCTOR_VERSION } from "../version.js";
import { createProgress, type ProgressOptions } from "./progress.js";
import { trialRandom, type Random } from "./random.js";
import { parseShard, shardTrials } from "./shard.js";
import { budgetStop, earlyStopDecision, resolveEarlyStop, validateBudget, type Budget, type EarlyStop } from "./stopping.js";
import { uniqueLabels } from "./summarise.js";
import { Tally } from "./tally.js";
import { validateThresholds } from "./thresholds.js";
import { openTraceLog, type TraceLog } from "./trace-log.js";
import { REPORT_VERSION, type CheckReport, type ShardSpec, type StopInfo, type Thresholds } from "./types.js";
import { at } from "../util/narrow.js";
import { healthError, validateHealthSwitches, type AbsentParts } from "../health/gate.js";
import type { HealthSwitches } from "../health/run-health.js";
import { healthSummary } from "./health-summary.js";
import type { SequentialStop } from "./ablation-stop.js";

/** What each trial's `run` receives besides its index. */
export interface TrialContext {
  /** The trial index, 0-based over all shards. */
  readonly trial: number;
  /** The measurement's seed, when one was given. */
  readonly seed?: number | string;
  /** A random stream that depends only on (seed, trial): use it for stochastic scripts. */
  readonly random: Random;
  /**
   * What is left of `budget.maxUsd` when this trial starts (undefined without one): pass it on as
   * a per-run cap, e.g. runEval's `maxBudgetUsd`, so one runaway trial cannot spend the rest.
   */
  readonly budgetLeftUsd?: number;
}

/** Options of `measure`. `T` is what `run` produces — a Trace unless the checks say otherwise. */
export interface MeasureOptions<T = Trace> {
  /** Produce one trial's Trace (a harness run, a real-API run, a recorded transcript…). A throw is an errored trial. */
  readonly run: (trial: number, context: TrialContext) => T | Promise<T>;
  readonly checks: readonly Check<T>[];
  /** Trials in the whole eval (all shards together). */
  readonly trials: number;
  /** Trials running at once. @default 1 */
  readonly concurrency?: number;
  /** The k values for pass@k and pass^k. @default [] */
  readonly k?: readonly number[];
  /** Confidence of the intervals. @default 0.95 */
  readonly confidence?: number;
  /** Seed of every trial's `context.random`; recorded in the report. Without one, the streams are unseeded. */
  readonly seed?: number | string;
  /** The gate, recorded in the report (assertRates and the reporters use it) and used by earlyStop. */
  readonly thresholds?: Thresholds;
  readonly earlyStop?: boolean | EarlyStop;
  readonly budget?: Budget;
  /** Run only this slice of the trials: `"2/4"` or { index, count }. */
  readonly shard?: string | ShardSpec | undefined;
  /** Stream every Trace (and every trial error) to this JSONL file as trials finish. */
  readonly keepTraces?: string;
  /**
   * Write trials' Traces as `DIR/trial-N.json` (the failing ones, or all), with the checks as
   * `DIR/checks.json` when they serialise — so a failing trial opens with `proctor show`.
   */
  readonly traces?: { readonly dir: string; readonly keep?: "failing" | "all" };
  /** Progress on stderr: live on a TTY, a line now and then otherwise; false for none. @default "auto" */
  readonly progress?: boolean | "auto" | ProgressOptions;
  /** A name for the report and the progress line. */
  readonly name?: string;
  /** Failing trials kept as examples per check. @default 5 */
  readonly failureExamples?: number;
  /** Share one concurrency limit between measurements (measureArms does). */
  readonly limit?: LimitFunction;
  /** Stop starting trials when aborted; the report says so. */
  readonly signal?: AbortSignal;
  /**
   * Run-health items switched off, each with its reason. Every item is on by default: a trial whose
   * run did not happen as designed (see `RunHealth`) is an errored trial, never a pass.
   * @example { "script-consumed": "the agent may stop early" }
   */
  readonly health?: HealthSwitches;
  /**
   * Parts removed from the run on purpose (an ablation's arm without them): their skills, agents
   * and MCP servers not being loaded is expected there, not unhealthy.
   */
  readonly absent?: AbsentParts;
  /**
   * A stop decided across measurements (an ablation's paired early stop): told every trial's
   * per-check passes (null when it errored), asked before each trial starts.
   */
  readonly sequential?: SequentialStop;
}

function fail(message: string): never {
  throw new InvalidInputError("INVALID_INPUT", `measure: ${message}`);
}

function positiveInt(value: unknown, name: string, example: string): number {
  if (!Number.isInteger(value) || (value as number) < 1) fail(`${name} must be a positive integer (${example}); got ${JSON.stringify(value)}`);
  return value as number;
}

/** A run that cannot run here (no API key): the whole measurement is skipped, not failed and not passed. */
export function isSkipError(error: unknown): boolean {
  return isProctorError(error) && (error.code === "NO_API_KEY" || error.code === "EVAL_SKIPPED");
}

/** Run the trials and return the CheckReport. Rejects only for bad options, never for a bad trial. */
export async function measure<T = Trace>(options: MeasureOptions<T>): Promise<CheckReport> {
  if (typeof options !== "object" || options === null) fail("expected options { run, checks, trials }");
  const { run, checks } = options;
  if (typeof run !== "function") fail("run must be a function (trial, context) => Trace | Promise<Trace>");
  if (!Array.isArray(checks) || checks.length === 0) fail("checks must be a non-empty array of checks: a measurement of nothing asserts nothing");
  checks.forEach((c, i) => {
    if (typeof c?.eval !== "function" || typeof c.toJSON !== "function") fail(`checks[${i}] is not a check (build it with tool(), notTool(), … or defineCheck)`);
  });
  const trials = positiveInt(options.trials, "trials", "e.g. 20");
  const concurrency = positiveInt(options.concurrency ?? 1, "concurrency", "e.g. 4");
  const ks = [...new Set(options.k ?? [])].sort((a, b) => a - b);
  for (const k of ks) positiveInt(k, "every k", "pass@k needs k ≥ 1");
  const confidence = options.confidence ?? 0.95;
  if (!(typeof confidence === "number" && confidence > 0 && confidence < 1)) fail(`confidence must be within (0, 1), e.g. 0.95; got ${JSON.stringify(confidence)}`);
  const maxExamples = options.failureExamples ?? 5;
  if (!Number.isInteger(maxExamples) || maxExamples < 0) fail(`failureExamples must be a non-negative integer; got ${JSON.stringify(maxExamples)}`);
  validateBudget(options.budget);
  validateHealthSwitches(options.health, "measure: health");

  const labels = uniqueLabels(checks.map((c) => c.label ?? c.kind));
  const described = checks.map((c, i) => ({ label: at(labels, i), kind: c.kind, json: c.toJSON() }));
  if (options.thresholds) validateThresholds(options.thresholds, described, "measure: thresholds");
  const early = resolveEarlyStop(options.earlyStop, options.thresholds, confidence);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const { start, end } = shard ? shardTrials(trials, shard) : { start: 0, end: trials };

  const tally = new Tally(start, end, described, maxExamples);
  const progress = createProgress(options.progress ?? "auto");
  const log: TraceLog | undefined = options.keepTraces ? openTraceLog(options.keepTraces) : undefined;
  // The global Web Crypto and performance, not node:crypto and node:perf_hooks: those load at
  // import time (a few ms each for every importer of proctor); the globals load on first use.
  const seedForStreams = options.seed ?? crypto.randomUUID();
  const limit = options.limit ?? (await import("p-limit")).default(concurrency);
  const startedAt = new Date();
  const t0 = performance.now();
  let active = 0;
  let stopped: StopInfo | undefined;
  let skipped: string | undefined;

  const state = () => ({
    name: options.name,
    done: tally.completed + tally.errored,
    total: end - start,
    errored: tally.errored,
    checks: described.map((c, i) => ({ label: c.label, passes: at(tally.passes, i), n: tally.completed })),
    costUsd: tally.costUsd,
    elapsedMs: performance.now() - t0,
    note: options.sequential?.status?.(),
  });

  const mayStart = (): boolean => {
    if (stopped || skipped !== undefined) return false;
    if (options.signal?.aborted) {
      stopped = { reason: "aborted", message: `aborted after ${tally.completed + tally.errored} trials` };
      return false;
    }
    stopped = options.sequential?.stop();
    if (stopped) return false;
    stopped = budgetStop(options.budget, { spentUsd: tally.costUsd, withUsage: tally.usage.trialsWithUsage, active, elapsedMs: performance.now() - t0, ran: tally.completed + tally.errored });
    return !stopped;
  };

  const runTrial = async (trial: number): Promise<void> => {
    if (!mayStart()) return;
    active++;
    let random: Random | undefined;
    const context: TrialContext = {
      trial,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.budget?.maxUsd === undefined ? {} : { budgetLeftUsd: Math.max(0, options.budget.maxUsd - tally.costUsd) }),
      get random() {
        random ??= trialRandom(seedForStreams, trial);
        return random;
      },
    };
    let failure: unknown;
    let target: T | undefined;
    try {
      target = await run(trial, context);
      if (typeof target !== "object" || target === null) {
        failure = new Error(`run(${trial}) returned ${target === null ? "null" : typeof target}; it must return a Trace (or throw)`);
      }
    } catch (error) {
      failure = error;
    }
    if (failure === undefined) {
      // The health gate: a run that did not happen as designed is an errored trial, whatever its checks say.
      const unhealthy = healthError(target, { checks: checks as readonly Check<never>[], ...(options.health ? { switches: options.health } : {}), ...(options.absent ? { absent: options.absent } : {}) });
      if (unhealthy) {
        failure = unhealthy;
        if (options.traces) writeTrialTrace(options.traces.dir, trial, target, checks);
      }
    }
    if (failure === undefined) {
      try {
        const results = await evaluateChecks(target as T, checks);
        tally.record(trial, results, target as never);
        options.sequential?.record(trial, results.map((r) => r.pass));
        if (options.traces && (options.traces.keep === "all" || results.some((r) => !r.pass))) writeTrialTrace(options.traces.dir, trial, target, checks);
      } catch (error) {
        failure = new Error(`evaluating the checks threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    active--;
    if (failure !== undefined && isSkipError(failure)) {
      skipped ??= (failure as Error).message;
      return;
    }
    if (failure !== undefined) {
      tally.recordError(trial, failure, target);
      options.sequential?.record(trial, null);
    }
    if (log) await log.write(failure === undefined ? { trial, trace: target } : { trial, error: at(tally.errors, tally.errors.length - 1).message });
    progress.update(state());
    if (early && !stopped && options.thresholds) {
      stopped = earlyStopDecision(early, options.thresholds, described.map((c, i) => ({ ...c, passes: at(tally.passes, i) })), tally.completed);
    }
  };

  const inflight = new Set<Promise<void>>();
  try {
    for (let trial = start; trial < end; trial++) {
      if (!mayStart()) break;
      const p: Promise<void> = limit(runTrial, trial).finally(() => inflight.delete(p));
      inflight.add(p);
      if (inflight.size >= concurrency) await Promise.race(inflight);
    }
    await Promise.all(inflight);
  } finally {
    await log?.close();
  }

  const finishedAt = new Date();
  const ran = tally.completed + tally.errored;
  const cutShort = stopped !== undefined && ran < end - start;
  // An early stop is a decision the data made; a budget or an abort left the measurement unfinished.
  const incomplete =
    cutShort && stopped && stopped.reason !== "early-stop" ? { reason: stopped.reason as "budget" | "aborted", message: `${ran} of ${end - start} planned trials ran (${stopped.message})` } : undefined;
  const report: CheckReport = {
    version: REPORT_VERSION,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    confidence,
    k: ks,
    trials: tally.trialSummary(trials),
    checks: tally.checkStats(confidence, ks),
    errors: tally.sortedErrors(),
    ...healthSummary(tally.sortedErrors()),
    usage: tally.usageTotals(),
    ...(options.thresholds ? { thresholds: options.thresholds } : {}),
    ...(cutShort && stopped ? { stopped } : {}),
    ...(incomplete ? { incomplete } : {}),
    failureExamples: maxExamples,
    ...(skipped !== undefined ? { skipped: { reason: skipped } } : {}),
    ...(shard ? { shard } : {}),
    metadata: { proctorVersion: PROCTOR_VERSION, agentVersions: [...tally.agentVersions].sort(), models: [...tally.models].sort() },
    timing: { startedAt: startedAt.toISOString(), finishedAt: finishedAt.toISOString(), wallMs: performance.now() - t0, agentMs: tally.agentMs },
  };
  progress.finish(state(), skipped !== undefined ? `skipped: ${skipped}` : report.stopped?.message);
  return report;
}

/**
 * `DIR/trial-N.json`, and once per DIR the checks as JSON. A check that holds a function (`custom`,
 * a custom judge) cannot travel: the others are still written, and the ones left out are named in
 * `DIR/checks.omitted.json` so `proctor show --checks` is known to show fewer than the run judged.
 */
function writeTrialTrace(dir: string, trial: number, trace: unknown, checks: readonly Check<unknown>[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `trial-${trial}.json`), `${JSON.stringify(trace, null, 2)}\n`);
  const checksFile = join(dir, "checks.json");
  if (existsSync(checksFile)) return;
  const travels = (j: ReturnType<Check<unknown>["toJSON"]>) => !("$custom" in j) && j.judge !== "custom";
  const json = checks.map((c) => c.toJSON());
  const omitted = checks.filter((_, i) => !travels(json[i] as ReturnType<Check<unknown>["toJSON"]>));
  writeFileSync(checksFile, `${JSON.stringify(json.filter(travels), null, 2)}\n`);
  if (omitted.length) {
    const why = "holds a function (custom check or custom judge): re-run the eval to judge it";
    writeFileSync(join(dir, "checks.omitted.json"), `${JSON.stringify(omitted.map((c) => ({ label: c.label, kind: c.kind, why })), null, 2)}\n`);
  }
}
