/**
 * The claude version matrix: the same evals measured on several claude versions, each check's rate
 * per version, and whether it moved. Each version after the first is compared with the first by
 * compareReports (Fisher's exact test per check, Holm across an eval's checks), so "changed"
 * means what a baseline regression means.
 */
import { compareReports, type CheckComparison } from "./compare-reports.js";
import type { CheckReport } from "./types.js";
import { formatRate } from "./thresholds.js";

/** The reports of one column of the matrix. */
export interface MatrixColumn {
  readonly version: string;
  readonly reports: readonly CheckReport[];
}

/** One check's row: its rate per version, and its comparison with the first version. */
export interface MatrixRow {
  readonly label: string;
  /** Per version, in column order: the rate text (`66.7% (4/6) [30.0%, 90.3%]`), or undefined when not measured. */
  readonly rates: readonly (string | undefined)[];
  /** Per version after the first: the comparison with the first (undefined when either side lacks the check). */
  readonly versus: readonly (CheckComparison | undefined)[];
}

export interface MatrixEval {
  readonly name: string;
  readonly rows: readonly MatrixRow[];
}

export interface VersionMatrix {
  readonly versions: readonly string[];
  readonly alpha: number;
  readonly evals: readonly MatrixEval[];
  /** `eval: check` of every change significant at alpha (Holm-adjusted within an eval). */
  readonly changed: readonly string[];
}

/** Build the matrix from one column of reports per version (matched by eval name and check label). */
export function versionMatrix(columns: readonly MatrixColumn[], options: { alpha?: number } = {}): VersionMatrix {
  const alpha = options.alpha ?? 0.05;
  const names = [...new Set(columns.flatMap((c) => c.reports.map((r) => r.name ?? "")))];
  const changed: string[] = [];
  const evals = names.map((name): MatrixEval => {
    const per = columns.map((c) => c.reports.find((r) => (r.name ?? "") === name));
    const first = per[0];
    const comparisons = per.slice(1).map((r) => (first && r && !first.skipped && !r.skipped ? compareReports(first, r, { alpha }) : undefined));
    const labels = [...new Set(per.flatMap((r) => r?.checks.map((c) => c.label) ?? []))];
    const rows = labels.map((label): MatrixRow => {
      const rates = per.map((r) => {
        const c = r?.checks.find((x) => x.label === label);
        return r && c ? formatRate(c, r.confidence) : undefined;
      });
      const versus = comparisons.map((cmp) => cmp?.checks.find((c) => c.label === label && c.baseline && c.candidate));
      for (const v of versus) if (v && (v.verdict === "regressed" || v.verdict === "improved")) changed.push(`${name}: ${label}`);
      return { label, rates, versus };
    });
    return { name, rows };
  });
  return { versions: columns.map((c) => c.version), alpha, evals, changed: [...new Set(changed)] };
}

const SIGN: Record<string, string> = { regressed: "▼", improved: "▲", unchanged: "=" };

/** The matrix as text: per eval, a row per check with its rate on each version and the p-value against the first. */
export function renderVersionMatrix(m: VersionMatrix): string {
  const out: string[] = [`claude version matrix: ${m.versions.join(" vs ")} (Fisher's exact test against ${m.versions[0]}, Holm-adjusted per eval, alpha ${m.alpha})`];
  for (const e of m.evals) {
    out.push("", e.name);
    const width = Math.min(40, Math.max(5, ...e.rows.map((r) => r.label.length)));
    const cols = m.versions.map((v, i) => Math.max(v.length, ...e.rows.map((r) => (r.rates[i] ?? "–").length)));
    out.push(`  ${"check".padEnd(width)}  ${m.versions.map((v, i) => v.padEnd(cols[i] ?? 0)).join("  ")}  change`);
    for (const r of e.rows) {
      const label = r.label.length > width ? `${r.label.slice(0, width - 1)}…` : r.label;
      const change = r.versus
        .map((v, i) => (v ? `${SIGN[v.verdict] ?? "?"} ${m.versions[i + 1]}: p = ${(v.adjustedP ?? 1).toPrecision(2)}` : `${m.versions[i + 1]}: not compared`))
        .join("; ");
      out.push(`  ${label.padEnd(width)}  ${r.rates.map((x, i) => (x ?? "–").padEnd(cols[i] ?? 0)).join("  ")}  ${change}`);
    }
  }
  out.push("", m.changed.length === 0 ? `no check's rate differs significantly between the versions` : `${m.changed.length} check${m.changed.length === 1 ? "" : "s"} changed with the claude version: ${m.changed.join("; ")}`);
  return `${out.join("\n")}\n`;
}
