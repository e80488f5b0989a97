/**
 * `proctor show`: a compact, coloured timeline of one run for a terminal — what a person reads
 * to see what the agent did before reading any JSON.
 */
import type { CheckResult } from "../../src/checks/check.js";
import type { ToolStatus, Trace } from "../../src/trace/types.js";
import { validateTrace } from "../../src/trace/schema.js";
import { observedGist, observedLines } from "../../src/checks/observed.js";
import { firstLine, stripAnsi } from "../text/sanitize.js";
import { createPalette, shouldColour, type Palette } from "./colour.js";
import { buildTimeline, describeHook, describeSource, describeUsage, STATUS_MARKS, type CallRow, type TimelineRow } from "./timeline.js";

/** Options of `renderTraceText`. */
export interface TraceTextOptions {
  /** Colour the output. @default shouldColour(process.stdout) */
  readonly colour?: boolean;
  /** Check results to show: failures next to their call, a tally at the end. */
  readonly results?: readonly CheckResult[] | undefined;
  /** Show each call's full input and result, not just the gist. @default false */
  readonly verbose?: boolean | undefined;
}

function statusColour(p: Palette, status: ToolStatus): (text: string) => string {
  switch (status) {
    case "success":
      return p.green;
    case "failure":
    case "invalid":
      return p.red;
    case "denied":
      return p.yellow;
    default:
      return p.magenta;
  }
}

const indent = (depth: number) => (depth > 0 ? `  ${"│ ".repeat(depth)}` : "");
const block = (text: string, pad: string) => stripAnsi(text).replace(/\n/g, `\n${pad}`);

function renderCall(row: CallRow, p: Palette, verbose: boolean, trace: Trace): string[] {
  const { call, index } = row;
  const pad = indent(row.depth);
  const colour = statusColour(p, call.status);
  let head = `${pad}${p.dim(`#${index}`)} ${colour(STATUS_MARKS[call.status])} ${p.bold(call.name)}`;
  if (row.subagent) head += ` ${p.cyan(`[${row.subagent.type}]`)}`;
  if (row.skill) head += ` ${p.cyan(`▸ skill ${row.skill.name}`)}`;
  if (row.summary && !row.skill) head += `  ${row.summary}`;
  if (call.status !== "success") head += `  ${colour(call.status + (call.deniedBy ? ` by ${call.deniedBy}` : ""))}`;
  const lines = [head];
  const sub = `${pad}     `;
  // A PreToolUse hook (proctor gate, say) rewrote the command: what ran is not what the model asked.
  if (call.ran) lines.push(`${sub}${p.cyan("ran")} ${verbose ? block(call.ran.command, `${sub}    `) : firstLine(call.ran.command, 140)}  ${p.dim(`(rewritten by a ${call.ran.by})`)}${call.ran.refused ? `  ${p.yellow(`refused: ${firstLine(call.ran.refused, 80)}`)}` : ""}`);
  // What the call's processes were seen doing (a live run proctor observed), beside the call.
  const observed = observedGist(trace, call);
  if (observed !== undefined) lines.push(`${sub}${observed.startsWith("observed: no effect") ? p.dim(observed) : p.yellow(observed)}`);
  if (verbose) {
    lines.push(`${sub}${p.dim("input")} ${block(JSON.stringify(call.input, null, 2), `${sub}      `)}`);
    if (call.result !== undefined) lines.push(`${sub}${p.dim("result")} ${block(call.result, `${sub}       `)}`);
  } else if (call.result !== undefined && call.result.trim() !== "") {
    const gist = firstLine(call.result, 100);
    lines.push(`${sub}${p.dim("→")} ${call.status === "success" ? p.dim(gist) : colour(gist)}`);
  }
  for (const hook of row.hooks) lines.push(`${sub}${p.blue("hook")} ${hook.blocked ? p.yellow(describeHook(hook)) : p.dim(describeHook(hook))}`);
  for (const failure of row.failures) lines.push(`${sub}${p.red(`✗ ${failure.label}`)}  ${block(failure.message, `${sub}  `)}`);
  return lines;
}

function renderRow(row: TimelineRow, p: Palette, verbose: boolean, trace: Trace): string[] {
  if (row.type === "call") return renderCall(row, p, verbose, trace);
  const pad = indent(row.depth);
  if (row.type === "hook") return [`${pad}${p.blue("hook")} ${row.hook.blocked ? p.yellow(describeHook(row.hook)) : p.dim(describeHook(row.hook))}`];
  const text = verbose ? block(row.reply.text, `${pad}        `) : firstLine(row.reply.text, 110);
  return [`${pad}${p.magenta(`reply ${row.number}`)} ${text}`];
}

/** Render a trace as a terminal timeline (calls, hooks, subagents indented, skills, replies, usage, checks). */
export function renderTraceText(trace: Trace, options: TraceTextOptions = {}): string {
  validateTrace(trace);
  const p = createPalette(options.colour ?? shouldColour(process.stdout));
  const verbose = options.verbose ?? false;
  const timeline = buildTimeline(trace, options.results);
  const out: string[] = [`${p.bold("trace")} ${describeSource(trace)}`];
  if (trace.source.sessionId || trace.source.cwd) {
    out.push(p.dim(`  ${[trace.source.sessionId && `session ${trace.source.sessionId}`, trace.source.cwd && `cwd ${trace.source.cwd}`].filter(Boolean).join("  ")}`));
  }
  out.push("");
  if (timeline.rows.length === 0) out.push(p.dim("  (no tool calls, hooks or replies recorded)"));
  for (const row of timeline.rows) out.push(...renderRow(row, p, verbose, trace));
  out.push("");

  const usage = describeUsage(trace);
  if (usage) out.push(`${p.bold("usage")}  ${usage}`);
  if (trace.files && trace.files.changes.length > 0) {
    const changes = trace.files.changes.map((f) => `${f.change} ${f.path}`).join(", ");
    out.push(`${p.bold("files")}  ${changes}${trace.files.source === "tool-calls" ? p.dim("  (from Write/Edit calls)") : ""}`);
  }
  for (const line of observedLines(trace).filter((l) => !l.startsWith("#"))) out.push(`${p.bold(line.startsWith("confinement") ? "jail" : "observed")}  ${line}`);
  for (const e of trace.errors) out.push(`${p.red("error")}  ${e.kind}${e.line ? ` (line ${e.line})` : ""}: ${firstLine(e.message, 120)}`);

  if (timeline.results.length > 0) {
    const failed = timeline.results.filter((r) => !r.pass);
    const tally = failed.length === 0 ? p.green(`all ${timeline.results.length} passed`) : p.red(`${failed.length} of ${timeline.results.length} failed`);
    out.push(`${p.bold("checks")} ${tally}`);
    for (const r of timeline.results) {
      if (r.pass) out.push(`  ${p.green("✓")} ${r.label}`);
      else {
        const where = r.callIndex !== undefined && timeline.unplaced.indexOf(r) === -1 ? p.dim(` (at #${r.callIndex})`) : "";
        out.push(where ? `  ${p.red("✗")} ${r.label}${where}` : `  ${p.red("✗")} ${r.label}\n      ${block(r.message, "      ")}`);
      }
    }
  }
  return `${out.join("\n")}\n`;
}
