/**
 * `proctor show --html`: one self-contained HTML page of a run — the terminal timeline's
 * content, with each failed check drawn next to the call it is about. No scripts and no network
 * assets (a Content-Security-Policy forbids any), so the file can be attached to a CI run as is.
 */
import type { CheckResult } from "../../src/checks/check.js";
import type { Trace } from "../../src/trace/types.js";
import { validateTrace } from "../../src/trace/schema.js";
import { observedGist, observedLines } from "../../src/checks/observed.js";
import { escapeHtml as h } from "../text/sanitize.js";
import { buildTimeline, describeHook, describeSource, describeUsage, STATUS_MARKS, type CallRow, type TimelineRow } from "./timeline.js";

/** Options of `renderTraceHtml`. */
export interface TraceHtmlOptions {
  /** Check results: failures appear under their call, all of them in the summary. */
  readonly results?: readonly CheckResult[] | undefined;
  /** The page title. @default "proctor trace" */
  readonly title?: string | undefined;
}

const MAX_DEPTH_STYLED = 6;

const CSS = `
:root{color-scheme:light dark;--fg:#1d1f21;--muted:#6a737d;--bg:#fff;--panel:#f6f8fa;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--other:#8250df;--line:#d0d7de}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8b949e;--bg:#0d1117;--panel:#161b22;--ok:#3fb950;--bad:#f85149;--warn:#d29922;--other:#bc8cff;--line:#30363d}}
*{box-sizing:border-box}body{margin:0 auto;max-width:72rem;padding:1.5rem;font:14px/1.45 ui-sans-serif,system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.3rem;margin:0 0 .3rem}h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
.meta{color:var(--muted);margin:.15rem 0}code,pre,.line{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
pre{white-space:pre-wrap;word-break:break-word;margin:.3rem 0;padding:.5rem;background:var(--panel);border:1px solid var(--line);border-radius:4px;max-height:24rem;overflow:auto}
ol.timeline{list-style:none;margin:0;padding:0}ol.timeline>li{padding:.35rem .5rem;border-left:3px solid var(--line);margin:.2rem 0}
${Array.from({ length: MAX_DEPTH_STYLED }, (_, d) => `.depth-${d + 1}{margin-left:${(d + 1) * 1.75}rem!important}`).join("")}
.status-success{border-left-color:var(--ok)!important}.status-failure,.status-invalid{border-left-color:var(--bad)!important}.status-denied{border-left-color:var(--warn)!important}.status-partial,.status-pending,.status-absent{border-left-color:var(--other)!important}
.mark{display:inline-block;width:1.2em;text-align:center;font-weight:bold}.status-success .mark{color:var(--ok)}.status-failure .mark,.status-invalid .mark{color:var(--bad)}.status-denied .mark{color:var(--warn)}
.idx{color:var(--muted);margin-right:.3rem}.name{font-weight:bold}.tag{color:var(--other);margin-left:.4rem}.gist{margin-left:.6rem}.state{margin-left:.6rem;color:var(--warn)}
.result{color:var(--muted);margin:.15rem 0 0 1.5rem}details{margin:.2rem 0 0 1.5rem}summary{cursor:pointer;color:var(--muted)}
ul.hooks,ul.failures{list-style:none;margin:.2rem 0 0 1.5rem;padding:0}.hook{color:var(--muted)}.hook.blocked{color:var(--warn)}
.check-failed{color:var(--bad);border:1px solid var(--bad);border-radius:4px;padding:.3rem .5rem;margin:.3rem 0}.check-failed pre{color:var(--fg)}
li.reply{border-left-color:var(--other)}.reply .label{color:var(--other);font-weight:bold;margin-right:.5rem}
li.loose-hook{border-left-style:dashed}
.observed{color:var(--muted)}.observed.effects{color:var(--warn)}
.checks li.pass{color:var(--ok)}.checks li.fail{color:var(--bad)}.checks ul{padding-left:1.2rem}.checks a{color:inherit}
table{border-collapse:collapse}td{padding:.1rem .8rem .1rem 0;vertical-align:top}
`;

function renderCall(row: CallRow, trace: Trace): string {
  const { call, index } = row;
  const parts = [`<span class="idx">#${index}</span><span class="mark" title="${h(call.status)}">${STATUS_MARKS[call.status]}</span><span class="name">${h(call.name)}</span>`];
  if (row.subagent) parts.push(`<span class="tag">[${h(row.subagent.type)}]</span>`);
  if (row.skill) parts.push(`<span class="tag">▸ skill ${h(row.skill.name)}</span>`);
  if (row.summary && !row.skill) parts.push(`<span class="gist">${h(row.summary)}</span>`);
  if (call.status !== "success") parts.push(`<span class="state">${h(call.status)}${call.deniedBy ? ` by ${h(call.deniedBy)}` : ""}</span>`);
  if (call.agentType && !row.subagent) parts.push(`<span class="tag">(${h(call.agentType)})</span>`);
  const body = [`<div class="line">${parts.join("")}</div>`];
  if (call.ran) body.push(`<p class="result ran">ran <code>${h(call.ran.command)}</code> (rewritten by a ${h(call.ran.by)})${call.ran.refused ? ` · refused: ${h(call.ran.refused)}` : ""}</p>`);
  const observed = observedGist(trace, call);
  if (observed !== undefined) body.push(`<p class="result observed${observed.startsWith("observed: no effect") ? "" : " effects"}">${h(observed)}</p>`);
  body.push(`<details><summary>input${call.result === undefined ? "" : " and result"}</summary><pre class="input">${h(JSON.stringify(call.input, null, 2))}</pre>${call.result === undefined ? "<p class=\"meta\">no result came back</p>" : `<pre class="result-text">${h(call.result)}</pre>`}</details>`);
  if (row.hooks.length > 0) body.push(`<ul class="hooks">${row.hooks.map((k) => `<li class="hook${k.blocked ? " blocked" : ""}">hook ${h(describeHook(k))}</li>`).join("")}</ul>`);
  if (row.failures.length > 0) {
    body.push(`<ul class="failures">${row.failures.map((f) => `<li class="check-failed" data-check="${h(f.label)}">✗ <strong>${h(f.label)}</strong><pre>${h(f.message)}</pre></li>`).join("")}</ul>`);
  }
  return `<li class="call status-${call.status} depth-${Math.min(row.depth, MAX_DEPTH_STYLED)}" id="call-${index}" data-call-index="${index}">${body.join("")}</li>`;
}

function renderRow(row: TimelineRow, trace: Trace): string {
  if (row.type === "call") return renderCall(row, trace);
  const depth = `depth-${Math.min(row.depth, MAX_DEPTH_STYLED)}`;
  if (row.type === "hook") return `<li class="loose-hook hook${row.hook.blocked ? " blocked" : ""} ${depth}">hook ${h(describeHook(row.hook))}</li>`;
  return `<li class="reply ${depth}"><span class="label">reply ${row.number}</span><pre>${h(row.reply.text)}</pre></li>`;
}

function renderChecks(results: readonly CheckResult[], placed: (r: CheckResult) => boolean): string {
  if (results.length === 0) return "";
  const failed = results.filter((r) => !r.pass).length;
  const items = results.map((r) => {
    if (r.pass) return `<li class="pass">✓ ${h(r.label)}</li>`;
    const at = placed(r) ? ` — <a href="#call-${r.callIndex}">at call #${r.callIndex}</a>` : "";
    return `<li class="fail">✗ <strong>${h(r.label)}</strong>${at}<pre>${h(r.message)}</pre></li>`;
  });
  const tally = failed === 0 ? `all ${results.length} passed` : `${failed} of ${results.length} failed`;
  return `<section class="checks" id="checks"><h2>Checks: ${tally}</h2><ul>${items.join("")}</ul></section>`;
}

/** Render a trace as one self-contained HTML page (no scripts, no network assets). */
export function renderTraceHtml(trace: Trace, options: TraceHtmlOptions = {}): string {
  validateTrace(trace);
  const timeline = buildTimeline(trace, options.results);
  const title = options.title ?? "proctor trace";
  const usage = describeUsage(trace);
  const meta = [`<p class="meta source">${h(describeSource(trace))}</p>`];
  if (trace.source.sessionId) meta.push(`<p class="meta">session <code>${h(trace.source.sessionId)}</code></p>`);
  if (trace.source.cwd) meta.push(`<p class="meta">cwd <code>${h(trace.source.cwd)}</code></p>`);
  if (usage) meta.push(`<p class="meta usage">usage: ${h(usage)}</p>`);

  const extra: string[] = [];
  if (trace.output !== undefined) extra.push(`<h2>Output</h2><pre class="output">${h(trace.output)}</pre>`);
  if (trace.files && trace.files.changes.length > 0) {
    const rows = trace.files.changes.map((f) => `<tr><td>${h(f.change)}</td><td><code>${h(f.path)}</code></td></tr>`).join("");
    extra.push(`<h2>Files${trace.files.source === "tool-calls" ? " (from Write/Edit calls)" : ""}</h2><table class="files">${rows}</table>`);
  }
  const runLevel = observedLines(trace).filter((l) => !l.startsWith("#"));
  if (runLevel.length > 0) extra.push(`<h2>Observed and refused</h2><ul class="observed">${runLevel.map((l) => `<li>${h(l)}</li>`).join("")}</ul>`);
  if (trace.errors.length > 0) extra.push(`<h2>Run errors</h2><ul class="errors">${trace.errors.map((e) => `<li><code>${h(e.kind)}</code>${e.line ? ` line ${e.line}` : ""}: ${h(e.message)}</li>`).join("")}</ul>`);

  const placed = (r: CheckResult) => !timeline.unplaced.includes(r);
  const rows = timeline.rows.length > 0 ? timeline.rows.map((row) => renderRow(row, trace)).join("\n") : `<li class="meta">no tool calls, hooks or replies recorded</li>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${h(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>${h(title)}</h1>${meta.join("")}</header>
${renderChecks(timeline.results, placed)}
<h2>Timeline: ${trace.toolCalls.length} call${trace.toolCalls.length === 1 ? "" : "s"}</h2>
<ol class="timeline">
${rows}
</ol>
${extra.join("\n")}
</body>
</html>
`;
}
