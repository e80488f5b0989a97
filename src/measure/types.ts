/**
 * The CheckReport: what `measure` found over N trials, as JSON-serialisable data. Reporters,
 * baselines, `proctor merge` and the gates all read this one shape.
 */
import type { CheckJSON } from "../checks/check.js";
import type { Interval } from "../stats/proportion.js";
import type { AblationInfo } from "./ablation.js";

/** The report format version; bumped on any incompatible change. */
export const REPORT_VERSION = 1;

/** One trial that failed a check, kept as an example (the lowest trial indices, at most a few per check). */
export interface TrialFailure {
  readonly trial: number;
  readonly message: string;
}

/** Per-check statistics over the evaluated trials. */
export interface CheckStats {
  /** The check's label, unique within the report (a duplicate gets ` #2`, ` #3`, …). */
  readonly label: string;
  readonly kind: string;
  /** The check's JSON form (`checkFromJSON` rebuilds it, unless it holds a function). */
  readonly check: CheckJSON;
  /** Trials evaluated: errored trials are not in n (they are in `report.errors`). */
  readonly n: number;
  readonly passes: number;
  /** passes / n; null when n = 0. */
  readonly rate: number | null;
  /** Standard error of the rate; null when n = 0. */
  readonly se: number | null;
  /** Wilson score interval at `report.confidence`; [0, 1] when n = 0. */
  readonly interval: Interval;
  /** Unbiased pass@k for each requested k (key: k); null when k > n. */
  readonly passAtK: Readonly<Record<string, number | null>>;
  /** Unbiased pass^k (all k attempts pass) for each requested k; null when k > n. */
  readonly passHatK: Readonly<Record<string, number | null>>;
  /** Sum of scores (1/0 for boolean checks, a fraction for graded ones), for exact merging. */
  readonly scoreSum: number;
  /** scoreSum / n; null when n = 0. */
  readonly meanScore: number | null;
  /** 0 < passes < n: the check neither always holds nor always fails. */
  readonly flaky: boolean;
  /**
   * One character per trial that ran, in trial-index order over `report.trials.ranges`:
   * `1` passed, `0` failed, `E` the trial errored (no verdict).
   */
  readonly outcomes: string;
  /** The first failing trials (lowest indices) with their messages. */
  readonly failures: readonly TrialFailure[];
}

/** A trial whose run threw (or returned no Trace): counted, listed, never a pass. */
export interface TrialError {
  readonly trial: number;
  readonly message: string;
  /** The ProctorError code, when it was one. */
  readonly code?: string;
  /** For an unhealthy run (code `RUN_UNHEALTHY`): the run-health items it failed. */
  readonly health?: readonly string[];
}

/** How many trials were unhealthy, and how often each run-health item failed (present when any was). */
export interface HealthTotals {
  readonly unhealthy: number;
  readonly items: Readonly<Record<string, number>>;
}

/** How many trials were asked for, planned here, run, and skipped. */
export interface TrialSummary {
  /** Trials the eval asked for (all shards together). */
  readonly requested: number;
  /** Trials assigned to this report (its shard's slice; = requested when unsharded). */
  readonly planned: number;
  /** Trials that ran to an outcome: completed + errored. */
  readonly ran: number;
  /** Trials whose Trace was evaluated. */
  readonly completed: number;
  readonly errored: number;
  /** Planned trials never started (budget, early stop, skip). */
  readonly skipped: number;
  /** Half-open [start, end) trial-index ranges that ran, ascending. */
  readonly ranges: readonly (readonly [number, number])[];
}

/** Token and cost totals over the trials that reported usage. */
export interface UsageTotals {
  readonly costUsd: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationTokens: number;
  readonly cacheReadTokens: number;
  /** Trials whose Trace carried usage (the others count for nothing above). */
  readonly trialsWithUsage: number;
}

/** The gate: minimum rates, by default for every check, overridden per label or kind. */
export interface Thresholds {
  /** Minimum rate for every check without a `per` entry. */
  readonly min?: number;
  /** Minimum rate by check label or by kind; a label entry wins over a kind entry. */
  readonly per?: Readonly<Record<string, number>>;
  /**
   * What is held to the minimum: the point `rate`, or `lower` — the interval's lower bound
   * (passes only when the data show the rate is above the minimum).
   * @default "rate"
   */
  readonly by?: "rate" | "lower";
  /**
   * Errored trials tolerated before the gate fails: an errored trial is missing evidence.
   * @default 0
   */
  readonly maxErrored?: number;
}

/** Why a run ended before all planned trials ran. */
export interface StopInfo {
  readonly reason: "budget" | "early-stop" | "aborted";
  /** For budget stops: which limit was reached. */
  readonly limit?: "maxUsd" | "maxMs";
  readonly message: string;
}

/**
 * Why a report covers fewer trials than it was meant to: a budget cut or an abort left trials
 * unrun, or a merge lacks shards. An incomplete report never passes a gate.
 */
export interface IncompleteInfo {
  readonly reason: "budget" | "aborted" | "missing-shards";
  readonly message: string;
  /** The shards a merge lacks (`"3/3"`, …). */
  readonly missingShards?: readonly string[];
}

/** A shard: the `index`-th (1-based) of `count` slices of the trials. */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/** Where the numbers came from. */
export interface ReportMetadata {
  readonly proctorVersion: string;
  /** Agent versions the traces reported (sorted, distinct). */
  readonly agentVersions: readonly string[];
  /** Models the traces reported (sorted, distinct). */
  readonly models: readonly string[];
}

/** The clock-derived fields: the only ones that differ between two runs with the same seed. */
export interface Timing {
  readonly startedAt: string;
  readonly finishedAt: string;
  /** Wall time of the whole measurement (for a merge: the longest shard). */
  readonly wallMs: number;
  /** Sum of the traces' own durations. */
  readonly agentMs: number;
}

/** The scored verdict of `measure`: per-check statistics over N trials. */
export interface CheckReport {
  readonly version: typeof REPORT_VERSION;
  readonly name?: string;
  /** The seed the trials' `random` streams came from, when one was given. */
  readonly seed?: number | string;
  /** Confidence level of every interval in the report. */
  readonly confidence: number;
  /** The k values of passAtK / passHatK. */
  readonly k: readonly number[];
  readonly trials: TrialSummary;
  readonly checks: readonly CheckStats[];
  /** Every errored trial, by trial index. */
  readonly errors: readonly TrialError[];
  /** Trials whose run did not happen as designed (errored, counted in `errors` too), by health item. */
  readonly health?: HealthTotals;
  readonly usage: UsageTotals;
  /** The gate recorded with the run (assertRates and the reporters use it when given none). */
  readonly thresholds?: Thresholds;
  /** Present when trials were left unrun: budget reached, early stop, or aborted. */
  readonly stopped?: StopInfo;
  /** Present when trials it was meant to cover never ran (budget, abort, missing shards): never a pass. */
  readonly incomplete?: IncompleteInfo;
  /** Failing trials kept as examples per check (measure's `failureExamples`); a merge keeps as many. */
  readonly failureExamples?: number;
  /** Present when nothing could be measured (e.g. no API key for a real-API eval): not a pass. */
  readonly skipped?: { readonly reason: string };
  /** This report's slice, when sharded. */
  readonly shard?: ShardSpec;
  /** The shards a merged report was made from (`"1/4"`, …). */
  readonly mergedFrom?: readonly string[];
  /** On the report of an ablated eval's arm WITH the component: each check's change against the arm without it. */
  readonly ablation?: AblationInfo;
  readonly metadata: ReportMetadata;
  readonly timing: Timing;
}
