/**
 * The timeline both trace views draw: the run's calls in order with their hooks attached,
 * subagent calls nested under the dispatch that made them, replies and loose hooks where they
 * happened, and each failed check placed next to the call it is about. Pure: it only arranges.
 */
import type { CheckResult } from "../../src/checks/check.js";
import { formatValue } from "../../src/match/codec.js";
import type { HookEvent, Reply, SkillActivation, SubagentRun, ToolCall, ToolStatus, Trace } from "../../src/trace/types.js";
import { MAIN_AGENT } from "../../src/trace/types.js";
import { firstLine } from "../text/sanitize.js";

/** One tool call on the timeline. */
export interface CallRow {
  readonly type: "call";
  /** Nesting: 0 for the main agent, 1 for a subagent's call, … */
  readonly depth: number;
  /** Index into `trace.toolCalls` (the `#n` people and CheckResult.callIndex refer to). */
  readonly index: number;
  readonly call: ToolCall;
  /** The one-line gist of the input (`command`, `file_path`, …). */
  readonly summary: string;
  /** Set when this call dispatched a subagent. */
  readonly subagent?: SubagentRun;
  /** Set when this call activated a skill. */
  readonly skill?: SkillActivation;
  /** Hooks that fired about this call, in order. */
  readonly hooks: readonly HookEvent[];
  /** Failed checks whose `callIndex` is this call. */
  readonly failures: readonly CheckResult[];
}

/** A hook that was about no particular call (Stop, SubagentStop, SessionStart, …). */
export interface HookRow {
  readonly type: "hook";
  readonly depth: number;
  readonly hook: HookEvent;
}

/** A turn-ending reply of the main agent. */
export interface ReplyRow {
  readonly type: "reply";
  readonly depth: number;
  /** 1-based reply number. */
  readonly number: number;
  readonly reply: Reply;
}

export type TimelineRow = CallRow | HookRow | ReplyRow;

/** The arranged run plus the checks that could not be pinned to a call. */
export interface Timeline {
  readonly rows: readonly TimelineRow[];
  /** Every check result given, in order. */
  readonly results: readonly CheckResult[];
  /** Failed checks with no `callIndex` (or one outside the trace): shown with the summary. */
  readonly unplaced: readonly CheckResult[];
}

/** Marks for each status, shared by both views. */
export const STATUS_MARKS: Readonly<Record<ToolStatus, string>> = {
  success: "✓",
  failure: "✗",
  denied: "⊘",
  invalid: "?",
  partial: "◐",
  pending: "…",
  absent: "–",
};

const GIST_KEYS = ["command", "file_path", "notebook_path", "path", "pattern", "url", "query", "skill", "description", "prompt"];

/** The one-line gist of a call's input: its most telling field, else the compact JSON. */
export function summariseInput(call: ToolCall): string {
  for (const key of GIST_KEYS) {
    const value = call.input[key];
    if (typeof value === "string" && value.trim() !== "") return firstLine(value, 90);
  }
  return Object.keys(call.input).length === 0 ? "" : formatValue(call.input, 90);
}

/** Arrange a trace (and optional check results) into the rows both views draw. */
export function buildTimeline(trace: Trace, results: readonly CheckResult[] = []): Timeline {
  const calls = trace.toolCalls;
  const byId = new Map(calls.map((c, i) => [c.id, i]));
  const depths = new Map<string, number>([[MAIN_AGENT, 0]]);
  const depthOf = (agent: string, seen = new Set<string>()): number => {
    const known = depths.get(agent);
    if (known !== undefined) return known;
    const parent = byId.get(agent);
    // An unknown dispatcher (a damaged transcript) or a cycle: still indent once.
    const dispatcher = parent === undefined ? undefined : calls[parent];
    const depth = dispatcher === undefined || seen.has(agent) ? 1 : depthOf(dispatcher.agent, seen.add(agent)) + 1;
    depths.set(agent, depth);
    return depth;
  };

  const hooksByCall = new Map<string, HookEvent[]>();
  const looseHooks: HookEvent[] = [];
  for (const hook of trace.hooks) {
    if (hook.callId !== undefined && byId.has(hook.callId)) {
      const list = hooksByCall.get(hook.callId) ?? [];
      list.push(hook);
      hooksByCall.set(hook.callId, list);
    } else looseHooks.push(hook);
  }
  const subagentByCall = new Map(trace.subagents.map((s) => [s.id, s]));
  const skillByCall = new Map(trace.skills.map((s) => [s.callIndex, s]));

  const failuresByCall = new Map<number, CheckResult[]>();
  const unplaced: CheckResult[] = [];
  for (const result of results) {
    if (result.pass) continue;
    const at = result.callIndex;
    if (at !== undefined && Number.isInteger(at) && at >= 0 && at < calls.length) {
      failuresByCall.set(at, [...(failuresByCall.get(at) ?? []), result]);
    } else unplaced.push(result);
  }

  // Replies and loose hooks carry `at`: the number of calls made before them.
  const rows: TimelineRow[] = [];
  let replyNumber = 0;
  const placeBefore = (position: number, last: boolean) => {
    const hooks = looseHooks.filter((h) => (last ? h.at >= position : h.at === position));
    const replies = trace.replies.filter((r) => (last ? r.at >= position : r.at === position));
    const anchor = position > 0 ? calls[position - 1] : undefined;
    const anchorDepth = anchor ? depthOf(anchor.agent) : 0;
    for (const hook of hooks) rows.push({ type: "hook", depth: hook.event === "SubagentStop" ? Math.max(1, anchorDepth) : 0, hook });
    for (const reply of replies) rows.push({ type: "reply", depth: 0, number: ++replyNumber, reply });
  };
  calls.forEach((call, index) => {
    placeBefore(index, false);
    const subagent = subagentByCall.get(call.id);
    const skill = skillByCall.get(index);
    rows.push({
      type: "call",
      depth: depthOf(call.agent),
      index,
      call,
      summary: summariseInput(call),
      ...(subagent ? { subagent } : {}),
      ...(skill ? { skill } : {}),
      hooks: hooksByCall.get(call.id) ?? [],
      failures: failuresByCall.get(index) ?? [],
    });
  });
  placeBefore(calls.length, true);
  return { rows, results, unplaced };
}

/** `1,234 in · 56 out · 10 cache-write · 20 cache-read · $0.0043 · 0.5 s · 3 turns`. */
export function describeUsage(trace: Trace): string | undefined {
  const u = trace.usage;
  const parts: string[] = [];
  if (u) {
    parts.push(`${u.inputTokens.toLocaleString("en-US")} in`, `${u.outputTokens.toLocaleString("en-US")} out`);
    if (u.cacheCreationTokens) parts.push(`${u.cacheCreationTokens.toLocaleString("en-US")} cache-write`);
    if (u.cacheReadTokens) parts.push(`${u.cacheReadTokens.toLocaleString("en-US")} cache-read`);
    // A mock-model run (its requests were captured) cost nothing; claude still prices the tokens the
    // mock reported, which is shown beside the $0 as the run summary shows it.
    const mock = (trace.modelRequests?.length ?? 0) > 0;
    const money = u.costUsd === undefined ? "cost not reported" : mock ? `$0 (mock; claude priced it $${u.costUsd.toFixed(4)})` : `$${u.costUsd.toFixed(4)}`;
    parts.push(money, u.durationMs === undefined ? "duration not reported" : `${(u.durationMs / 1000).toFixed(1)} s`);
  }
  if (trace.turns !== undefined) parts.push(`${trace.turns} turn${trace.turns === 1 ? "" : "s"}`);
  return parts.length ? parts.join(" · ") : undefined;
}

/** `transcript · claude 2.1.197 · claude-opus-4 · complete (success)`. */
export function describeSource(trace: Trace): string {
  const s = trace.source;
  const parts: string[] = [s.kind];
  if (s.agentVersion) parts.push(`claude ${s.agentVersion}`);
  if (s.model) parts.push(s.model);
  if (s.permissionMode) parts.push(`permissions: ${s.permissionMode}`);
  const outcome = trace.outcome ? ` (${trace.outcome.subtype}${trace.outcome.isError ? ", error" : ""})` : "";
  parts.push(`${trace.complete ? "complete" : "INCOMPLETE"}${outcome}`);
  return parts.join(" · ");
}

/** A JSON object's string field, or undefined. */
const field = (o: Record<string, unknown> | undefined, key: string) => (typeof o?.[key] === "string" ? (o[key] as string) : undefined);

/**
 * What a hook answered, read from its JSON (`hookSpecificOutput.permissionDecision` and its
 * reason, `decision` and `reason`, `systemMessage`, `additionalContext`, an `updatedInput`), or its
 * plain text: the decision and the reason first, never escaped JSON cut before the reason.
 */
export function hookAnswer(hook: HookEvent): { decision?: string; reason?: string; notes: string[] } {
  const text = (hook.output || hook.stdout || "").trim();
  let json: Record<string, unknown> | undefined;
  if (text.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
    } catch {
      json = undefined;
    }
  }
  if (!json) {
    const said = (hook.stderr || "").trim() || text;
    return { ...(hook.decision ? { decision: hook.decision } : {}), ...(said ? { reason: said } : {}), notes: [] };
  }
  const specific = json.hookSpecificOutput && typeof json.hookSpecificOutput === "object" ? (json.hookSpecificOutput as Record<string, unknown>) : undefined;
  const decision = field(specific, "permissionDecision") ?? field(json, "decision") ?? (json.continue === false ? "stop" : undefined) ?? hook.decision;
  const reason = field(specific, "permissionDecisionReason") ?? field(json, "reason") ?? field(json, "stopReason") ?? (hook.stderr?.trim() || undefined);
  const notes: string[] = [];
  const updated = specific?.updatedInput;
  if (updated && typeof updated === "object") notes.push(`updated input ${JSON.stringify(updated)}`);
  const context = field(specific, "additionalContext");
  if (context) notes.push(`context ${JSON.stringify(context)}`);
  const message = field(json, "systemMessage");
  if (message) notes.push(`message ${JSON.stringify(message)}`);
  return { ...(decision ? { decision } : {}), ...(reason ? { reason } : {}), notes };
}

/** A hook as one line: `PreToolUse:Bash exit 0 · blocked · deny: "no rm -rf here"`. */
export function describeHook(hook: HookEvent, max = 160): string {
  const parts = [hook.name, hook.exitCode === null ? "no exit (run ended)" : `exit ${hook.exitCode}`];
  if (hook.blocked) parts.push("blocked");
  const answer = hookAnswer(hook);
  const reason = answer.reason ? JSON.stringify(firstLine(answer.reason, max)) : undefined;
  if (answer.decision) parts.push(reason ? `${answer.decision}: ${reason}` : answer.decision);
  else if (reason) parts.push(reason);
  for (const note of answer.notes) parts.push(firstLine(note, max));
  return parts.join(" · ");
}
