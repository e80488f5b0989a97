/**
 * JUnit from measure reports and baseline diffs. Pass/fail comes from measure's own gate
 * (evaluateThresholds — the implementation assertRates uses) and from compareReports' verdicts;
 * this file only lays them out as testcases.
 */
import { evaluateThresholds, formatRate, incompleteness, type ThresholdRow } from "../../src/measure/thresholds.js";
import type { CheckReport, CheckStats, Thresholds } from "../../src/measure/types.js";
import { validateCheckReport } from "../../src/measure/schema.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import type { BaselineDiff } from "../baseline/diff.js";
import { buildJunitXml, type JunitCase, type JunitSuite } from "./xml.js";
import { requireObject } from "../../src/errors/arguments.js";
import { withoutArmProblems } from "../../src/measure/ablation-verdict.js";
import { describeParts } from "../../src/measure/ablation-parts.js";

/** Options of `renderJunitReports`. */
export interface JunitReportOptions {
  /** The gate; defaults to each report's recorded thresholds. Without either, checks are listed ungated. */
  readonly thresholds?: Thresholds;
  /** The `<testsuites name>`. @default "proctor" */
  readonly name?: string;
}

const round = (x: number | null | undefined) => (x === null || x === undefined ? undefined : Math.round(x * 1e6) / 1e6);

function statsProperties(c: CheckStats, report: CheckReport, row?: ThresholdRow): JunitCase["properties"] {
  const props: Record<string, string | number | boolean | undefined> = {
    kind: c.kind,
    n: c.n,
    passes: c.passes,
    rate: round(c.rate),
    "interval.low": round(c.interval.low),
    "interval.high": round(c.interval.high),
    confidence: report.confidence,
    flaky: c.flaky,
    meanScore: c.meanScore !== c.rate ? round(c.meanScore) : undefined,
    min: row?.min,
    gatedBy: row?.min !== undefined ? (report.thresholds?.by ?? "rate") : undefined,
  };
  const ablated = report.ablation?.checks.find((a) => a.label === c.label);
  if (ablated) {
    props["ablation.delta"] = round(ablated.delta);
    props["ablation.interval.low"] = round(ablated.interval?.low);
    props["ablation.interval.high"] = round(ablated.interval?.high);
    props["ablation.sequence.low"] = round(ablated.sequence.low);
    props["ablation.sequence.high"] = round(ablated.sequence.high);
    props["ablation.pValue"] = round(ablated.pValue);
    props["ablation.significant"] = ablated.significant;
    props["ablation.without.passes"] = ablated.without.passes;
    props["ablation.without.n"] = ablated.without.n;
    props["ablation.trialsPerArm"] = ablated.trialsPerArm ?? undefined;
    props["ablation.pairs.n"] = ablated.pairs?.n;
    props["ablation.pairs.sequence.low"] = round(ablated.pairs?.sequence.low);
    props["ablation.pairs.sequence.high"] = round(ablated.pairs?.sequence.high);
    const stop = report.ablation?.earlyStop;
    props["ablation.earlyStop.verdict"] = stop?.verdicts.find((v) => v.label === c.label)?.verdict;
    props["ablation.earlyStop.pairs"] = stop?.pairs;
    props["ablation.earlyStop.detect"] = stop?.detect;
    props["ablation.namesRemoved"] = ablated.namesRemoved?.join(", ") || undefined;
  }
  for (const [k, v] of Object.entries(c.passAtK)) props[`pass@${k}`] = round(v);
  for (const [k, v] of Object.entries(c.passHatK)) props[`pass^${k}`] = round(v);
  return props;
}

/** How a report stands in an ablation: the arm with the part (and its arm without, if in the file), or another report's arm without. */
interface ArmRole {
  readonly without?: CheckReport | undefined;
  /** Set on the arm without the part: the report of the arm with it, which carries the eval's verdict. */
  readonly withArm?: CheckReport;
}

function reportSuite(report: CheckReport, index: number, options: JunitReportOptions, role: ArmRole = {}): JunitSuite {
  const name = report.name ?? `report ${index + 1}`;
  const thresholds = options.thresholds ?? report.thresholds;
  const verdict = thresholds ? evaluateThresholds(report, thresholds) : undefined;
  // The ablation's verdict on the arm without the part (evalVerdict's rule): one testcase of the arm with it.
  const armCase = report.ablation && !report.skipped && thresholds ? withoutArmCase(report, role.without, name) : undefined;
  const rows = new Map(verdict?.rows.map((r) => [r.label, r]));
  const cases: JunitCase[] = report.checks.map((c) => {
    const row = rows.get(c.label);
    const examples = c.failures.map((f) => `  trial ${f.trial}: ${f.message.replace(/\n/g, "\n    ")}`).join("\n");
    const output = `${formatRate(c, report.confidence)}${row?.min !== undefined ? ` — minimum ${row.min}` : " — not gated"}${examples ? `\nfailing trials:\n${examples}` : ""}`;
    const base = { name: c.label, className: name, properties: statsProperties(c, report, row), output };
    if (report.skipped) return { ...base, skipped: report.skipped.reason };
    if (row?.pass === false) return { ...base, failure: { text: `${row.reason ?? c.label}${examples ? `\nfailing trials:\n${examples}` : ""}`, type: "below-threshold" } };
    return base;
  });
  // Trials whose run did not happen as designed: an error (no verdict was reached), not a failure —
  // when they are more than the gate tolerates. Within `maxErrored`, or in the arm without an
  // ablated part (whose evidence the arm with it judges), the case only informs.
  const allowed = (role.withArm ?? report).thresholds?.maxErrored ?? 0;
  const health = healthCase(report, name, role.withArm === undefined && report.trials.errored > allowed);
  if (health) cases.push(health);
  if (armCase) cases.push(armCase);
  // Report-level problems (nothing evaluated, too many errored trials) are failures too: one case says them.
  // Errored trials that were all unhealthy are the run-health case's, not a failure of the checks.
  const allUnhealthy = health !== undefined && report.errors.every((e) => e.code === "RUN_UNHEALTHY");
  const problems = (verdict?.problems ?? []).filter((p) => !(allUnhealthy && p.includes("errored")));
  const incomplete = report.skipped || role.withArm ? undefined : incompleteness(report);
  if (verdict && problems.length > 0 && !report.skipped) {
    const type = verdict.status === "incomplete" ? "incomplete" : "report";
    cases.push({ name: "trials", className: name, failure: { text: problems.join("\n"), type } });
  } else if (incomplete) {
    // Ungated, but still not a clean pass: trials it was meant to cover never ran.
    cases.push({ name: "trials", className: name, failure: { text: `incomplete: ${incomplete}`, type: "incomplete" } });
  }
  const t = report.trials;
  return {
    name,
    timeSeconds: report.timing.wallMs / 1000,
    timestamp: new Date(report.timing.startedAt),
    properties: {
      trials: t.requested,
      planned: t.planned,
      completed: t.completed,
      errored: t.errored,
      skipped: t.skipped,
      costUsd: round(report.usage.costUsd),
      seed: report.seed,
      shard: report.shard ? `${report.shard.index}/${report.shard.count}` : undefined,
      stopped: report.stopped?.message,
      incomplete: incomplete,
      proctorVersion: report.metadata.proctorVersion,
      models: report.metadata.models.join(", ") || undefined,
      claudeVersion: report.metadata.agentVersions.join(", ") || undefined,
      "ablation.component": report.ablation?.component,
      "ablation.withoutReport": report.ablation?.withoutReport,
      "ablation.alpha": report.ablation?.alpha,
      "ablation.power": report.ablation?.power,
      "ablation.removed": report.ablation?.removed ? describeParts(report.ablation.removed) || undefined : undefined,
    },
    cases,
  };
}

/**
 * The testcase of the arm without the ablated part, on the arm with it: a failure when that arm
 * cannot stand as the other side of the comparison (no trial evaluated, errored past the eval's
 * allowance, cut short, missing), else a pass saying what it held.
 */
function withoutArmCase(report: CheckReport, without: CheckReport | undefined, className: string): JunitCase {
  const component = report.ablation?.component ?? "the part";
  const { failed, incomplete } = withoutArmProblems(report, without);
  const name = `arm without ${component}`;
  const held = without ? `${without.trials.completed} of ${without.trials.ran} trials evaluated, ${without.trials.errored} errored` : "no report";
  const removed = report.ablation?.removed ? describeParts(report.ablation.removed) : "";
  const output = `${held}${removed ? `; expected missing there (removed with ${component}): ${removed}` : ""}`;
  const properties = { evaluated: without?.trials.completed, errored: without?.trials.errored, unhealthy: without?.health?.unhealthy ?? 0 };
  if (failed.length > 0) return { name, className, properties, output, failure: { text: failed.join("\n"), type: "ablation" } };
  if (incomplete.length > 0) return { name, className, properties, output, failure: { text: incomplete.map((i) => `incomplete: ${i}`).join("\n"), type: "incomplete" } };
  return { name, className, properties, output };
}

/** The `run health` testcase of a report with unhealthy trials: a JUnit error listing the items and each trial's message (or, when tolerated, the same as output only). */
function healthCase(report: CheckReport, className: string, fails = true): JunitCase | undefined {
  const h = report.health;
  if (!h || h.unhealthy === 0) return undefined;
  const items = Object.entries(h.items).map(([item, n]) => `${item} ×${n}`).join(", ");
  const trials = report.errors
    .filter((e) => e.code === "RUN_UNHEALTHY")
    .slice(0, 5)
    .map((e) => `  trial ${e.trial}: ${e.message.replace(/\n/g, "\n    ")}`);
  const text = `${h.unhealthy} of ${report.trials.ran} trials did not happen as designed (${items}), so their checks prove nothing\n${trials.join("\n")}`;
  const base = { name: "run health", className, properties: { unhealthy: h.unhealthy, ...h.items } };
  return fails ? { ...base, error: { text, type: "unhealthy" } } : { ...base, output: `not counted against the gate here: ${text}` };
}

/** The suites of `renderJunitReports`, for combining with others in one file. */
export function reportSuites(reports: readonly CheckReport[], options: JunitReportOptions = {}): JunitSuite[] {
  if (!Array.isArray(reports as unknown)) throw new InvalidInputError("INVALID_INPUT", "reportSuites(reports) needs an array of reports", { input: "reports" });
  const valid = reports.map((r, i) => validateCheckReport(r, `reports[${i}]`));
  const byName = new Map(valid.map((r) => [r.name, r]));
  const withArmOf = new Map(valid.flatMap((r) => (r.ablation ? [[r.ablation.withoutReport, r] as const] : [])));
  return valid.map((r, i) => {
    const withArm = r.ablation ? undefined : withArmOf.get(r.name ?? "");
    return reportSuite(r, i, options, r.ablation ? { without: byName.get(r.ablation.withoutReport) } : withArm ? { withArm } : {});
  });
}

/** One testsuite per report, one testcase per check (rate, interval and n as properties); below threshold is a failure. */
export function renderJunitReports(reports: readonly CheckReport[], options: JunitReportOptions = {}): string {
  return buildJunitXml(reportSuites(reports, options), options.name);
}

/** The suites of `renderJunitDiff`, for combining with others in one file. */
export function diffSuites(diff: BaselineDiff): JunitSuite[] {
  requireObject("diffSuites", "diff", diff, "a baseline diff (from diffBaseline)");
  return diff.evals.map((e) => {
    const className = `baseline: ${e.name}`;
    if (!e.comparison) return { name: className, properties: { status: e.status }, cases: [{ name: "(eval)", className, skipped: `${e.status}: ${e.note}` }] };
    return {
      name: className,
      properties: {
        status: e.status,
        alpha: e.comparison.alpha,
        test: e.comparison.test,
        correction: e.comparison.correction,
        "baseline.claudeVersion": e.comparison.agentVersions?.baseline.join(", ") || undefined,
        "current.claudeVersion": e.comparison.agentVersions?.candidate.join(", ") || undefined,
        claudeVersionsDiffer: e.comparison.agentVersions?.note ? true : undefined,
      },
      cases: e.comparison.checks.map((c) => ({
        name: c.label,
        className,
        properties: {
          verdict: c.verdict,
          "baseline.rate": round(c.baseline?.rate),
          "baseline.n": c.baseline?.n,
          "current.rate": round(c.candidate?.rate),
          "current.n": c.candidate?.n,
          diff: round(c.diff),
          pValue: round(c.pValue),
          adjustedP: round(c.adjustedP),
        },
        output: `${c.verdict}: ${c.note}`,
        ...(c.verdict === "regressed" ? { failure: { text: `regressed: ${c.note}`, type: "regression" } } : {}),
      })),
    };
  });
}

/** One testsuite per eval, one testcase per check; each regression is a failure, an uncomparable eval is skipped. */
export function renderJunitDiff(diff: BaselineDiff, options: { name?: string } = {}): string {
  requireObject("renderJunitDiff", "diff", diff, "a baseline diff (from diffBaseline)");
  requireObject("renderJunitDiff", "options", options, "an options object such as { name }");
  return buildJunitXml(diffSuites(diff), options.name ?? "proctor baseline");
}
