/**
 * `compareReports`: did the candidate's rates move, check by check? Fisher's exact test per check
 * (see src/stats/fisher.ts for why not the z test), Holm's adjustment across checks so that
 * comparing twenty checks does not manufacture a regression, and a Newcombe interval for the size
 * of the change.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { compareProportions, holmAdjust } from "../stats/compare.js";
import type { Interval } from "../stats/proportion.js";
import { validateCheckReport } from "./schema.js";
import type { CheckReport, CheckStats } from "./types.js";
import { at } from "../util/narrow.js";
import { versionsText } from "./claude-versions.js";

/** The versions of both sides, with a note when they are not the same set. */
export function versionChange(baseline: CheckReport, candidate: CheckReport): ReportComparison["agentVersions"] {
  const a = [...(baseline.metadata?.agentVersions ?? [])];
  const b = [...(candidate.metadata?.agentVersions ?? [])];
  const same = a.length === b.length && a.every((v) => b.includes(v));
  // Unknown on a side (recorded transcripts without an init line) is not a difference to report.
  if (same || a.length === 0 || b.length === 0) return { baseline: a, candidate: b };
  return { baseline: a, candidate: b, note: `different claude versions: the baseline ran on claude ${versionsText(a)}, this run on claude ${versionsText(b)} — a changed rate may come from the claude update, not from the change under test` };
}

/** What happened to one check between two reports. */
export type ChangeVerdict = "regressed" | "improved" | "unchanged" | "new" | "missing";

/** One side of a comparison. */
export interface SideCounts {
  readonly n: number;
  readonly passes: number;
  readonly rate: number | null;
}

/** One check compared between baseline (a) and candidate (b). */
export interface CheckComparison {
  readonly label: string;
  readonly kind: string;
  readonly verdict: ChangeVerdict;
  /** Absent when the check is `new`. */
  readonly baseline?: SideCounts;
  /** Absent when the check is `missing`. */
  readonly candidate?: SideCounts;
  /** rate(candidate) − rate(baseline); null when a side has no trials or is absent. */
  readonly diff: number | null;
  /** Newcombe interval for `diff` at the reports' confidence. */
  readonly diffInterval: Interval | null;
  /** Fisher's exact two-sided p-value; null for new/missing checks. */
  readonly pValue: number | null;
  /** The p-value after the multiple-comparison correction (what is held to alpha). */
  readonly adjustedP: number | null;
  /** Why the verdict is what it is, in words. */
  readonly note: string;
}

/** The result of comparing two reports. */
export interface ReportComparison {
  readonly alpha: number;
  readonly test: "fisher-exact";
  readonly correction: "holm" | "none";
  readonly checks: readonly CheckComparison[];
  /** Labels of the checks that regressed / improved. */
  readonly regressed: readonly string[];
  readonly improved: readonly string[];
  /**
   * The claude versions each side's traces ran on. A rate that moved between two claude versions
   * may be the update, not the change under test: `note` says so when the sides differ.
   */
  readonly agentVersions: { readonly baseline: readonly string[]; readonly candidate: readonly string[]; readonly note?: string };
}

/** Options of compareReports. */
export interface CompareOptions {
  /** Significance level. @default 0.05 */
  readonly alpha?: number | undefined;
  /**
   * `holm` controls the chance of any false alarm across all compared checks at alpha;
   * `none` holds each check to alpha on its own (more alarms, more false ones).
   * @default "holm"
   */
  readonly correction?: "holm" | "none" | undefined;
}

const side = (c: CheckStats): SideCounts => ({ n: c.n, passes: c.passes, rate: c.rate });
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Compare `candidate` against `baseline`, check by check (matched by label). */
export function compareReports(baseline: CheckReport, candidate: CheckReport, options: CompareOptions = {}): ReportComparison {
  validateCheckReport(baseline, "baseline");
  validateCheckReport(candidate, "candidate");
  const alpha = options.alpha ?? 0.05;
  const correction = options.correction ?? "holm";
  if (!(alpha > 0 && alpha < 1)) throw new InvalidInputError("INVALID_INPUT", `compareReports: alpha must be within (0, 1), e.g. 0.05; got ${JSON.stringify(alpha)}`);
  if (correction !== "holm" && correction !== "none") throw new InvalidInputError("INVALID_INPUT", `compareReports: correction must be "holm" or "none"; got ${JSON.stringify(correction)}`);
  const before = new Map(baseline.checks.map((c) => [c.label, c]));
  const after = new Map(candidate.checks.map((c) => [c.label, c]));
  const confidence = Math.min(baseline.confidence, candidate.confidence);

  const paired = candidate.checks.flatMap((b) => {
    const a = before.get(b.label);
    return a ? [{ a, b }] : [];
  });
  const tests = paired.map(({ a, b }) => compareProportions(a, b, confidence));
  const adjusted = correction === "holm" ? holmAdjust(tests.map((t) => t.pValue)) : tests.map((t) => t.pValue);

  const rows: CheckComparison[] = [];
  paired.forEach(({ a, b }, i) => {
    const { diff, diffInterval, pValue } = at(tests, i);
    const p = at(adjusted, i);
    let verdict: ChangeVerdict = "unchanged";
    let note = `cannot compare: ${a.n === 0 ? "the baseline" : "the candidate"} has no evaluated trials`;
    if (diff !== null && p < alpha && diff < 0) verdict = "regressed";
    else if (diff !== null && p < alpha && diff > 0) verdict = "improved";
    const pText = correction === "holm" ? `p = ${p.toPrecision(2)} (Holm-adjusted; raw ${pValue.toPrecision(2)})` : `p = ${p.toPrecision(2)}`;
    if (diff !== null && a.rate !== null && b.rate !== null) {
      const moved = `${pct(a.rate)} (${a.passes}/${a.n}) → ${pct(b.rate)} (${b.passes}/${b.n})`;
      note = verdict === "unchanged" ? `${moved}: ${pText} ≥ ${alpha}, not a significant change` : `${moved}: ${pText} < ${alpha}`;
    }
    rows.push({ label: b.label, kind: b.kind, verdict, baseline: side(a), candidate: side(b), diff, diffInterval, pValue, adjustedP: p, note });
  });
  for (const b of candidate.checks) {
    if (!before.has(b.label)) rows.push({ label: b.label, kind: b.kind, verdict: "new", candidate: side(b), diff: null, diffInterval: null, pValue: null, adjustedP: null, note: "not in the baseline" });
  }
  for (const a of baseline.checks) {
    if (!after.has(a.label)) rows.push({ label: a.label, kind: a.kind, verdict: "missing", baseline: side(a), diff: null, diffInterval: null, pValue: null, adjustedP: null, note: "in the baseline, not in the candidate" });
  }
  return {
    alpha,
    test: "fisher-exact",
    correction,
    checks: rows,
    regressed: rows.filter((r) => r.verdict === "regressed").map((r) => r.label),
    improved: rows.filter((r) => r.verdict === "improved").map((r) => r.label),
    agentVersions: versionChange(baseline, candidate),
  };
}
