/**
 * The verdict of an ablated eval — one rule that the exit code, the console, the JSON reader and
 * the JUnit file all apply, so they cannot disagree. The arm with the part is gated as any eval;
 * the arm without it is not gated on its rates (it is expected to do worse), but it must hold
 * evidence: a comparison with an arm that evaluated nothing, errored past the eval's allowance or
 * was cut short says nothing about the part, and fails closed.
 */
import { evaluateThresholds, incompleteness, type ThresholdVerdict } from "./thresholds.js";
import type { CheckReport } from "./types.js";

/** What keeps the arm without the part from standing as the other side of the comparison. */
export interface WithoutArmProblems {
  /** Missing evidence: the eval fails. */
  readonly failed: readonly string[];
  /** Trials it was meant to run never ran (budget, abort): the eval cannot pass. */
  readonly incomplete: readonly string[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The problems of the arm without the part, held to the with arm's allowance for errored trials
 * (`thresholds.maxErrored`, default 0). A trial that is unhealthy only because the part is gone
 * never gets here: the health gate expects that part to be missing in this arm.
 */
export function withoutArmProblems(withReport: CheckReport, without: CheckReport | undefined): WithoutArmProblems {
  const component = withReport.ablation?.component ?? "the part";
  const arm = `the arm without ${component}`;
  if (!without) return { failed: [`${arm} has no report: nothing to compare with`], incomplete: [] };
  if (without.skipped) return { failed: [`${arm} was skipped (${without.skipped.reason}): nothing to compare with`], incomplete: [] };
  const failed: string[] = [];
  const t = without.trials;
  if (t.completed === 0) failed.push(`${arm} evaluated no trial (${t.ran} ran, ${t.errored} errored): nothing to compare with`);
  const allowed = withReport.thresholds?.maxErrored ?? 0;
  if (t.errored > allowed) {
    const first = without.errors.slice(0, 2).map((e) => `trial ${e.trial}: ${e.message.split("\n")[0]}`).join("; ");
    failed.push(`${arm}: ${plural(t.errored, "trial")} errored (tolerated: ${allowed}) — ${first}${without.errors.length > 2 ? "; …" : ""}`);
  }
  const cut = incompleteness(without);
  return { failed, incomplete: cut ? [`${arm}: ${cut}`] : [] };
}

/**
 * The gate over an eval's report and, when it was ablated, the arm without the part. A report
 * without `ablation` gets exactly `evaluateThresholds`; an ablated one also fails on the without
 * arm's missing evidence and is incomplete when that arm was cut short.
 */
export function evalVerdict(report: CheckReport, without?: CheckReport): ThresholdVerdict {
  const base = evaluateThresholds(report);
  if (!report.ablation || base.status === "skipped") return base;
  const extra = withoutArmProblems(report, without);
  const incomplete = extra.incomplete.map((i) => `incomplete: ${i}`);
  const status = base.status === "failed" || extra.failed.length > 0 ? "failed" : base.status === "incomplete" || incomplete.length > 0 ? "incomplete" : "passed";
  return { status, rows: base.rows, problems: [...base.problems, ...extra.failed, ...incomplete], shortfalls: [...base.shortfalls, ...extra.failed, ...incomplete] };
}

/** One eval's verdict as read back from the reports `proctor run --json` wrote. */
export interface ReportVerdict {
  readonly name: string;
  readonly status: ThresholdVerdict["status"];
  readonly problems: readonly string[];
}

/**
 * The verdict of a whole `proctor run --json` file: each gated report (the arm with the part, for
 * an ablated eval, paired with its arm without by name), judged by `evalVerdict`. A report that is
 * another's arm without the part is judged with it, not on its own; one with no thresholds and no
 * partner is not gated.
 */
export function reportsVerdict(reports: readonly CheckReport[]): ReportVerdict[] {
  const byName = new Map(reports.map((r) => [r.name, r]));
  const arms = new Set(reports.flatMap((r) => (r.ablation ? [r.ablation.withoutReport] : [])));
  return reports.flatMap((r): ReportVerdict[] => {
    if (!r.thresholds || (arms.has(r.name ?? "") && !r.ablation)) return [];
    const v = evalVerdict(r, r.ablation ? byName.get(r.ablation.withoutReport) : undefined);
    return [{ name: r.name ?? "report", status: v.status, problems: v.problems }];
  });
}
