/**
 * `proctor run --html FILE`: one self-contained page of a run — per eval its claude version and
 * trials, each check's rate with its interval drawn as a bar against the gate's minimum, and an
 * ablated eval's deltas with their intervals and p-values. No scripts, no network assets (a
 * Content-Security-Policy forbids any), so it can be attached to a CI run as is. It only renders:
 * the gate's verdict comes from evaluateThresholds, the deltas from the report's ablation field.
 */
import { formatAblationCheck } from "../../src/measure/ablation.js";
import type { AblationEarlyStop } from "../../src/measure/ablation-stop.js";
import { evaluateThresholds, formatRate } from "../../src/measure/thresholds.js";
import { validateCheckReport } from "../../src/measure/schema.js";
import type { CheckReport } from "../../src/measure/types.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { escapeHtml as h } from "../text/sanitize.js";

const CSS = `
:root{color-scheme:light dark;--fg:#1d1f21;--muted:#6a737d;--bg:#fff;--panel:#f6f8fa;--ok:#1a7f37;--bad:#cf222e;--line:#d0d7de;--bar:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8b949e;--bg:#0d1117;--panel:#161b22;--ok:#3fb950;--bad:#f85149;--line:#30363d;--bar:#58a6ff}}
*{box-sizing:border-box}body{margin:0 auto;max-width:72rem;padding:1.5rem;font:14px/1.45 ui-sans-serif,system-ui,sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.3rem;margin:0 0 .3rem}h2{font-size:1.05rem;margin:1.5rem 0 .3rem}.meta{color:var(--muted);margin:.15rem 0}
table{border-collapse:collapse;width:100%;margin:.4rem 0}td,th{padding:.3rem .5rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}
th{font-weight:600;color:var(--muted)}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
.pass{color:var(--ok)}.fail{color:var(--bad)}.ungated{color:var(--muted)}
.scale{position:relative;width:16rem;height:.9rem;background:var(--panel);border:1px solid var(--line);border-radius:3px}
.scale .ci{position:absolute;top:0;bottom:0;background:var(--bar);opacity:.35}.scale .rate{position:absolute;top:-2px;bottom:-2px;width:2px;background:var(--bar)}
.scale .min{position:absolute;top:-4px;bottom:-4px;width:2px;background:var(--bad)}.scale.delta .zero{position:absolute;top:-4px;bottom:-4px;left:50%;width:1px;background:var(--muted)}
`;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
/** Position within [lo, hi] as a CSS percentage. */
const at = (x: number, lo = 0, hi = 1) => `${(((Math.min(hi, Math.max(lo, x)) - lo) / (hi - lo)) * 100).toFixed(2)}%`;

function rateBar(low: number, high: number, rate: number | null, min: number | undefined): string {
  const ci = `<span class="ci" style="left:${at(low)};width:calc(${at(high)} - ${at(low)})"></span>`;
  const point = rate === null ? "" : `<span class="rate" style="left:${at(rate)}"></span>`;
  const gate = min === undefined ? "" : `<span class="min" title="minimum ${pct(min)}" style="left:${at(min)}"></span>`;
  return `<div class="scale" role="img" aria-label="interval ${pct(low)} to ${pct(high)}">${ci}${point}${gate}</div>`;
}

function deltaBar(low: number, high: number, delta: number): string {
  return `<div class="scale delta" role="img" aria-label="delta interval ${pct(low)} to ${pct(high)}"><span class="zero"></span><span class="ci" style="left:${at(low, -1, 1)};width:calc(${at(high, -1, 1)} - ${at(low, -1, 1)})"></span><span class="rate" style="left:${at(delta, -1, 1)}"></span></div>`;
}

function evalSection(report: CheckReport, index: number): string {
  const name = report.name ?? `report ${index + 1}`;
  const verdict = report.thresholds && !report.skipped ? evaluateThresholds(report) : undefined;
  const rows = new Map(verdict?.rows.map((r) => [r.label, r]));
  const claude = report.metadata.agentVersions.length ? report.metadata.agentVersions.join(", ") : "unknown";
  const status = verdict ? verdict.status : report.skipped ? "skipped" : "not gated";
  const t = report.trials;
  const meta = [`claude ${claude}`, `${t.completed} evaluated of ${t.planned} planned`, t.errored ? `${t.errored} errored` : "", report.usage.costUsd ? `$${report.usage.costUsd.toFixed(4)}` : "", report.stopped ? report.stopped.message : ""].filter(Boolean);
  const checkRows = report.checks.map((c) => {
    const row = rows.get(c.label);
    const mark = row?.pass === true ? `<td class="pass">✓</td>` : row?.pass === false ? `<td class="fail">✗</td>` : `<td class="ungated">·</td>`;
    return `<tr class="check" data-label="${h(c.label)}">${mark}<td><code>${h(c.label)}</code></td><td class="rate">${h(formatRate(c, report.confidence))}</td><td>${rateBar(c.interval.low, c.interval.high, c.rate, row?.min)}</td><td>${row?.min === undefined ? "not gated" : `≥ ${pct(row.min)}`}</td></tr>`;
  });
  const a = report.ablation;
  const ablation = a
    ? `<h3>Ablation: with vs without <code>${h(a.component)}</code></h3><table class="ablation"><thead><tr><th>check</th><th>delta</th><th>with − without, ${Math.round(report.confidence * 100)}% interval</th></tr></thead><tbody>${a.checks
        .map(
          (c) =>
            `<tr class="delta${c.significant ? " significant" : ""}" data-label="${h(c.label)}"><td><code>${h(c.label)}</code></td><td>${h(formatAblationCheck(c, a, report.confidence))}</td><td>${c.delta === null || !c.interval ? "" : deltaBar(c.interval.low, c.interval.high, c.delta)}</td></tr>`,
        )
        .join("")}</tbody></table>${a.earlyStop ? `<p class="early-stop">${h(earlyStopText(a.earlyStop))}</p>` : ""}`
    : "";
  return `<section class="eval" id="eval-${index}"><h2>${h(name)} <span class="status ${status === "passed" ? "pass" : status === "failed" ? "fail" : "ungated"}">${h(status)}</span></h2><p class="meta">${h(meta.join(" · "))}</p><table class="checks"><thead><tr><th></th><th>check</th><th>rate</th><th>interval (bar) · minimum (red)</th><th>gate</th></tr></thead><tbody>${checkRows.join("")}</tbody></table>${ablation}</section>`;
}

/** The run report page for these reports (what `proctor run --json` writes). */
export function renderRunReportHtml(reports: readonly CheckReport[], options: { title?: string } = {}): string {
  if (!Array.isArray(reports as unknown)) throw new InvalidInputError("INVALID_INPUT", "renderRunReportHtml(reports) needs an array of reports (what proctor run --json writes)", { input: "reports" });
  reports.forEach((r, i) => {
    validateCheckReport(r, `reports[${i}]`);
  });
  const title = options.title ?? "proctor run";
  const versions = [...new Set(reports.flatMap((r) => r.metadata.agentVersions))].sort();
  const proctor = reports[0]?.metadata.proctorVersion ?? "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${h(title)}</title><style>${CSS}</style></head>
<body><h1>${h(title)}</h1><p class="meta" id="versions">claude ${h(versions.join(", ") || "unknown")} · proctor ${h(proctor)} · ${reports.length} report${reports.length === 1 ? "" : "s"}</p>
${reports.map(evalSection).join("\n")}
</body></html>
`;
}

/** The ablation's early stop in a sentence: where it stopped and what each check showed, or that it ran out of trials first. */
function earlyStopText(e: AblationEarlyStop): string {
  const margin = e.detect === undefined ? "" : `no effect beyond ±${Math.round(Math.abs(e.detect) * 100)} pts${e.defaultDetect ? " (the default margin)" : ""}`;
  const shown = e.verdicts.map((v) => `${v.label}: ${v.verdict === "negligible" ? margin : v.verdict}`).join("; ");
  const level = `${Math.round((1 - e.alpha) * 100)}%`;
  return e.stopped
    ? `Early stop: both arms stopped after ${e.pairs} of ${e.cap} pairs, every check's paired anytime-valid interval settled at ${level} (${shown}).`
    : `Early stop: not settled after ${e.pairs} pairs of ${e.cap} (${shown}; at ${level}).`;
}
