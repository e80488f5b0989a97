/**
 * A check is data: a small object that evaluates itself against one result and serialises to
 * JSON. The same evaluation feeds `expect` (strict), `measure` (scored), the test-runner plugins
 * and every reporter — one evaluator, many renderers.
 */
import { InvalidInputError, isProctorError } from "../errors/proctor-error.js";
import { loadSafetyChecks } from "./safety-loader.js";
import { encodeValue, formatValue } from "../match/codec.js";
import type { Trace } from "../trace/types.js";
import { requireTarget, TRACE_TARGET, type CheckTarget } from "./targets.js";
import { InvalidCheckError, requireName } from "./validate.js";

/** The outcome of evaluating one check against one result. */
export interface CheckResult {
  /** The check's kind (`"tool"`, `"notTool"`, …). */
  readonly kind: string;
  /** A short human name for the check, e.g. `notTool(Bash, {"command":/rm -rf/})`. */
  readonly label: string;
  /** Did the check hold? */
  readonly pass: boolean;
  /** 0..1 — `pass ? 1 : 0` for a boolean check; a fraction for graded ones. */
  readonly score: number;
  /** Confirming on pass; on failure says what was expected, what the trace shows, what to do. */
  readonly message: string;
  /** What the check wanted, as data (for diffs and reports). */
  readonly expected?: unknown;
  /** What the trace showed instead, as data. */
  readonly actual?: unknown;
  /** Index into `trace.toolCalls` of the call this result is about, when there is one. */
  readonly callIndex?: number;
  /** A model-graded check's grading: what the judge was asked, what it answered, what it cost (apart from the agent's cost). */
  readonly judge?: JudgeRecord;
  /**
   * The check failed because it could not decide (no judge, a judge that failed, an evaluator that
   * threw): no evidence either way, so negating it (`.not`) is not a pass either.
   */
  readonly inconclusive?: true;
}

/** What a judge was asked and answered, kept with the verdict it produced. */
export interface JudgeRecord {
  readonly prompt?: string;
  readonly answer?: string;
  readonly costUsd?: number;
}

/** A check's serialised form: `{"kind": …, …the factory's parameters by name}`. */
export interface CheckJSON {
  readonly kind: string;
  readonly [field: string]: unknown;
}

/** A declarative check over a result of type `T` (a Trace, a HookRunResult, …). */
export interface Check<T> {
  readonly kind: string;
  readonly label: string;
  /**
   * Work the evaluation needs that cannot be synchronous (a model judge's grading), done once per
   * target before `eval` by `evaluateChecks`, `measure` and the CLI.
   */
  readonly prepare?: (target: T) => Promise<void>;
  /** Evaluate against a result. Pure: no I/O, no clock. */
  eval(target: T): CheckResult;
  /** The JSON form (RegExps as `{"$regex","$flags"}`); `checkFromJSON` rebuilds it. */
  toJSON(): CheckJSON;
}

/** What an evaluator returns; `defineCheck` fills in kind, label and score. */
export interface Verdict {
  readonly pass: boolean;
  readonly message: string;
  readonly score?: number;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly callIndex?: number;
  readonly judge?: JudgeRecord;
  /** Failed for want of evidence, not on it (see CheckResult). */
  readonly inconclusive?: true;
}

/**
 * Build a check from its JSON parameters and an evaluator. The evaluator never throws past
 * here: an exception becomes a failing result that quotes it (a crashed check is not a pass).
 * With `target`, a value that is not one is refused (a ProctorError) before evaluation: a wrong
 * input is the caller's mistake, not a verdict about the run.
 */
export function defineCheck<T>(
  kind: string,
  params: Record<string, unknown>,
  evaluate: (target: T) => Verdict,
  options: { label?: string; json?: () => CheckJSON; prepare?: (target: T) => Promise<void>; target?: CheckTarget } = {},
): Check<T> {
  requireName("defineCheck", "kind", kind);
  if (typeof evaluate !== "function") throw new InvalidCheckError(kind, "evaluate", "must be a function (target) => { pass, message }", evaluate);
  const json = Object.freeze({ kind, ...(encodeValue(params) as Record<string, unknown>) }) as CheckJSON;
  const label = options.label ?? labelOf(kind, params);
  return Object.freeze({
    kind,
    label,
    eval(target: T): CheckResult {
      if (options.target) requireTarget(options.target, label, target);
      let verdict: Verdict;
      try {
        verdict = evaluate(target);
      } catch (error) {
        // Not a verdict: the caller must load the parser first (or use evaluateChecks).
        if (isProctorError(error) && error.code === "SHELL_PARSER_NOT_LOADED") throw error;
        const reason = error instanceof Error ? error.message : String(error);
        return { kind, label, pass: false, score: 0, message: `${label} threw while evaluating: ${reason}`, inconclusive: true };
      }
      const score = verdict.score ?? (verdict.pass ? 1 : 0);
      return { kind, label, ...verdict, score };
    },
    toJSON: options.json ?? (() => json),
    ...(options.prepare ? { prepare: options.prepare } : {}),
  });
}

/** `defineCheck` over a Trace, refusing anything that is not one. */
export function defineTraceCheck(
  kind: string,
  params: Record<string, unknown>,
  evaluate: (trace: Trace) => Verdict,
  options: { label?: string; json?: () => CheckJSON; prepare?: (trace: Trace) => Promise<void> } = {},
): Check<Trace> {
  return defineCheck<Trace>(kind, params, evaluate, { ...options, target: TRACE_TARGET });
}

/** `kind(Bash, {"command":/rm/}, max: 1)`: strings bare, numbers named, the rest compact JSON. */
function labelOf(kind: string, params: Record<string, unknown>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? `${k}: ${v}` : formatValue(v, 60)));
  return `${kind}(${parts.join(", ")})`;
}

/** Evaluate every check against a target, in order. Pure — the shared core of `expect` and `measure`. */
export function evalChecks<T>(target: T, checks: readonly Check<T>[]): CheckResult[] {
  requireChecks("evalChecks", checks);
  return checks.map((check) => check.eval(target));
}

/**
 * `evalChecks` for async callers: runs each check's asynchronous preparation (a model judge's
 * grading, the safety checks' code), and loads the shell parser when a check turns out to need it
 * (`purity`, skill contracts), so nothing pays for it that does not classify a shell command.
 */
export async function evaluateChecks<T>(target: T, checks: readonly Check<T>[]): Promise<CheckResult[]> {
  requireChecks("evaluateChecks", checks);
  await Promise.all(checks.map((check) => check.prepare?.(target)));
  try {
    return evalChecks(target, checks);
  } catch (error) {
    if (!isProctorError(error) || error.code !== "SHELL_PARSER_NOT_LOADED") throw error;
    // A check nested in another (subagent) was not prepared: load all that shell classification
    // needs. The parser's loader itself loads here, so importing proctor does not load it.
    const { loadShellParser } = await import("../effects/bash/parser.js");
    await Promise.all([loadShellParser(), loadSafetyChecks()]);
    return evalChecks(target, checks);
  }
}

/** Refuse anything but an array of checks, naming the first element that is not one. */
function requireChecks(fn: string, checks: unknown): void {
  const hint = 'pass an array of checks such as [tool("Read"), notTool("Bash")]';
  if (!Array.isArray(checks)) throw new InvalidInputError("INVALID_INPUT", `${fn}(target, checks): checks must be an array of checks; got ${formatValue(checks, 60)}`, { input: "checks", hint });
  const i = checks.findIndex((c) => typeof (c as Partial<Check<unknown>> | null)?.eval !== "function");
  if (i !== -1) throw new InvalidInputError("INVALID_INPUT", `${fn}(target, checks): checks[${i}] is not a check; got ${formatValue(checks[i], 60)}`, { input: `checks[${i}]`, hint });
}
