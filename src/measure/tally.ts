/**
 * Per-trial bookkeeping for `measure`, flat in the number of trials: one byte per trial per check
 * and counters — never the Traces themselves.
 */
import type { CheckJSON, CheckResult } from "../checks/check.js";
import { isProctorError } from "../errors/proctor-error.js";
import type { Usage } from "../trace/types.js";
import { emptyUsage, keepLowest, summariseCheck, summariseUsage, UNITS, type UsageCounts } from "./summarise.js";
import type { CheckStats, TrialError, TrialFailure, TrialSummary } from "./types.js";
import { at } from "../util/narrow.js";

const NOT_RUN = 0;
const COMPLETED = 1;
const ERRORED = 2;
const MAX_MESSAGE = 1000;

/** What a run returned, as far as the report cares. */
interface Target {
  readonly usage?: Partial<Usage>;
  readonly source?: { readonly agentVersion?: string; readonly model?: string };
}

const cut = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text);

/** Counts for one measurement over the trial indices [start, end). */
export class Tally {
  readonly status: Uint8Array;
  readonly pass: Uint8Array[];
  readonly passes: number[];
  readonly scoreUnits: number[];
  readonly failures: TrialFailure[][];
  readonly errors: TrialError[] = [];
  readonly usage: UsageCounts = emptyUsage();
  readonly agentVersions = new Set<string>();
  readonly models = new Set<string>();
  completed = 0;
  errored = 0;
  agentMs = 0;

  constructor(
    readonly start: number,
    readonly end: number,
    readonly checks: readonly { label: string; kind: string; json: CheckJSON }[],
    readonly maxExamples: number,
  ) {
    this.status = new Uint8Array(end - start);
    this.pass = checks.map(() => new Uint8Array(end - start));
    this.passes = checks.map(() => 0);
    this.scoreUnits = checks.map(() => 0);
    this.failures = checks.map(() => []);
  }

  /** Record one evaluated trial. */
  record(trial: number, results: readonly CheckResult[], target: Target): void {
    this.status[trial - this.start] = COMPLETED;
    this.completed++;
    results.forEach((r, c) => {
      const score = Number.isFinite(r.score) ? Math.min(1, Math.max(0, r.score)) : 0;
      // One result per check, in the checks' order: `c` indexes every per-check array.
      this.scoreUnits[c] = at(this.scoreUnits, c) + Math.round(score * UNITS);
      if (r.pass) {
        at(this.pass, c)[trial - this.start] = 1;
        this.passes[c] = at(this.passes, c) + 1;
      } else {
        keepLowest(at(this.failures, c), { trial, message: cut(r.message) }, this.maxExamples);
      }
    });
    const u = target.usage;
    if (u && typeof u === "object") {
      this.usage.trialsWithUsage++;
      this.usage.costUnits += Math.round((Number(u.costUsd) || 0) * UNITS);
      this.usage.inputTokens += Math.round(Number(u.inputTokens) || 0);
      this.usage.outputTokens += Math.round(Number(u.outputTokens) || 0);
      this.usage.cacheCreationTokens += Math.round(Number(u.cacheCreationTokens) || 0);
      this.usage.cacheReadTokens += Math.round(Number(u.cacheReadTokens) || 0);
      this.agentMs += Number(u.durationMs) || 0;
    }
    if (typeof target.source?.agentVersion === "string") this.agentVersions.add(target.source.agentVersion);
    if (typeof target.source?.model === "string") this.models.add(target.source.model);
  }

  /**
   * Record a trial whose run threw: listed with its error, never a pass. The claude version of
   * its Trace (an unhealthy run's, or the one a HarnessError carries) still counts: a report
   * whose trials all errored names the claude they errored on.
   */
  recordError(trial: number, error: unknown, target?: unknown): void {
    const version = versionOf(target) ?? versionOf((error as { result?: { trace?: unknown } } | undefined)?.result?.trace);
    if (version) this.agentVersions.add(version);
    this.status[trial - this.start] = ERRORED;
    this.errored++;
    const message = cut(error instanceof Error ? error.message : String(error));
    const health = (error as { health?: { items?: readonly { name: string; status: string }[] } } | undefined)?.health;
    const failed = isProctorError(error) && error.code === "RUN_UNHEALTHY" ? (health?.items ?? []).filter((i) => i.status === "failed").map((i) => i.name) : [];
    this.errors.push(isProctorError(error) ? { trial, message, code: error.code, ...(failed.length ? { health: failed } : {}) } : { trial, message });
  }

  /** Spent so far, in USD. */
  get costUsd(): number {
    return this.usage.costUnits / UNITS;
  }

  /** The half-open index ranges that ran. */
  ranges(): [number, number][] {
    const out: [number, number][] = [];
    let open = -1;
    for (let i = 0; i <= this.status.length; i++) {
      const ran = i < this.status.length && this.status[i] !== NOT_RUN;
      if (ran && open < 0) open = i;
      if (!ran && open >= 0) {
        out.push([this.start + open, this.start + i]);
        open = -1;
      }
    }
    return out;
  }

  /** One character per trial that ran: `1`, `0`, or `E`. */
  outcomes(c: number): string {
    const chars: string[] = [];
    const pass = at(this.pass, c);
    for (let i = 0; i < this.status.length; i++) {
      if (this.status[i] === COMPLETED) chars.push(pass[i] ? "1" : "0");
      else if (this.status[i] === ERRORED) chars.push("E");
    }
    return chars.join("");
  }

  checkStats(confidence: number, ks: readonly number[]): CheckStats[] {
    return this.checks.map((check, c) =>
      summariseCheck(
        { label: check.label, kind: check.kind, check: check.json, n: this.completed, passes: at(this.passes, c), scoreUnits: at(this.scoreUnits, c), outcomes: this.outcomes(c), failures: at(this.failures, c) },
        confidence,
        ks,
      ),
    );
  }

  trialSummary(requested: number): TrialSummary {
    const planned = this.end - this.start;
    const ran = this.completed + this.errored;
    return { requested, planned, ran, completed: this.completed, errored: this.errored, skipped: planned - ran, ranges: this.ranges() };
  }

  usageTotals() {
    return summariseUsage(this.usage);
  }

  sortedErrors(): TrialError[] {
    return [...this.errors].sort((a, b) => a.trial - b.trial);
  }
}

/** The claude version a Trace-like value records (`source.agentVersion`), if any. */
function versionOf(value: unknown): string | undefined {
  const source = typeof value === "object" && value !== null ? (value as { source?: { agentVersion?: unknown } }).source : undefined;
  return typeof source?.agentVersion === "string" ? source.agentVersion : undefined;
}
