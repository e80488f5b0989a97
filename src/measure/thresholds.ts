/**
 * The gate over a CheckReport — one implementation, used by `assertRates`, early stopping and
 * the reporters (JUnit from a measure report marks the same checks failed that assertRates names).
 */
import { ProctorError, InvalidInputError } from "../errors/proctor-error.js";
import type { Interval } from "../stats/proportion.js";
import { validateCheckReport } from "./schema.js";
import type { CheckReport, CheckStats, Thresholds } from "./types.js";
import { ownEntry } from "../util/narrow.js";

/** One check held against its minimum. */
export interface ThresholdRow {
  readonly label: string;
  readonly kind: string;
  readonly n: number;
  readonly passes: number;
  readonly rate: number | null;
  readonly interval: Interval;
  /** The minimum that applies, or undefined when the check is not gated. */
  readonly min?: number;
  /** Where the minimum came from: `per[label]`, `per[kind]`, or `min`. */
  readonly source?: "label" | "kind" | "min";
  /** The number compared with `min` (the rate, or the interval's lower bound). */
  readonly value: number | null;
  /** true held, false fell short, undefined not gated. */
  readonly pass?: boolean;
  /** Why it fell short, in words. */
  readonly reason?: string;
}

/** The gate's verdict over one report. */
export interface ThresholdVerdict {
  /**
   * `skipped` when nothing was measured (the report says why); `incomplete` when the rates hold
   * but trials the report was meant to cover never ran (budget, abort, missing shards). Neither
   * is a pass.
   */
  readonly status: "passed" | "failed" | "skipped" | "incomplete";
  readonly rows: readonly ThresholdRow[];
  /** Report-level failures: no trials evaluated, too many errored trials, the skip reason, incompleteness. */
  readonly problems: readonly string[];
  /** Every shortfall as one line each (rows and problems), for messages. */
  readonly shortfalls: readonly string[];
}

/** Thrown by `assertRates`; carries the full verdict. */
export class RatesBelowThresholdError extends ProctorError {
  declare readonly code: "RATES_BELOW_THRESHOLD" | "EVAL_SKIPPED" | "EVAL_INCOMPLETE";
  readonly verdict: ThresholdVerdict;
  constructor(verdict: ThresholdVerdict, reportName?: string) {
    const what = reportName ? `${reportName}: ` : "";
    const n = verdict.shortfalls.length;
    const headline =
      verdict.status === "skipped"
        ? "the eval was skipped — nothing was measured, so nothing passed"
        : verdict.status === "incomplete"
          ? "the measurement is incomplete — trials it was meant to cover never ran, so it cannot pass"
          : `${n} shortfall${n === 1 ? "" : "s"} against the thresholds`;
    super(verdict.status === "skipped" ? "EVAL_SKIPPED" : verdict.status === "incomplete" ? "EVAL_INCOMPLETE" : "RATES_BELOW_THRESHOLD", `${what}${headline}`, {
      detail: verdict.shortfalls.map((s) => `  ✗ ${s}`).join("\n"),
    });
    this.name = "RatesBelowThresholdError";
    this.verdict = verdict;
  }
}

const num = (x: number) => (x * 100).toFixed(x === 0 || x === 1 ? 0 : 1);
const pct = (x: number) => `${num(x)}%`;

/** `45.0% (9/20, 95% CI 25.8–65.8%)`: a rate as people should read it. */
export function formatRate(stats: Pick<CheckStats, "n" | "passes" | "rate" | "interval">, confidence = 0.95): string {
  if (stats.rate === null) return "no evaluated trials";
  return `${pct(stats.rate)} (${stats.passes}/${stats.n}, ${Math.round(confidence * 100)}% CI ${num(stats.interval.low)}–${pct(stats.interval.high)})`;
}

/** Refuse thresholds that cannot mean anything: out-of-range minimums, keys that match no check. */
export function validateThresholds(thresholds: Thresholds, checks: readonly Pick<CheckStats, "label" | "kind">[], where = "thresholds"): void {
  if (typeof thresholds !== "object" || thresholds === null) throw new InvalidInputError("INVALID_INPUT", `${where} must be an object like { min: 0.8, per: { "tool(Bash)": 0.9 } }; got ${JSON.stringify(thresholds)}`);
  const rate = (v: unknown, at: string) => {
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) throw new InvalidInputError("INVALID_INPUT", `${at} must be a rate within 0..1 (0.8 means 80%); got ${JSON.stringify(v)}`);
  };
  const known = new Set(Object.keys(thresholds));
  for (const key of ["min", "per", "by", "maxErrored"]) known.delete(key);
  if (known.size > 0) throw new InvalidInputError("INVALID_INPUT", `${where}: unknown field ${JSON.stringify([...known][0])} (fields: min, per, by, maxErrored)`);
  if (thresholds.min !== undefined) rate(thresholds.min, `${where}.min`);
  if (thresholds.by !== undefined && thresholds.by !== "rate" && thresholds.by !== "lower") throw new InvalidInputError("INVALID_INPUT", `${where}.by must be "rate" or "lower"; got ${JSON.stringify(thresholds.by)}`);
  if (thresholds.maxErrored !== undefined && !(Number.isInteger(thresholds.maxErrored) && thresholds.maxErrored >= 0)) {
    throw new InvalidInputError("INVALID_INPUT", `${where}.maxErrored must be a non-negative integer; got ${JSON.stringify(thresholds.maxErrored)}`);
  }
  for (const [key, min] of Object.entries(thresholds.per ?? {})) {
    rate(min, `${where}.per[${JSON.stringify(key)}]`);
    if (!checks.some((c) => c.label === key || c.kind === key)) {
      throw new InvalidInputError("INVALID_INPUT", `${where}.per[${JSON.stringify(key)}] matches no check label or kind`, {
        detail: `  labels: ${checks.map((c) => JSON.stringify(c.label)).join(", ")}\n  kinds: ${[...new Set(checks.map((c) => c.kind))].join(", ")}`,
      });
    }
  }
  if (thresholds.min === undefined && Object.keys(thresholds.per ?? {}).length === 0) {
    throw new InvalidInputError("INVALID_INPUT", `${where} gates nothing: give min (every check) or per (by label or kind)`);
  }
}

/** The minimum for one check: per[label], then per[kind], then min. */
export function thresholdFor(thresholds: Thresholds, check: Pick<CheckStats, "label" | "kind">): { min: number; source: "label" | "kind" | "min" } | undefined {
  const per = thresholds.per ?? {};
  const byLabel = ownEntry(per, check.label);
  if (byLabel !== undefined) return { min: byLabel, source: "label" };
  const byKind = ownEntry(per, check.kind);
  if (byKind !== undefined) return { min: byKind, source: "kind" };
  if (thresholds.min !== undefined) return { min: thresholds.min, source: "min" };
  return undefined;
}

/** Why the report covers fewer trials than it was meant to, or undefined (reports written before `incomplete` say it with `stopped`). */
export function incompleteness(report: CheckReport): string | undefined {
  if (report.incomplete) return report.incomplete.message;
  const s = report.stopped;
  if (s && s.reason !== "early-stop" && report.trials.skipped > 0) return `${report.trials.ran} of ${report.trials.planned} planned trials ran (${s.message})`;
  return undefined;
}

/** Hold every check of `report` to its minimum; never throws for a shortfall (see assertRates). */
export function evaluateThresholds(report: CheckReport, thresholds: Thresholds | undefined = report?.thresholds): ThresholdVerdict {
  validateCheckReport(report, report?.name ?? "report");
  if (!thresholds) throw new InvalidInputError("INVALID_INPUT", "no thresholds: pass { min, per } or measure with thresholds so the report records them");
  validateThresholds(thresholds, report.checks);
  const by = thresholds.by ?? "rate";
  const rows: ThresholdRow[] = report.checks.map((c) => {
    const base = { label: c.label, kind: c.kind, n: c.n, passes: c.passes, rate: c.rate, interval: c.interval };
    const applies = thresholdFor(thresholds, c);
    const value = by === "lower" ? (c.n === 0 ? null : c.interval.low) : c.rate;
    if (!applies) return { ...base, value };
    const { min, source } = applies;
    const at = `${c.label}: ${formatRate(c, report.confidence)}`;
    if (value === null) return { ...base, min, source, value, pass: false, reason: `${c.label}: no evaluated trials (minimum ${pct(min)})` };
    if (value >= min) return { ...base, min, source, value, pass: true };
    const reason = by === "lower" ? `${at}: lower bound ${pct(value)} < minimum ${pct(min)}` : `${at} < minimum ${pct(min)}`;
    return { ...base, min, source, value, pass: false, reason };
  });
  const problems: string[] = [];
  if (report.skipped) problems.push(`skipped: ${report.skipped.reason}`);
  else {
    if (report.checks.length === 0) problems.push("the report has no checks: an empty report asserts nothing");
    if (report.trials.completed === 0) problems.push(`no trial was evaluated (${report.trials.ran} ran, ${report.trials.errored} errored): an empty report is not a pass`);
    const maxErrored = thresholds.maxErrored ?? 0;
    if (report.trials.errored > maxErrored) {
      const first = report.errors.slice(0, 3).map((e) => `trial ${e.trial}: ${e.message.split("\n")[0]}`).join("; ");
      problems.push(`${report.trials.errored} trial${report.trials.errored === 1 ? "" : "s"} errored (tolerated: ${maxErrored}) — ${first}${report.errors.length > 3 ? "; …" : ""}`);
    }
    if (!rows.some((r) => r.pass !== undefined)) problems.push("no check is gated by these thresholds");
  }
  const incomplete = report.skipped ? undefined : incompleteness(report);
  const shortfalls = [...problems, ...rows.filter((r) => r.pass === false && !report.skipped).map((r) => r.reason ?? r.label)];
  // Rates that fall short fail whatever is missing; rates that hold on part of the trials are not a pass.
  const status = report.skipped ? "skipped" : shortfalls.length > 0 ? "failed" : incomplete ? "incomplete" : "passed";
  if (incomplete) {
    problems.push(`incomplete: ${incomplete}`);
    shortfalls.unshift(`incomplete: ${incomplete}`);
  }
  return { status, rows, problems, shortfalls };
}

/**
 * The CI gate: every gated check's rate ≥ its minimum, no errored trials beyond `maxErrored`, and
 * something actually measured. Throws a RatesBelowThresholdError listing every shortfall;
 * returns the verdict when the gate holds.
 */
export function assertRates(report: CheckReport, thresholds?: Thresholds): ThresholdVerdict {
  const verdict = evaluateThresholds(report, thresholds ?? report?.thresholds);
  if (verdict.status !== "passed") throw new RatesBelowThresholdError(verdict, report.name);
  return verdict;
}
