/**
 * defineEval: an eval declared as data — what to run (the mock-model harness, the real API, or
 * any trial function), the checks, how many trials and the gate. Declaring runs nothing, so an
 * eval file can be imported, listed and exported (to promptfoo) without spending a cent.
 */
import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClaudeRunSpec, ReplayRunSpec, RunEvalSpec } from "./spec-types.js";
import type { Check } from "../checks/check.js";
import { InvalidInputError } from "../errors/proctor-error.js";
import type { TrialContext } from "../measure/measure.js";
import type { Budget, EarlyStop } from "../measure/stopping.js";
import { uniqueLabels } from "../measure/summarise.js";
import { parseComponent } from "../measure/ablation.js";
import { validateThresholds } from "../measure/thresholds.js";
import type { Thresholds } from "../measure/types.js";
import type { Trace } from "../trace/types.js";
import { at } from "../util/narrow.js";
import { validateHealthSwitches } from "../health/gate.js";
import type { HealthSwitches } from "../health/run-health.js";

/** The mock tier: a runHarness spec (prompt + script + …), or one chosen per trial (a stochastic script from `context.random`). */
export type MockSpec = Omit<ClaudeRunSpec, "signal">;
/** The real-API tier: a runEval spec (a harness spec without the script, plus apiKey, baseUrl, maxBudgetUsd) — the real model answers. */
export type RealSpec = Omit<RunEvalSpec, "signal">;

/**
 * The replay tier: a recording replayed on the real binary with the mock saying what the recorded
 * model said (`runReplay`). A string is the recording's path, relative to the eval file.
 */
export type ReplayTierSpec = string | Omit<ReplayRunSpec, "signal">;

/** A spec, or a function of the trial that returns one. */
export type PerTrial<S> = S | ((context: TrialContext) => S);

/** What `defineEval` takes. Give `mock`, `real` (or both), or `run`. */
export interface EvalSpec {
  /** Unique within a run; names the report, the JUnit suite and the baseline entry. */
  readonly name: string;
  readonly description?: string;
  /** Run each trial through the real claude binary against the scripted mock model (offline, free). */
  readonly mock?: PerTrial<MockSpec>;
  /** Replay a recorded run on the real claude binary (offline, free): today's hooks and plugins against yesterday's model turns. */
  readonly replay?: PerTrial<ReplayTierSpec>;
  /** Run each trial through the real claude binary against the real API (needs ANTHROPIC_API_KEY; costs money). */
  readonly real?: PerTrial<RealSpec>;
  /** Or produce each trial's Trace yourself (recorded transcripts, another agent, …). */
  readonly run?: (trial: number, context: TrialContext) => Trace | Promise<Trace>;
  readonly checks: readonly Check<Trace>[];
  /** @default 10 */
  readonly trials?: number;
  /**
   * The gate. @default { min: 1 } — like `expect`: every check holds in every trial. Lower it for
   * behaviour that is allowed to vary: `{ min: 0.8, per: { "notTool(Bash)": 1 } }`.
   */
  readonly thresholds?: Thresholds;
  /** Trials running at once (the CLI's --concurrency wins). @default 1 */
  readonly concurrency?: number;
  /** pass@k / pass^k for these k. */
  readonly k?: readonly number[];
  /** @default 0.95 */
  readonly confidence?: number;
  /** Seed of each trial's `context.random`. @default the eval's name (so runs and shards repeat exactly) */
  readonly seed?: number | string;
  readonly earlyStop?: boolean | EarlyStop;
  readonly budget?: Budget;
  /**
   * Run-health items switched off for every trial of this eval, each with its reason (a missing or
   * empty reason is refused). Every item is on by default; see the README's "Run health".
   * @example { "script-consumed": "the agent may stop once the tests pass" }
   */
  readonly health?: HealthSwitches;
  /**
   * Also run the eval without this part of its setup — `plugin:NAME`, `skill:NAME`, `agent:NAME`,
   * `hook:EVENT` or `mcp:SERVER` — and report what it is worth per check (the change in rate, its
   * interval, Fisher's p, trials per arm to see it). `proctor run --ablate` overrides it.
   */
  readonly ablate?: string;
}

/** A declared eval: the spec, frozen, with its defaults filled in. */
export interface EvalDefinition extends EvalSpec {
  readonly trials: number;
  readonly thresholds: Thresholds;
  readonly seed: number | string;
  /** The tiers this eval can run on. */
  readonly tiers: readonly ("mock" | "replay" | "real" | "run")[];
}

const BRAND = Symbol.for("proctor.eval");
const FIELDS = new Set(["name", "description", "mock", "replay", "real", "run", "checks", "trials", "thresholds", "concurrency", "k", "confidence", "seed", "earlyStop", "budget", "health", "ablate"]);

/** True for a value made by `defineEval` (from any copy of proctor). */
export function isEvalDefinition(value: unknown): value is EvalDefinition {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

function bad(name: string, field: string, problem: string, ...given: [] | [value: unknown]): never {
  const value = given[0];
  const got = given.length > 0 ? `; got ${value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value)).slice(0, 80)}` : "";
  throw new InvalidInputError("INVALID_INPUT", `defineEval(${JSON.stringify(name)}): ${field} ${problem}${got}`);
}

const isSpecLike = (v: unknown) => typeof v === "function" || (typeof v === "object" && v !== null && !Array.isArray(v));

/** Declare an eval. Validates everything that can be checked without running (bad input fails here, naming the field). */
export function defineEval(spec: EvalSpec): EvalDefinition {
  if (typeof spec !== "object" || spec === null) throw new InvalidInputError("INVALID_INPUT", "defineEval needs a spec like { name, mock: { prompt, script }, checks: [...] }");
  const name = spec.name;
  if (typeof name !== "string" || name.trim() === "") throw new InvalidInputError("INVALID_INPUT", `defineEval: name must be a non-empty string; got ${JSON.stringify(name)}`);
  for (const key of Object.keys(spec)) if (!FIELDS.has(key)) bad(name, key, `is not a field of an eval (fields: ${[...FIELDS].join(", ")})`);
  const tiers: ("mock" | "replay" | "real" | "run")[] = [];
  if (spec.mock !== undefined) {
    if (!isSpecLike(spec.mock)) bad(name, "mock", "must be a harness spec { prompt, script, … } or a function of the trial returning one", spec.mock);
    tiers.push("mock");
  }
  if (spec.replay !== undefined) {
    if (typeof spec.replay !== "string" && !isSpecLike(spec.replay)) bad(name, "replay", "must be a recording path, a spec { recording, plugins, … } or a function of the trial returning one", spec.replay);
    tiers.push("replay");
  }
  if (spec.real !== undefined) {
    if (!isSpecLike(spec.real)) bad(name, "real", "must be a spec { prompt, … } or a function of the trial returning one", spec.real);
    if (typeof spec.real === "object" && "script" in spec.real) bad(name, "real.script", "has no place in the real tier: the real model answers (put the script under mock)");
    tiers.push("real");
  }
  if (spec.run !== undefined) {
    if (typeof spec.run !== "function") bad(name, "run", "must be a function (trial, context) => Trace", spec.run);
    if (tiers.length > 0) bad(name, "run", "cannot be combined with mock, replay or real: give one way to produce a trial");
    tiers.push("run");
  }
  if (tiers.length === 0) bad(name, "mock/real/run", "— give at least one: mock: { prompt, script }, real: { prompt }, or run: (trial) => trace");
  if (!Array.isArray(spec.checks) || spec.checks.length === 0) bad(name, "checks", "must be a non-empty array of checks (an eval of nothing asserts nothing)", spec.checks);
  spec.checks.forEach((c, i) => {
    if (typeof c?.eval !== "function" || typeof c.toJSON !== "function") bad(name, `checks[${i}]`, "is not a check (build it with tool(), notTool(), … or defineCheck)", c);
  });
  validateHealthSwitches(spec.health, `defineEval(${JSON.stringify(name)}): health`);
  if (spec.ablate !== undefined) {
    if (spec.run !== undefined) bad(name, "ablate", "needs a mock, replay or real tier: run() has no spec to remove a part from");
    try {
      parseComponent(spec.ablate);
    } catch (error) {
      bad(name, "ablate", (error as Error).message.replace(/^ablate: /, ""));
    }
  }
  const trials = spec.trials ?? 10;
  if (!Number.isInteger(trials) || trials < 1) bad(name, "trials", "must be a positive integer", spec.trials);
  const thresholds = spec.thresholds ?? { min: 1 };
  const labels = uniqueLabels(spec.checks.map((c) => c.label ?? c.kind));
  validateThresholds(thresholds, spec.checks.map((c, i) => ({ label: at(labels, i), kind: c.kind })), `defineEval(${JSON.stringify(name)}): thresholds`);
  const definition = { ...spec, name, trials, thresholds, seed: spec.seed ?? name, tiers: Object.freeze(tiers), checks: Object.freeze([...spec.checks]) };
  Object.defineProperty(definition, BRAND, { value: true });
  // Under a registry symbol, like the brand: the copy of proctor that loads the eval file may not be the one that declared it.
  const file = callerFile(defineEval);
  if (file) Object.defineProperty(definition, DEFINED_IN, { value: file });
  return Object.freeze(definition);
}

/** The module an eval was declared in (where its relative paths were written); not enumerable, so no report or JSON carries it. */
const DEFINED_IN = Symbol.for("proctor.eval.definedIn");

/**
 * The file of the module that called `fn`, from V8's structured stack: an eval file that
 * re-exports an eval from another module must not move that eval's relative paths.
 */
function callerFile(fn: (...args: never[]) => unknown): string | undefined {
  const original = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, fn);
    const frames = holder.stack as readonly NodeJS.CallSite[] | undefined;
    const name = Array.isArray(frames) ? frames[0]?.getFileName() : undefined;
    if (typeof name !== "string" || name === "") return undefined;
    if (name.startsWith("file:")) return fileURLToPath(name);
    return isAbsolute(name) ? name : undefined;
  } catch {
    return undefined;
  } finally {
    Error.prepareStackTrace = original;
  }
}

/**
 * The file of the module that declared `definition` (called defineEval), when known: relative
 * paths in its specs (fixture, plugins, script files, recordings) are relative to it, whichever
 * eval file re-exports it. Undefined for an eval declared where no file is known (eval'd code).
 */
export function definedIn(definition: EvalDefinition): string | undefined {
  const file = typeof definition === "object" && definition !== null ? (definition as unknown as Record<symbol, unknown>)[DEFINED_IN] : undefined;
  return typeof file === "string" ? file : undefined;
}
