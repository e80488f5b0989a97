/**
 * A `claude plugin eval` grader as a proctor check over a Trace, so suites run through `measure`
 * (intervals, traces, JUnit) and a grader can be evaluated on any recorded run. The run's fuller
 * evidence (its stream-json, the files it created) is attached to its Trace by the runner; a
 * Trace without it is graded from what it holds, and a target it lacks fails closed.
 */
import { defineTraceCheck, type Check } from "../checks/check.js";
import type { Trace } from "../trace/types.js";
import { evidenceFromTrace, grade, gradeSync, type AskJudge, type GraderResult, type RunEvidence } from "./grade.js";
import type { Grader } from "./types.js";

const evidenceOf = new WeakMap<Trace, RunEvidence>();
const gradedOf = new WeakMap<Trace, Map<string, GraderResult>>();

/** Attach a run's evidence (stream events, created files, file reader) to its Trace. */
export function attachEvidence(trace: Trace, evidence: RunEvidence): void {
  evidenceOf.set(trace, evidence);
}

/** The evidence graders read for a Trace: attached by the runner, else derived from the Trace. */
export function evidenceFor(trace: Trace): RunEvidence {
  return evidenceOf.get(trace) ?? evidenceFromTrace(trace);
}

/** The grader results recorded for a Trace, by grader name (for the aggregate-result's per-run records). */
export function gradedResults(trace: Trace): ReadonlyMap<string, GraderResult> {
  return gradedOf.get(trace) ?? new Map();
}

function record(trace: Trace, result: GraderResult): GraderResult {
  const map = gradedOf.get(trace) ?? new Map<string, GraderResult>();
  map.set(result.name, result);
  gradedOf.set(trace, map);
  return result;
}

/**
 * The check of one grader. Graders that need no model evaluate synchronously; an llm grader is
 * graded in `prepare` (three judge votes through `ask`) and fails closed when it was not.
 */
export function graderCheck(grader: Grader, ask?: AskJudge): Check<Trace> {
  const needsJudge = grader.type === "llm" || grader.type === "baseline";
  const pending = new WeakMap<Trace, GraderResult>();
  const verdict = (r: GraderResult) => ({ pass: r.passed, message: `${grader.name}: ${r.explanation}`, expected: { grader: grader.name, type: grader.type } });
  return defineTraceCheck(
    "pluginEvalGrader",
    { grader },
    (trace) => {
      if (needsJudge) {
        const r = pending.get(trace);
        if (!r) return { pass: false, message: `${grader.name}: not graded (a judge grader is graded by evaluateChecks, measure or proctor run, which await it)`, inconclusive: true };
        return verdict(record(trace, r));
      }
      return verdict(record(trace, gradeSync(grader, evidenceFor(trace))));
    },
    {
      label: `${grader.type}:${grader.name}`,
      ...(needsJudge
        ? {
            prepare: async (trace: Trace) => {
              if (!pending.has(trace)) pending.set(trace, await grade(grader, evidenceFor(trace), ask));
            },
          }
        : {}),
    },
  );
}
