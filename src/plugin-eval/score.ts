/**
 * Scoring as claude 2.1.332 scores a suite: a run's score is the weighted fraction of its scored
 * graders that passed; a case's score the mean over its runs, its pass rate the share of runs
 * scoring 1; the suite's the means over cases. Under ablation a `with-only` grader (and an
 * unmarked `tool_used: Skill` or `mock_calls` reader) is reported but not scored, and not run in the without arm.
 */
import type { GraderResult } from "./grade.js";
import type { Grader } from "./types.js";

export type Arm = "with" | "without";

/** Reads what the plugin's mocked MCP servers were asked, which the without arm (no plugin, no stand-ins) cannot show. */
const readsMockCalls = (g: Grader) => (g.type === "regex" && g.target === "mock_calls") || (g.type === "llm" && g.focus === "mock_calls");

/**
 * A grader that under ablation only indicates the plugin fired: marked with-only, or unmarked and
 * either a `tool_used: Skill` or a reader of `mock_calls` (as claude 2.1.332 treats them).
 */
export function isWithOnly(g: Grader): boolean {
  return g.arm === "with-only" || (g.arm === undefined && ((g.type === "tool_used" && g.tool === "Skill") || readsMockCalls(g)));
}

/**
 * The graders a run of `arm` grades, each with whether it is scored. `arm` undefined: no ablation,
 * every grader scored. When every grader is with-only, all are run and scored in both arms.
 */
export function gradersFor(graders: readonly Grader[], arm: Arm | undefined): { grader: Grader; scored: boolean }[] {
  const allWithOnly = graders.every(isWithOnly);
  const run = arm === "without" && !allWithOnly ? graders.filter((g) => !isWithOnly(g)) : graders;
  return run.map((grader) => ({ grader, scored: !(arm !== undefined && !allWithOnly && isWithOnly(grader)) }));
}

/** One graded result with whether it counts. */
export interface ScoredResult extends GraderResult {
  readonly withOnly: boolean;
  readonly scored: boolean;
}

/** A run's score: passed weight over scored weight; 0 when nothing is scored. */
export function runScore(results: readonly Pick<ScoredResult, "passed" | "weight" | "withOnly">[]): number {
  let passed = 0;
  let total = 0;
  for (const r of results) {
    if (r.withOnly) continue;
    total += r.weight;
    if (r.passed) passed += r.weight;
  }
  return total > 0 ? passed / total : 0;
}

/** Mean score and pass rate (share of runs with score ≥ 1) over runs; both 0 for no runs. */
export function armAggregate(scores: readonly number[]): { score: number; passRate: number } {
  if (scores.length === 0) return { score: 0, passRate: 0 };
  return { score: scores.reduce((a, b) => a + b, 0) / scores.length, passRate: scores.filter((s) => s >= 1).length / scores.length };
}

/** A case's aggregates, as aggregate-result.json writes them. */
export interface CaseAggregates {
  readonly score: number;
  readonly passRate: number;
  readonly scoreWithout?: number;
  readonly passRateWithout?: number;
  readonly delta?: number;
}

export function caseAggregates(withScores: readonly number[], withoutScores?: readonly number[]): CaseAggregates {
  const w = armAggregate(withScores);
  if (!withoutScores || withoutScores.length === 0) return { score: w.score, passRate: w.passRate };
  const wo = armAggregate(withoutScores);
  return { score: w.score, passRate: w.passRate, scoreWithout: wo.score, passRateWithout: wo.passRate, delta: w.score - wo.score };
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The suite's aggregates; a case passes when its score is at least the threshold (default 1). */
export function suiteAggregates(cases: readonly CaseAggregates[], threshold = 1) {
  const deltas = cases.flatMap((c) => (c.delta === undefined ? [] : [c.delta]));
  return {
    casesTotal: cases.length,
    casesPassed: cases.filter((c) => c.score >= threshold).length,
    overallScore: mean(cases.map((c) => c.score)),
    overallPassRate: mean(cases.map((c) => c.passRate)),
    ...(deltas.length > 0 ? { meanDelta: mean(deltas) } : {}),
  };
}
