/**
 * diffBaseline: the current run's reports against the baseline's, eval by eval. The statistics —
 * Fisher's exact test per check, Holm's adjustment, the verdicts — are measure's compareReports;
 * this only pairs the reports up and says which evals could not be compared.
 */
import { compareReports, type CheckComparison, type CompareOptions, type ReportComparison } from "../../src/measure/compare-reports.js";
import type { CheckReport } from "../../src/measure/types.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { validateBaseline, type Baseline } from "./format.js";
import { requireObject } from "../../src/errors/arguments.js";
import { ownEntry } from "../../src/util/narrow.js";

/** One eval of the diff. */
export interface EvalDiff {
  readonly name: string;
  /**
   * `compared`: both sides measured; `new`: no baseline for it; `missing`: in the baseline, not in
   * this run; `skipped`: this run measured nothing for it (e.g. no API key) — not compared, not a pass.
   */
  readonly status: "compared" | "new" | "missing" | "skipped";
  /** The per-check comparison, when compared. */
  readonly comparison?: ReportComparison;
  readonly note: string;
}

/** One check that regressed: its comparison's label and note, and the eval it belongs to. */
export type Regression = Pick<CheckComparison, "label" | "note"> & { readonly eval: string };

/** What changed between a baseline and the current reports. */
export interface BaselineDiff {
  readonly alpha: number;
  readonly evals: readonly EvalDiff[];
  /** Every regressed check, across evals. */
  readonly regressions: readonly Regression[];
  /** True when any check regressed (the gate `proctor baseline --check` exits 1 on). */
  readonly regressed: boolean;
}

function byName(current: Baseline | readonly CheckReport[]): Map<string, CheckReport> {
  if (!Array.isArray(current)) return new Map(Object.entries((current as Baseline).evals));
  const map = new Map<string, CheckReport>();
  (current as readonly CheckReport[]).forEach((r, i) => {
    if (typeof r?.name !== "string" || r.name === "") throw new InvalidInputError("INVALID_INPUT", `current reports[${i}] has no name: reports are matched to the baseline by eval name`);
    if (map.has(r.name)) throw new InvalidInputError("INVALID_INPUT", `two current reports are named ${JSON.stringify(r.name)}: merge shards first (proctor merge)`);
    map.set(r.name, r);
  });
  return map;
}

/** Compare `current` (reports or another baseline) with `baseline`, per eval and per check. */
export function diffBaseline(baseline: Baseline, current: Baseline | readonly CheckReport[], options: CompareOptions = {}): BaselineDiff {
  validateBaseline(baseline);
  const now = byName(current);
  const evals: EvalDiff[] = [];
  for (const [name, report] of now) {
    const before = ownEntry(baseline.evals, name);
    if (!before) evals.push({ name, status: "new", note: "not in the baseline; `--update` records it" });
    else if (report.skipped) evals.push({ name, status: "skipped", note: `this run measured nothing: ${report.skipped.reason}` });
    else if (before.skipped) evals.push({ name, status: "skipped", note: `the baseline measured nothing: ${before.skipped.reason}` });
    else evals.push({ name, status: "compared", comparison: compareReports(before, report, options), note: "" });
  }
  for (const name of Object.keys(baseline.evals)) {
    if (!now.has(name)) evals.push({ name, status: "missing", note: "in the baseline, not in this run" });
  }
  const compared = evals.find((e) => e.comparison)?.comparison;
  const regressions = evals.flatMap((e) => (e.comparison?.checks ?? []).filter((c) => c.verdict === "regressed").map((c) => ({ eval: e.name, label: c.label, note: c.note })));
  return { alpha: compared?.alpha ?? options.alpha ?? 0.05, evals, regressions, regressed: regressions.length > 0 };
}

const SIGNS: Record<string, string> = { regressed: "▼", improved: "▲", unchanged: "=", new: "+", missing: "−" };

/** The diff as text, one line per check: `▼ regressed  tool(Bash): 90.0% (18/20) → 40.0% (8/20): p = …`. */
export function renderBaselineDiff(diff: BaselineDiff): string {
  requireObject("renderBaselineDiff", "diff", diff, "a baseline diff (from diffBaseline)");
  const out: string[] = [];
  for (const e of diff.evals) {
    if (!e.comparison) {
      out.push(`${e.name}: ${e.status} — ${e.note}`);
      continue;
    }
    out.push(`${e.name}:`);
    if (e.comparison.agentVersions?.note) out.push(`  ⚠ ${e.comparison.agentVersions.note}`);
    for (const c of e.comparison.checks) out.push(`  ${SIGNS[c.verdict] ?? "?"} ${c.verdict.padEnd(9)} ${c.label}: ${c.note}`);
  }
  const n = diff.regressions.length;
  out.push(n === 0 ? `no regressions (Fisher's exact test, alpha ${diff.alpha})` : `${n} regression${n === 1 ? "" : "s"} (Fisher's exact test, alpha ${diff.alpha})`);
  return `${out.join("\n")}\n`;
}
