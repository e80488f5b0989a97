/**
 * Running a `claude plugin eval` suite through `measure`: each case's graders become checks, each
 * arm (with the plugin, and without it under ablation) is measured over the case's runs, and the
 * per-run verdicts are scored the way claude scores them into an aggregate-result.json. The trial
 * itself (which tier spawns claude) is passed in, so this module starts no process.
 */
import type { TrialContext } from "../measure/measure.js";
import { measure } from "../measure/measure.js";
import type { CheckReport } from "../measure/types.js";
import type { Trace } from "../trace/types.js";
import { attachEvidence, graderCheck, gradedResults } from "./checks.js";
import type { AskJudge, RunEvidence } from "./grade.js";
import { caseAggregates, gradersFor, runScore, suiteAggregates, type Arm, type CaseAggregates } from "./score.js";
import type { Grader, PluginEvalSuite, SuiteCase } from "./types.js";

/** One run of a case on one arm, as the tier produced it. */
export interface SuiteTrial {
  readonly trace: Trace;
  readonly evidence: RunEvidence;
  /** The run's own error (a timeout, max turns), graded anyway; null when it ended cleanly. */
  readonly error?: string | null;
  /** A mock ended the run (an `expect:` violated, an `abort_when` met): it scores 0 and is not graded. */
  readonly aborted?: MockAbort;
}

/** Which mock ended a run, and why. */
export interface MockAbort {
  readonly server: string;
  readonly tool: string;
  readonly reason: string;
}

export interface RunSuiteOptions {
  /** Run case `c` once on `arm` (`with`: the plugin loaded). A throw is a run that scores 0. */
  readonly runTrial: (c: SuiteCase, arm: Arm, trial: number, context: TrialContext) => Promise<SuiteTrial>;
  /** The judge for llm graders (per case, so a scripted judge can answer per case). */
  readonly judge?: (c: SuiteCase) => AskJudge | undefined;
  /** Run the without-plugin arm too (claude's `--ablation with-without`). */
  readonly ablation: boolean;
  /** Override every case's runs. */
  readonly runs?: number | undefined;
  readonly concurrency?: number | undefined;
  /** A case passes when its score is at least this. @default 1 */
  readonly threshold?: number | undefined;
  readonly progress?: boolean | "auto";
  readonly signal?: AbortSignal;
  /** Called after each case with its aggregates. */
  readonly onCase?: (c: SuiteCase, aggregates: CaseAggregates) => void;
}

/** One graded run, as aggregate-result.json records it. */
export interface RunRecord {
  readonly score: number;
  readonly passed: boolean;
  readonly error: string | null;
  readonly graders: readonly { name: string; passed: boolean; weight: number; explanation: string; withOnly: boolean; scored: boolean; judgeVotes?: readonly boolean[] }[];
  readonly aborted?: MockAbort;
}

/** One case's results: its per-run records per arm, its aggregates and proctor's CheckReports per arm. */
export interface CaseOutcome {
  readonly case: SuiteCase;
  readonly arms: { readonly with: readonly RunRecord[]; readonly without?: readonly RunRecord[] };
  readonly aggregates: CaseAggregates;
  readonly reports: { readonly with: CheckReport; readonly without?: CheckReport };
}

export interface SuiteOutcome {
  readonly suite: PluginEvalSuite;
  readonly cases: readonly CaseOutcome[];
  readonly aggregates: ReturnType<typeof suiteAggregates>;
  readonly threshold: number;
  readonly ablation: boolean;
}

/** Measure one arm of one case; returns the report and a record per run. */
async function measureArm(c: SuiteCase, arm: Arm, options: RunSuiteOptions, threshold: number): Promise<{ report: CheckReport; runs: RunRecord[] }> {
  const graders = gradersFor(c.case.graders, options.ablation ? arm : undefined);
  const ask = options.judge?.(c);
  const checks = graders.map(({ grader }) => graderCheck(grader, ask));
  const trials = options.runs ?? c.case.runs;
  const traces: (Trace | undefined)[] = new Array(trials).fill(undefined);
  const errors: (string | null)[] = new Array(trials).fill(null);
  const aborts: (MockAbort | undefined)[] = new Array(trials).fill(undefined);
  const report = await measure({
    name: options.ablation ? `${c.case.name} (${arm})` : c.case.name,
    run: async (trial, context) => {
      try {
        const result = await options.runTrial(c, arm, trial, context);
        if (result.aborted) {
          // As in claude: the run ends there, scores 0 and is not graded; proctor counts it an errored trial.
          aborts[trial] = result.aborted;
          throw new Error(`aborted by mock ${result.aborted.server}/${result.aborted.tool}: ${result.aborted.reason}`);
        }
        attachEvidence(result.trace, result.evidence);
        traces[trial] = result.trace;
        errors[trial] = result.error ?? null;
        return result.trace;
      } catch (error) {
        if (!aborts[trial]) errors[trial] = (error as Error)?.message ?? String(error);
        throw error;
      }
    },
    checks,
    trials,
    concurrency: options.concurrency ?? 1,
    thresholds: { min: 0 },
    seed: `${c.case.name}/${arm}`,
    progress: options.progress ?? false,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const runs = traces.map((trace, i): RunRecord => {
    const aborted = aborts[i];
    if (aborted) return { score: 0, passed: false, error: null, graders: [], aborted };
    if (!trace) return { score: 0, passed: false, error: errors[i] ?? "the run did not finish", graders: [] };
    const results = gradedResults(trace);
    const graded = graders.map(({ grader, scored }) => {
      const r = results.get(grader.name) ?? { name: grader.name, passed: false, weight: grader.weight, explanation: "not graded" };
      return { ...r, withOnly: !scored, scored };
    });
    const score = runScore(graded);
    return { score, passed: score >= threshold, error: errors[i] ?? null, graders: graded };
  });
  return { report, runs };
}

/** Run every case of a suite on both arms (or one), score it, and hand back the outcome. */
export async function runPluginEvalSuite(suite: PluginEvalSuite, options: RunSuiteOptions): Promise<SuiteOutcome> {
  const threshold = options.threshold ?? 1;
  const cases: CaseOutcome[] = [];
  for (const c of suite.cases) {
    if (options.signal?.aborted) break;
    const withArm = await measureArm(c, "with", options, threshold);
    const withoutArm = options.ablation ? await measureArm(c, "without", options, threshold) : undefined;
    const aggregates = caseAggregates(
      withArm.runs.map((r) => r.score),
      withoutArm?.runs.map((r) => r.score),
    );
    options.onCase?.(c, aggregates);
    cases.push({
      case: c,
      arms: { with: withArm.runs, ...(withoutArm ? { without: withoutArm.runs } : {}) },
      aggregates,
      reports: { with: withArm.report, ...(withoutArm ? { without: withoutArm.report } : {}) },
    });
  }
  return { suite, cases, aggregates: suiteAggregates(cases.map((c) => c.aggregates), threshold), threshold, ablation: options.ablation };
}

/** A grader's config as aggregate-result.json lists it (its own fields, without name/type/weight/arm). */
function graderConfig(g: Grader): Record<string, unknown> {
  const { name: _n, type: _t, weight: _w, ...config } = g as Grader & Record<string, unknown>;
  return config;
}

/** The outcome as an aggregate-result.json (the fields claude writes that proctor knows). */
export function aggregateResult(outcome: SuiteOutcome, meta: { claudeVersion?: string; startedAt: string; durationSeconds: number; costUsd: number }): Record<string, unknown> {
  return {
    schemaVersion: 1,
    producer: "proctor",
    claudeVersion: meta.claudeVersion ?? "unknown",
    startedAt: meta.startedAt,
    durationSeconds: meta.durationSeconds,
    costUsd: meta.costUsd,
    partial: false,
    suite: {
      root: outcome.suite.pluginDir ?? outcome.suite.root,
      ablation: outcome.ablation ? "with-without" : "none",
      threshold: outcome.threshold,
    },
    cases: outcome.cases.map((c) => ({
      name: c.case.case.name,
      dir: c.case.relDir,
      source: c.case.source,
      promptMarkdown: c.case.case.execution.prompt,
      runsPerCase: c.arms.with.length,
      timeoutSeconds: c.case.case.execution.timeout_seconds,
      maxTurns: c.case.case.execution.max_turns,
      graders: c.case.case.graders.map((g) => ({ name: g.name, type: g.type, weight: g.weight, ...(g.type === "llm" || g.type === "baseline" ? { graderMarkdown: g.criteria } : {}), config: graderConfig(g) })),
      arms: { with: c.arms.with, ...(c.arms.without ? { without: c.arms.without } : {}) },
      aggregates: c.aggregates,
    })),
    aggregates: outcome.aggregates,
  };
}
