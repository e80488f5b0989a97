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
  }
  for (const [k, v] of Object.entries(c.passAtK)) props[`pass@${k}`] = round(v);
  for (const [k, v] of Object.entries(c.passHatK)) props[`pass^${k}`] = round(v);
  return props;
}

function reportSuite(report: CheckReport, index: number, options: JunitReportOptions): JunitSuite {
  const name = report.name ?? `report ${index + 1}`;
  const thresholds = options.thresholds ?? report.thresholds;
  const verdict = thresholds ? evaluateThresholds(report, thresholds) : undefined;
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
  // Trials whose run did not happen as designed: an error (no verdict was reached), not a failure.
  const health = healthCase(report, name);
  if (health) cases.push(health);
  // Report-level problems (nothing evaluated, too many errored trials) are failures too: one case says them.
  // Errored trials that were all unhealthy are the run-health case's, not a failure of the checks.
  const allUnhealthy = health !== undefined && report.errors.every((e) => e.code === "RUN_UNHEALTHY");
  const problems = (verdict?.problems ?? []).filter((p) => !(allUnhealthy && p.includes("errored")));
  const incomplete = report.skipped ? undefined : incompleteness(report);
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
    },
    cases,
  };
}

/** The `run health` testcase of a report with unhealthy trials: a JUnit error listing the items and each trial's message. */
function healthCase(report: CheckReport, className: string): JunitCase | undefined {
  const h = report.health;
  if (!h || h.unhealthy === 0) return undefined;
  const items = Object.entries(h.items).map(([item, n]) => `${item} ×${n}`).join(", ");
  const trials = report.errors
    .filter((e) => e.code === "RUN_UNHEALTHY")
    .slice(0, 5)
    .map((e) => `  trial ${e.trial}: ${e.message.replace(/\n/g, "\n    ")}`);
  const text = `${h.unhealthy} of ${report.trials.ran} trials did not happen as designed (${items}), so their checks prove nothing\n${trials.join("\n")}`;
  return { name: "run health", className, properties: { unhealthy: h.unhealthy, ...h.items }, error: { text, type: "unhealthy" } };
}

/** The suites of `renderJunitReports`, for combining with others in one file. */
export function reportSuites(reports: readonly CheckReport[], options: JunitReportOptions = {}): JunitSuite[] {
  if (!Array.isArray(reports as unknown)) throw new InvalidInputError("INVALID_INPUT", "reportSuites(reports) needs an array of reports", { input: "reports" });
  return reports.map((r, i) => reportSuite(validateCheckReport(r, `reports[${i}]`), i, options));
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
