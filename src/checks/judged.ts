/** Model-graded checks and user-defined checks: the two kinds that hold a function. */
import type { Trace } from "../trace/types.js";
import { defineCheck, defineTraceCheck, type Check, type CheckJSON } from "./check.js";
import { quote } from "./describe.js";
import { InvalidCheckError, requireName, requireNumber } from "./validate.js";

/** A judge grades `output` against a `rubric` → score in [0,1]. */
export type JudgeFn = (opts: { output: string; rubric: string; threshold?: number }) => {
  score: number;
  pass: boolean;
  reason?: string;
};

let defaultJudge: JudgeFn | undefined;

/** Install the judge `judged()` uses when none is passed (e.g. a model-backed one in an eval setup file). */
export function setDefaultJudge(judge: JudgeFn | undefined): void {
  defaultJudge = judge;
}

/**
 * The agent's output scores ≥ `min` against `rubric`. The judge is injectable; without one (and
 * no default installed) the check fails, saying so — an ungraded output is not a pass.
 */
export function judged(rubric: string, opts: { min?: number; judge?: JudgeFn } = {}): Check<Trace> {
  requireName("judged", "rubric", rubric);
  if (opts.min !== undefined) {
    requireNumber("judged", "min", opts.min);
    if (opts.min > 1) throw new InvalidCheckError("judged", "min", "must be within 0..1", opts.min);
  }
  if (opts.judge !== undefined && typeof opts.judge !== "function") throw new InvalidCheckError("judged", "judge", "must be a function", opts.judge);
  const params = { rubric, min: opts.min };
  const json: CheckJSON = opts.judge ? { kind: "judged", rubric, min: opts.min, judge: "custom" } : { kind: "judged", ...params };
  return defineTraceCheck(
    "judged",
    params,
    (trace) => {
      const judge = opts.judge ?? defaultJudge;
      if (!judge) return { pass: false, message: "no judge configured: pass judged(rubric, { judge }) or call setDefaultJudge(fn)", expected: rubric };
      if (trace.output === undefined) return { pass: false, message: "nothing to judge: the run produced no final output", expected: rubric };
      const verdict = judge({ output: trace.output, rubric, threshold: opts.min });
      const score = Math.min(1, Math.max(0, Number(verdict.score)));
      const pass = opts.min === undefined ? Boolean(verdict.pass) : score >= opts.min;
      const why = verdict.reason ? `: ${verdict.reason}` : "";
      return pass
        ? { pass, score, message: `judged ${score.toFixed(2)} against the rubric${why}` }
        : { pass, score, message: `judged ${score.toFixed(2)}${opts.min !== undefined ? ` < ${opts.min}` : ""} against ${quote(rubric, 80)}${why}`, expected: rubric, actual: trace.output };
    },
    { json: () => Object.fromEntries(Object.entries(json).filter(([, v]) => v !== undefined)) as CheckJSON },
  );
}

/** What a custom check function may return. */
export type CustomVerdict = boolean | { pass: boolean; message?: string; score?: number };

/**
 * A user-defined check. It serialises (`{"kind": kind, "$custom": true}`) for reports but cannot
 * be rebuilt from JSON: the function doesn't travel.
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
      return { pass: v.pass, score: v.score, message: v.message ?? (v.pass ? `${kind} held` : `${kind} did not hold`) };
    },
    { label: kind, json: () => ({ kind, $custom: true }) },
  );
}
