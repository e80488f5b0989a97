/** Model-graded checks and user-defined checks: the two kinds that hold a function. */
import type { Trace } from "../trace/types.js";
import { defineCheck, defineTraceCheck, type Check, type CheckJSON } from "./check.js";
import { quote } from "./describe.js";
import { InvalidCheckError, requireName, requireNumber } from "./validate.js";

/** A judge's grading of one output. */
export interface JudgeVerdict {
  score: number;
  pass: boolean;
  reason?: string;
  /** What the judge was asked (kept in the CheckResult). */
  prompt?: string;
  /** What the judge answered, verbatim. */
  answer?: string;
  /** What grading cost, reported apart from the agent's cost. */
  costUsd?: number;
}

/** What a judge is given: the run's final output, the rubric, and (for judges that read them) the run's tool calls. */
export interface JudgeInput {
  output: string;
  rubric: string;
  threshold?: number;
  /** `name(input)` per call, in order. */
  calls?: readonly string[];
}

/**
 * A judge grades `output` against a `rubric` → score in [0,1]. Synchronous judges work
 * everywhere; an asynchronous one (a model call, like `claudeJudge` from proctor/harness) is
 * awaited by `evaluateChecks`, `measure` and `proctor run`/`check`, which grade before evaluating.
 */
export type JudgeFn = (opts: JudgeInput) => JudgeVerdict | Promise<JudgeVerdict>;

let defaultJudge: JudgeFn | undefined;

/** Install the judge `judged()` uses when none is passed (e.g. `setDefaultJudge(claudeJudge())` in an eval file). */
export function setDefaultJudge(judge: JudgeFn | undefined): void {
  if (judge !== undefined && typeof judge !== "function") throw new InvalidCheckError("judged", "judge", "must be a function, or undefined to remove the default", judge);
  defaultJudge = judge;
}

/** The judge `judged()` falls back to, if one is installed. */
export function getDefaultJudge(): JudgeFn | undefined {
  return defaultJudge;
}

/** Gradings already made, per judge, Trace and rubric: a check is graded once, however often it is evaluated. */
const graded = new WeakMap<JudgeFn, WeakMap<object, Map<string, JudgeVerdict | Error>>>();

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof (v as { then?: unknown } | null)?.then === "function";

/**
 * The input a judge gets. `calls` is written out when the judge first reads it: serialising every
 * call's input is most of the cost of grading a long run (8 ms for 10,000 calls), and a judge that
 * reads only the output should not pay it. It is an enumerable property (spread, `JSON.stringify`
 * and `structuredClone` see it) that becomes a plain data property on its first read or
 * assignment, whatever is assigned (`undefined` included: a judge that blanks the calls before
 * sending its input on gets them blank). On a frozen input it stays an accessor over the same
 * value. A call input `JSON.stringify` cannot write (a BigInt, a cycle: no transcript holds one)
 * fails the check only when the judge reads `calls` — a judge that never reads them grades
 * without them.
 */
function judgeInput(trace: Trace, rubric: string, min: number | undefined): JudgeInput {
  const input: JudgeInput = { output: trace.output ?? "", rubric, ...(min !== undefined ? { threshold: min } : {}) };
  // Per object that reads or assigns it: a copy made with the accessor (Object.create with the
  // input's descriptors) keeps its own value.
  const written = new WeakMap<object, readonly string[] | undefined>();
  /** Keeps `value` as `target`'s own data property when it can, and in `written` always. */
  const settle = (target: object, value: readonly string[] | undefined): readonly string[] | undefined => {
    written.set(target, value);
    if (Object.getOwnPropertyDescriptor(target, "calls")?.configurable ?? Object.isExtensible(target)) {
      Object.defineProperty(target, "calls", { value, writable: true, enumerable: true, configurable: true });
    }
    return value;
  };
  return Object.defineProperty(input, "calls", {
    get(this: object) {
      return written.has(this) ? written.get(this) : settle(this, trace.toolCalls.map((c) => `${c.name}(${JSON.stringify(c.input)})`));
    },
    set(this: object, value: readonly string[] | undefined) {
      settle(this, value);
    },
    enumerable: true,
    configurable: true,
  });
}

/**
 * The agent's output scores ≥ `min` against `rubric`. The judge is injectable; without one (and
 * no default installed) the check fails, saying so — an ungraded output is not a pass.
 */
export function judged(rubric: string, opts: { min?: number | undefined; judge?: JudgeFn | undefined } = {}): Check<Trace> {
  requireName("judged", "rubric", rubric);
  if (opts.min !== undefined) {
    requireNumber("judged", "min", opts.min);
    if (opts.min > 1) throw new InvalidCheckError("judged", "min", "must be within 0..1", opts.min);
  }
  if (opts.judge !== undefined && typeof opts.judge !== "function") throw new InvalidCheckError("judged", "judge", "must be a function", opts.judge);
  const params = { rubric, min: opts.min };
  const json: CheckJSON = opts.judge ? { kind: "judged", rubric, min: opts.min, judge: "custom" } : { kind: "judged", ...params };
  const key = `${rubric}\u0000${opts.min ?? ""}`;
  const cached = (judge: JudgeFn, trace: Trace) => graded.get(judge)?.get(trace)?.get(key);
  const remember = (judge: JudgeFn, trace: Trace, v: JudgeVerdict | Error) => {
    let byTrace = graded.get(judge);
    if (!byTrace) {
      byTrace = new WeakMap();
      graded.set(judge, byTrace);
    }
    let m = byTrace.get(trace);
    if (!m) {
      m = new Map();
      byTrace.set(trace, m);
    }
    m.set(key, v);
  };
  return defineTraceCheck(
    "judged",
    params,
    (trace) => {
      const judge = opts.judge ?? defaultJudge;
      if (!judge) {
        return {
          pass: false,
          message: "no judge configured: pass judged(rubric, { judge }), call setDefaultJudge(fn), or setDefaultJudge(claudeJudge()) from proctor/harness for the built-in one",
          expected: rubric,
          inconclusive: true,
        };
      }
      if (trace.output === undefined) return { pass: false, message: "nothing to judge: the run produced no final output", expected: rubric, inconclusive: true };
      let verdict = cached(judge, trace);
      if (verdict === undefined) {
        const answer = judge(judgeInput(trace, rubric, opts.min));
        if (isThenable(answer)) {
          (answer as Promise<unknown>).catch(() => undefined); // graded again, awaited, where it can be
          return {
            pass: false,
            message: "this judge answers asynchronously, and nothing awaited it: evaluate with evaluateChecks(), measure() or proctor run/check, which grade before they evaluate",
            expected: rubric,
            inconclusive: true,
          };
        }
        verdict = answer;
      }
      if (verdict instanceof Error) return { pass: false, message: `the judge failed: ${verdict.message}`, expected: rubric, inconclusive: true };
      const record = { ...(verdict.prompt !== undefined ? { prompt: verdict.prompt } : {}), ...(verdict.answer !== undefined ? { answer: verdict.answer } : {}), ...(verdict.costUsd !== undefined ? { costUsd: verdict.costUsd } : {}) };
      const judgeField = Object.keys(record).length ? { judge: record } : {};
      const score = verdict.score;
      if (typeof score !== "number" || !(score >= 0 && score <= 1) || typeof verdict.pass !== "boolean") {
        return { pass: false, message: `the judge answered ${JSON.stringify({ score: verdict.score, pass: verdict.pass })}; a verdict needs a boolean pass and a score in 0..1`, expected: rubric, inconclusive: true, ...judgeField };
      }
      const pass = opts.min === undefined ? verdict.pass : score >= opts.min;
      const why = verdict.reason ? `: ${verdict.reason}` : "";
      return pass
        ? { pass, score, message: `judged ${score.toFixed(2)} against the rubric${why}`, ...judgeField }
        : { pass, score, message: `judged ${score.toFixed(2)}${opts.min !== undefined ? ` < ${opts.min}` : ""} against ${quote(rubric, 80)}${why}`, expected: rubric, actual: trace.output, ...judgeField };
    },
    {
      json: () => Object.fromEntries(Object.entries(json).filter(([, v]) => v !== undefined)) as CheckJSON,
      async prepare(trace) {
        const judge = opts.judge ?? defaultJudge;
        if (!judge || trace.output === undefined || cached(judge, trace) !== undefined) return;
        try {
          remember(judge, trace, await judge(judgeInput(trace, rubric, opts.min)));
        } catch (error) {
          remember(judge, trace, error instanceof Error ? error : new Error(String(error)));
        }
      },
    },
  );
}

/** What a custom check function may return. */
export type CustomVerdict = boolean | { pass: boolean; message?: string; score?: number };

/**
 * A user-defined check. `fn` gets the target the check is evaluated against — for trace checks the
 * run's whole `Trace` (its `toolCalls` with inputs, results and statuses, `subagents`, `skills`,
 * `hooks`, `replies`, `output`, `files`, `usage`, `modelRequests`, `errors`; see trace/types.ts),
 * for hook checks the `HookRunResult` — and must not change it. It returns `true`/`false`, or
 * `{ pass, message?, score? }` (`message` is shown on failure, `score` in 0..1 for graded checks).
 * Anything else fails, quoting it; a throw fails as inconclusive. It serialises
 * (`{"kind": kind, "$custom": true}`) for reports but cannot be rebuilt from JSON: the function
 * doesn't travel.
 * @example custom<Trace>("no-sudo", (trace) => !trace.toolCalls.some((c) => String(c.input.command ?? "").includes("sudo")))
 */
export function custom<T = Trace>(kind: string, fn: (target: T) => CustomVerdict): Check<T> {
  requireName("custom", "kind", kind);
  if (typeof fn !== "function") throw new InvalidCheckError("custom", "fn", "must be a function (target) => boolean | { pass, message }", fn);
  return defineCheck<T>(
    kind,
    {},
    (target) => {
      const v = fn(target);
      if (typeof v === "boolean") return { pass: v, message: v ? `${kind} held` : `${kind} did not hold` };
      if (typeof v !== "object" || v === null || typeof v.pass !== "boolean") {
        return { pass: false, message: `${kind} returned ${JSON.stringify(v)}; a custom check must return a boolean or { pass, message }` };
      }
      return { pass: v.pass, ...(v.score === undefined ? {} : { score: v.score }), message: v.message ?? (v.pass ? `${kind} held` : `${kind} did not hold`) };
    },
    { label: kind, json: () => ({ kind, $custom: true }) },
  );
}
