/**
 * What claude ≥ 2.1.3xx adds to a run's stream: background work and the segments it causes.
 *
 * A subagent (or shell, or Monitor) started in the background answers its call at once ("Async
 * agent launched successfully…"); its real answer arrives later as a `system/task_notification`,
 * and the CLI then gives the main agent one more turn in a new segment, with its own `system/init`
 * and its own `result` line (`result_index` 1, 2, …). A run is every segment of it: usage and
 * turns add up, an error in any segment is an error of the run, and a subagent's output is its
 * answer, not the launch notice.
 */
import type { RunOutcome, RunProblem, RunSegment, Usage } from "../types.js";
import { isRecord } from "../../util/narrow.js";

type Json = Record<string, unknown>;

/** A background task's end, from its `system/task_notification` line. */
export interface TaskNotice {
  readonly status: string;
  readonly summary?: string;
}

/** The `<tools-used-before-summary>` note claude puts before a subagent's hand-back. */
const TOOLS_USED_NOTE = /^\s*<tools-used-before-summary>[\s\S]*?<\/tools-used-before-summary>\s*$/;

/**
 * A subagent's answer as the `tool_use_result` of its call gives it (claude ≥ 2.1.3xx wraps the
 * tool result text in a hand-back frame; the structured copy has the subagent's words alone).
 * Undefined when the result carries none.
 */
export function handBackText(toolUseResult: unknown): string | undefined {
  if (!isRecord(toolUseResult) || !Array.isArray(toolUseResult.content)) return undefined;
  const texts: string[] = [];
  for (const block of toolUseResult.content as unknown[]) {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string" && !TOOLS_USED_NOTE.test(block.text)) texts.push(block.text);
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

/** Did the call's `tool_use_result` say the work went on in the background? */
export function launchedInBackground(toolUseResult: unknown): boolean {
  return isRecord(toolUseResult) && (toolUseResult.isAsync === true || toolUseResult.status === "async_launched" || typeof toolUseResult.backgroundTaskId === "string" || typeof toolUseResult.taskId === "string");
}

/** A `system/task_notification` line, keyed by the tool_use id that started the task. */
export function readTaskNotice(event: Json): { callId: string; notice: TaskNotice } | undefined {
  if (typeof event.tool_use_id !== "string") return undefined;
  const notice: { status: string; summary?: string } = { status: String(event.status ?? "unknown") };
  if (typeof event.summary === "string") notice.summary = event.summary;
  return { callId: event.tool_use_id, notice };
}

/** The call status a finished background task stands for. */
export function noticeStatus(notice: TaskNotice | undefined): "success" | "failure" | "pending" {
  if (notice === undefined) return "pending";
  return notice.status === "completed" ? "success" : "failure";
}

function finite(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** One result line as a segment. `awaiting`: the main agent's last input got no answer before it. */
export function segmentOf(result: Json, index: number): RunSegment {
  const out: { -readonly [K in keyof RunSegment]: RunSegment[K] } = { index, subtype: String(result.subtype ?? "unknown"), isError: result.is_error === true };
  const turns = finite(result.num_turns);
  if (turns !== undefined) out.turns = turns;
  const durationMs = finite(result.duration_ms);
  if (durationMs !== undefined) out.durationMs = durationMs;
  if (typeof result.result === "string") out.output = result.result;
  if (isRecord(result.origin) && typeof result.origin.kind === "string") out.origin = result.origin.kind;
  return out;
}

/** The outcome of one result line. */
export function outcomeOf(result: Json): RunOutcome {
  return {
    subtype: String(result.subtype ?? "unknown"),
    isError: result.is_error === true,
    ...(typeof result.stop_reason === "string" ? { stopReason: result.stop_reason } : {}),
    ...(typeof result.api_error_status === "number" ? { apiErrorStatus: result.api_error_status } : {}),
  };
}

/** The error a failed `result` line stands for. A lost connection has no status but is an API error all the same ("API Error: Connection …"). */
export function resultError(result: Json, outcome: RunOutcome, segments: number, index: number): RunProblem {
  const detail = typeof result.result === "string" && result.result ? result.result : Array.isArray(result.errors) ? result.errors.join("; ") : outcome.subtype;
  const where = segments > 1 ? ` (segment ${index + 1} of ${segments})` : "";
  return { kind: outcome.apiErrorStatus || /^API Error\b/.test(detail) ? "api-error" : outcome.subtype, message: detail + where };
}

/**
 * Usage over every segment: token counts add up (each result counts its own segment's main-agent
 * tokens), durations add up, and the cost is the largest figure (claude reports the session's
 * running total on every result line).
 */
export function sumUsage(results: readonly Json[]): Usage | undefined {
  let out: { -readonly [K in keyof Usage]: Usage[K] } | undefined;
  for (const result of results) {
    const usage = result.usage;
    if (typeof usage !== "object" || usage === null) continue;
    // An array is an object too: it has always given a usage of zero tokens.
    const u: Json = isRecord(usage) ? usage : {};
    out ??= { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 };
    const cost = finite(result.total_cost_usd);
    if (cost !== undefined) out.costUsd = Math.max(out.costUsd ?? 0, cost);
    const duration = finite(result.duration_ms);
    if (duration !== undefined) out.durationMs = (out.durationMs ?? 0) + duration;
    out.inputTokens += finite(u.input_tokens) ?? 0;
    out.outputTokens += finite(u.output_tokens) ?? 0;
    out.cacheCreationTokens += finite(u.cache_creation_input_tokens) ?? 0;
    out.cacheReadTokens += finite(u.cache_read_input_tokens) ?? 0;
  }
  if (!out) return undefined;
  // The keys in the order a Trace has always had them.
  const ordered: { -readonly [K in keyof Usage]: Usage[K] } = {} as Usage;
  if (out.costUsd !== undefined) ordered.costUsd = out.costUsd;
  if (out.durationMs !== undefined) ordered.durationMs = out.durationMs;
  ordered.inputTokens = out.inputTokens;
  ordered.outputTokens = out.outputTokens;
  ordered.cacheCreationTokens = out.cacheCreationTokens;
  ordered.cacheReadTokens = out.cacheReadTokens;
  return ordered;
}

/** Turns over every segment, when every result line says. */
export function sumTurns(results: readonly Json[]): number | undefined {
  let total = 0;
  for (const r of results) {
    const n = finite(r.num_turns);
    if (n === undefined) return undefined;
    total += n;
  }
  return results.length > 0 ? total : undefined;
}
