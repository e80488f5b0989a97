/**
 * The readable end of `proctor run`: per eval, each check's rate with its interval, ✓/✗ against its
 * minimum (measure's gate decided which), errored trials, cost — then one line for the whole run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatRate, type ThresholdRow } from "../../src/measure/thresholds.js";
import type { EvalOutcome } from "../../src/eval/run-evals.js";
import { createPalette, shouldColour, type Palette } from "../trace-view/colour.js";
import { firstLine } from "../text/sanitize.js";
import { requireArray, requireObject } from "../../src/errors/arguments.js";
import { testedRangeWarning, versionsText } from "../../src/measure/claude-versions.js";
import { formatAblationCheck, type AblationInfo } from "../../src/measure/ablation.js";
import { describeParts } from "../../src/measure/ablation-parts.js";
import type { CheckReport } from "../../src/measure/types.js";

const pct = (x: number) => `${(x * 100).toFixed(x === 0 || x === 1 ? 0 : 1)}%`;

function rowLine(row: ThresholdRow | undefined, rate: string, label: string, width: number, p: Palette, incomplete: boolean): string {
  const name = label.padEnd(width);
  if (!row || row.pass === undefined || row.min === undefined) return `    ${p.dim("·")} ${name}  ${rate}${row ? p.dim("  not gated") : ""}`;
  const by = row.value !== row.rate ? ` (lower bound ${row.value === null ? "–" : pct(row.value)})` : "";
  // A rate that holds on part of the trials is not a ✓: the rest never ran.
  if (row.pass && incomplete) return `    ${p.yellow("◌")} ${name}  ${rate}  ${p.yellow(`≥ ${pct(row.min)}${by} so far — incomplete`)}`;
  return row.pass ? `    ${p.green("✓")} ${name}  ${rate}  ${p.dim(`≥ ${pct(row.min)}${by}`)}` : `    ${p.red("✗")} ${name}  ${rate}  ${p.red(`< ${pct(row.min)}${by}`)}`;
}

/** Tiers where no real model answered: the CLI prices the mock's token counts, which no one paid. */
const MODEL_FREE = new Set(["mock", "replay"]);
const isFree = (o: EvalOutcome) => o.tier !== undefined && MODEL_FREE.has(o.tier);

/** What an eval spent: dollars for the real tier, "$0 (mock)" and its tokens for the mock and replay tiers. */
function spent(o: EvalOutcome): string | undefined {
  const r = o.report;
  if (!r) return undefined;
  if (!isFree(o)) return `$${r.usage.costUsd.toFixed(4)}`;
  return `$0 (mock; claude priced it $${r.usage.costUsd.toFixed(4)}) · ${(r.usage.inputTokens + r.usage.outputTokens).toLocaleString("en-US")} tokens`;
}

/** The divergence lines of a failed replayMatches message (after its first line), at most 12. */
function divergenceLines(message: string): string[] {
  const rest = message.split("\n").slice(1).map((l) => l.slice(0, 160));
  return rest.length > 12 ? [...rest.slice(0, 12), `… ${rest.length - 12} more lines (proctor run --traces DIR, then proctor show)`] : rest;
}

/** One eval's block. */
function renderOutcome(o: EvalOutcome, p: Palette): string[] {
  const r = o.report;
  const mark = { passed: p.green("✓"), failed: p.red("✗"), skipped: p.yellow("⊘"), incomplete: p.yellow("◌"), partial: p.blue("◐"), "not-run": p.dim("–") }[o.status];
  // The claude version is part of the verdict: the same checks can mean something else on another one.
  const claude = r && (o.tier === "mock" || o.tier === "replay" || o.tier === "real" || r.metadata.agentVersions.length > 0) ? `claude ${versionsText(r.metadata.agentVersions)}` : undefined;
  const facts = [o.tier, claude, r && `${r.trials.completed + r.trials.errored}/${r.trials.planned} trials`, spent(o), r && `${(r.timing.wallMs / 1000).toFixed(1)} s`].filter(Boolean).join(" · ");
  const lines = [`${mark} ${p.bold(o.definition.name)}${facts ? `  ${p.dim(facts)}` : ""}`];
  if (o.note) lines.push(`    ${p.dim(o.note)}`);
  if (!r) return lines;
  if (r.skipped) {
    lines.push(`    ${p.yellow(`skipped: ${r.skipped.reason}`)} — nothing was measured, so nothing passed`);
    return lines;
  }
  const rows = new Map(o.verdict?.rows.map((row) => [row.label, row]));
  const width = Math.min(48, Math.max(...r.checks.map((c) => c.label.length)));
  const shown = shownLabels(r.checks.map((c) => c.label), width);
  for (const [i, c] of r.checks.entries()) {
    lines.push(rowLine(rows.get(c.label), formatRate(c, r.confidence), shown[i] as string, width, p, o.status === "incomplete"));
    const row = rows.get(c.label);
    if (row?.pass === false && c.failures[0]) lines.push(`        ${p.dim(`e.g. trial ${c.failures[0].trial}: ${firstLine(c.failures[0].message, 110)}`)}`);
    // A replay's divergences are the whole answer: each one, not only the first line.
    if (c.kind === "replayMatches" && c.failures[0]) lines.push(...divergenceLines(c.failures[0].message).map((l) => `        ${p.dim(l)}`));

  }
  if (r.health && r.health.unhealthy > 0) {
    const items = Object.entries(r.health.items).map(([item, n]) => `${item} ×${n}`).join(", ");
    const unhealthy = r.errors.find((e) => e.code === "RUN_UNHEALTHY");
    const fix = /\bfix: ([^\n]*)/.exec(unhealthy?.message ?? "")?.[1];
    lines.push(`    ${p.red(`run health: ${r.health.unhealthy} trial${r.health.unhealthy === 1 ? "" : "s"} did not happen as designed`)} (${items})${fix ? ` — fix: ${firstLine(fix, 140)}` : ""}`);
    // What went wrong, not only the item's name: which hook, server or plugin, and what it printed.
    const what = /^\s*\u2717 ([^\n]*)/m.exec(unhealthy?.message ?? "")?.[1];
    if (unhealthy && what) lines.push(`        ${p.dim(`e.g. trial ${unhealthy.trial}: ${firstLine(what, 300)}`)}`);
  }
  if (r.trials.errored > 0) {
    const first = r.errors.slice(0, 2).map((e) => `trial ${e.trial}: ${firstLine(e.message, 100)}`).join("; ");
    lines.push(`    ${p.red(`${r.trials.errored} trial${r.trials.errored === 1 ? "" : "s"} errored`)} — ${first}${r.errors.length > 2 ? "; …" : ""}`);
  }
  if (r.stopped && o.status !== "incomplete") lines.push(`    ${p.yellow(`stopped early: ${r.stopped.message}`)}`);
  if (r.ablation) lines.push(...ablationLines(o, width, p));
  // The with arm's errored trials are listed above; the arm without's problems are the verdict's own reasons.
  for (const problem of o.verdict?.problems ?? []) if (!problem.includes("errored") || problem.startsWith("the arm without")) lines.push(`    ${problem.startsWith("incomplete:") ? p.yellow(problem) : p.red(problem)}`);
  return lines;
}

/** One arm's evidence: trials evaluated of those that ran, run health, errors (the first one's message). */
function armLine(name: string, r: CheckReport | undefined, p: Palette, note?: string): string {
  if (!r) return `      ${name.padEnd(8)} ${p.red("not run: nothing to compare with")}`;
  const t = r.trials;
  const parts = [`${t.completed}/${t.ran} trials evaluated`];
  const unhealthy = r.health?.unhealthy ?? 0;
  parts.push(unhealthy > 0 ? p.red(`run health: ${unhealthy} unhealthy (${Object.entries(r.health?.items ?? {}).map(([item, n]) => `${item} ×${n}`).join(", ")})`) : "run health ok");
  const other = t.errored - unhealthy;
  if (other > 0) parts.push(p.red(`${other} errored`));
  const first = r.errors[0];
  const example = first ? p.dim(` — e.g. trial ${first.trial}: ${firstLine(first.message, 100)}`) : "";
  return `      ${name.padEnd(8)} ${parts.join(" · ")}${note ? ` · ${p.dim(note)}` : ""}${example}`;
}

/** The ablation block: each arm's evidence, then each check's delta, then how the early stop stands. */
function ablationLines(o: EvalOutcome, width: number, p: Palette): string[] {
  const r = o.report as CheckReport;
  const a = r.ablation as AblationInfo;
  const removed = a.removed ? describeParts(a.removed) : "";
  const lines = [
    `    ${p.bold(`ablation: with vs without ${a.component}`)}`,
    armLine("with", r, p),
    armLine("without", o.without, p, removed ? `not loaded there, as expected (removed with ${a.component}): ${removed}` : undefined),
  ];
  for (const c of a.checks) {
    const mark = c.delta === null ? p.dim("·") : c.significant ? (c.delta > 0 ? p.green("▲") : p.red("▼")) : p.dim("≈");
    lines.push(`    ${mark} ${c.label.padEnd(width)}  ${formatAblationCheck(c, a, r.confidence)}`);
    if (c.namesRemoved?.length) lines.push(`        ${p.dim(`names ${c.namesRemoved.join(", ")}, removed with ${a.component}: failing without it is the expected effect (a failed check there, not an error)`)}`);
  }
  const e = a.earlyStop;
  if (e && !e.stopped) {
    const open = a.checks.filter((c) => e.verdicts.some((v) => v.label === c.label && v.verdict === "open"));
    const span = (c: (typeof open)[number]) => (c.pairs ? ` ${signedPts(c.pairs.sequence.low)}…${signedPts(c.pairs.sequence.high)}` : "");
    const margin = e.detect === undefined ? "clear of 0" : `clear of 0, or within ±${Math.round(Math.abs(e.detect) * 100)} pts${e.defaultDetect ? " (the default margin)" : ""}`;
    const widest = Math.max(0, ...open.map((c) => (c.pairs ? Math.max(Math.abs(c.pairs.sequence.low), Math.abs(c.pairs.sequence.high)) : 1)));
    const settle = Math.min(1, Math.ceil((widest + 1e-9) * 10) / 10);
    const hint = e.detect === undefined || settle > Math.abs(e.detect) ? `; --detect ${settle} would settle ${open.length === 1 ? "it" : "them"}, or raise --trials` : "; raise --trials";
    lines.push(`    ${p.yellow(`early stop: not settled after ${e.pairs} pairs — still open at ${Math.round((1 - e.alpha) * 100)}%: ${open.map((c) => `${c.label}${span(c)}`).join(", ")} (each needs its interval ${margin})${hint}`)}`);
  }
  return lines;
}

const signedPts = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(Math.round(x * 100))}`;

/** The whole summary: one block per eval, then the tally, cost and time. */
export function renderRunSummary(outcomes: readonly EvalOutcome[], options: { colour?: boolean } = {}): string {
  requireArray("renderRunSummary", "outcomes", outcomes, "the outcomes runEvals returns");
  requireObject("renderRunSummary", "options", options, "an options object such as { colour: false }");
  const p = createPalette(options.colour ?? shouldColour(process.stdout));
  const out = outcomes.flatMap((o) => [...renderOutcome(o, p), ""]);
  const count = (s: EvalOutcome["status"]) => outcomes.filter((o) => o.status === s).length;
  const parts = [`${count("passed")} passed`];
  if (count("failed")) parts.push(p.red(`${count("failed")} failed`));
  if (count("skipped")) parts.push(p.yellow(`${count("skipped")} skipped`));
  if (count("incomplete")) parts.push(p.yellow(`${count("incomplete")} incomplete`));
  if (count("partial")) parts.push(`${count("partial")} partial (shard)`);
  if (count("not-run")) parts.push(`${count("not-run")} not run`);
  const paid = outcomes.filter((o) => o.report && !isFree(o));
  const cost = paid.reduce((sum, o) => sum + (o.report?.usage.costUsd ?? 0), 0);
  const money = paid.length === 0 ? "$0 (mock)" : `$${cost.toFixed(4)}`;
  const ms = outcomes.reduce((sum, o) => sum + (o.report?.timing.wallMs ?? 0), 0);
  out.push(`${p.bold(`${outcomes.length} eval${outcomes.length === 1 ? "" : "s"}`)}: ${parts.join(", ")} · ${money} · ${(ms / 1000).toFixed(1)} s`);
  for (const warning of versionWarnings(outcomes)) out.push(p.yellow(`⚠ ${warning}`));
  return `${out.join("\n")}\n`;
}

/** One warning per claude version the run's traces came from that is outside the tested range. */
export function versionWarnings(outcomes: readonly EvalOutcome[]): string[] {
  const versions = new Set(outcomes.flatMap((o) => o.report?.metadata.agentVersions ?? []));
  return [...versions].flatMap((v) => testedRangeWarning(v) ?? []);
}

function omittedLabels(file: string): Set<string> {
  if (!existsSync(file)) return new Set();
  try {
    return new Set((JSON.parse(readFileSync(file, "utf8")) as { label: string }[]).map((o) => o.label));
  } catch {
    return new Set();
  }
}

/**
 * From a red ✗ to its cause in one step: for each failed check, the `proctor show` line that opens
 * its first failing trial (kept by `proctor run --traces DIR`) with the checks beside their calls.
 */
export function renderTraceHints(outcomes: readonly EvalOutcome[], dirOf: (evalName: string) => string): string {
  const lines: string[] = [];
  for (const o of outcomes) {
    const r = o.report;
    if (!r) continue;
    const dir = dirOf(o.definition.name);
    const checks = join(dir, "checks.json");
    const omitted = omittedLabels(join(dir, "checks.omitted.json"));
    for (const c of r.checks) {
      const trial = c.failures[0]?.trial;
      if (trial === undefined) continue;
      const file = join(dir, `trial-${trial}.json`);
      if (!existsSync(file)) continue;
      const note = omitted.has(c.label) ? " (this check holds a function and is not in checks.json: re-run the eval to judge it)" : "";
      lines.push(`  ✗ ${c.label} — npx proctor show ${file}${existsSync(checks) ? ` --checks ${checks}` : ""}${note}`);
    }
  }
  return lines.length ? `open the first failing trial of each check:\n${lines.join("\n")}\n` : "";
}

/**
 * Labels cut to `width` for the table — except where two would then read the same: those are
 * shown whole, so no two rows of one eval look alike.
 */
export function shownLabels(labels: readonly string[], width: number): string[] {
  const cut = labels.map((l) => (l.length > width ? `${l.slice(0, width - 1)}…` : l));
  const seen = new Map<string, number>();
  for (const c of cut) seen.set(c, (seen.get(c) ?? 0) + 1);
  return cut.map((c, i) => ((seen.get(c) ?? 0) > 1 ? (labels[i] as string) : c));
}
