/** Shared wording for check messages: how calls and traces are shown to the reader. */
import type { ToolCall, Trace } from "../trace/types.js";
import { formatValue } from "../match/codec.js";

/** `#3 Bash {"command":"rm -rf x"} → denied` (index is the position in `trace.toolCalls`). */
export function describeCall(call: ToolCall, index: number): string {
  const who = call.agentType ? ` [${call.agentType}]` : "";
  return `#${index} ${call.name}${who} ${formatValue(call.input, 100)} → ${call.status}`;
}

/** `Read ×2, Edit, Bash` in first-use order, or `no tool calls`. */
export function summarizeTools(calls: readonly ToolCall[]): string {
  if (calls.length === 0) return "no tool calls";
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  const parts = [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name));
  return `${parts.join(", ")} (${calls.length} call${calls.length === 1 ? "" : "s"})`;
}

/** Up to `max` calls, one per line, indented; says how many were left out. */
export function listCalls(entries: readonly { call: ToolCall; index: number }[], max = 8): string {
  const shown = entries.slice(0, max).map(({ call, index }) => `    ${describeCall(call, index)}`);
  if (entries.length > max) shown.push(`    … and ${entries.length - max} more`);
  return shown.join("\n");
}

/** Quote agent text for a message: one line, cut. */
export function quote(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

/**
 * Why an absence can't be shown on this trace, or `undefined` when it can. A run that ended
 * without its result line may have been about to do the very thing a negative check forbids.
 */
export function absenceUnprovable(trace: Trace): string | undefined {
  if (!trace.complete) {
    const why = trace.errors.find((e) => e.kind !== "malformed-line")?.message ?? "the run ended without a final result";
    return `the trace is incomplete (${why}), so it cannot show that something did not happen`;
  }
  const unhealthy = trace.errors.find((e) => Object.hasOwn(NOT_AS_DESIGNED, e.kind));
  if (unhealthy) return `the run did not happen as designed (${unhealthy.message}), so it cannot show that something did not happen: ${NOT_AS_DESIGNED[unhealthy.kind]}`;
  return undefined;
}

/**
 * Run problems after which a complete-looking trace still proves no absence: the run asked for did
 * not happen (a plugin or MCP server missing, the model never asked), or the record may miss calls.
 * Each with what to do.
 */
const NOT_AS_DESIGNED: Readonly<Record<string, string>> = Object.freeze({
  "plugin-not-loaded": "fix the plugin so claude loads it (claude plugin validate DIR)",
  "mcp-server-failed": "make the MCP server start (run its command by hand; give absolute paths in the MCP config)",
  "no-model-request": "the model was never asked: find what ended the run first (a slash command's ! preamble, a hook stopping the session)",
  "no-answer": "the model's last answer never arrived: rerun, or raise the retries",
  "unknown-event": "this claude wrote an event carrying calls that proctor does not read: update proctor, or file the event",
});

/** `matching {"command":/rm/}` or an empty string when there is no matcher. */
export function describeMatcher(args: unknown): string {
  return args === undefined ? "" : ` matching ${formatValue(args)}`;
}

/** `exactly 2`, `1–3`, `at least 1`, `at most 0`. */
export function describeRange(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}` : `${min}–${max}`;
  if (min !== undefined) return `at least ${min}`;
  return `at most ${max}`;
}
