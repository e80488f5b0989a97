/**
 * A Codex run's timeline turned into the same Trace a Claude Code run gives, so every check
 * reads both. `readCodexJsonl` does it for recorded `codex exec --json` output.
 */
import { InvalidInputError } from "../../errors/proctor-error.js";
import { readEventBytes } from "../../io/read-bounded.js";
import { TRANSCRIPT_LIMITS, type TranscriptLimits } from "../transcript.js";
import { requireObject, wrongArgument } from "../../errors/arguments.js";
import type { FileChange, FileRecord, Reply, RunProblem, RunOutcome, ToolCall, Trace, TraceSource, Usage } from "../types.js";
import { parseCodexEvents, type CodexEventOptions, type CodexEvents, type TimelineEntry } from "./codex.js";
import { ownEntry } from "../../util/narrow.js";

/** What the JSON stream cannot tell and the caller can. */
export interface CodexTraceExtras {
  readonly source?: Omit<TraceSource, "kind" | "sessionId">;
  /** Model turns (requests) the run took. */
  readonly turns?: number;
  readonly durationMs?: number;
}

const CHANGE: Record<string, FileChange["change"]> = { add: "created", update: "modified", delete: "deleted" };

/** The changes successful patches reported, first kind kept per path (a tool-call record: no shell writes). */
function filesFromPatches(calls: readonly ToolCall[]): FileRecord {
  const changes = new Map<string, FileChange>();
  for (const call of calls) {
    if (call.name !== "apply_patch" || call.status !== "success" || !Array.isArray(call.input.changes)) continue;
    for (const c of call.input.changes as { path: string; kind: string }[]) {
      if (!changes.has(c.path)) changes.set(c.path, { path: c.path, change: ownEntry(CHANGE, c.kind) ?? "modified" });
    }
  }
  return { source: "tool-calls", changes: [...changes.values()] };
}

/** A status in a failure message, when the CLI quoted one. */
function statusIn(message: string): number | undefined {
  const m = /\b(?:status:?|last status:)\s*(\d{3})\b/i.exec(message) ?? /"status"\s*:\s*(\d{3})/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** Build the Trace of a timeline. A message is a reply when no call follows it before the next message. */
export function buildCodexTrace(events: CodexEvents, entries: readonly TimelineEntry[] = events.entries, extras: CodexTraceExtras = {}): Trace {
  const toolCalls: ToolCall[] = [];
  const replies: Reply[] = [];
  let pending: { text: string; at: number } | undefined;
  let lastMessage: string | undefined;
  // A recorded stream does not say which calls one response issued together: without the mock's
  // record each call is its own turn, so ordered checks keep the stream's order.
  const grouped = entries.some((e) => e.type === "call" && e.call.turn !== undefined);
  let turn = 0;
  for (const entry of entries) {
    if (entry.type === "call") {
      turn++;
      toolCalls.push(grouped || entry.call.turn !== undefined ? entry.call : { ...entry.call, turn });
      pending = undefined;
    } else if (entry.type === "message") {
      if (pending?.text.trim()) replies.push(pending);
      pending = { text: entry.text, at: toolCalls.length };
      lastMessage = entry.text;
    }
  }
  if (pending?.text.trim()) replies.push(pending);

  const errors: RunProblem[] = [...events.errors];
  let outcome: RunOutcome | undefined;
  if (events.ended === "completed") outcome = { subtype: "success", isError: false };
  else if (events.ended === "failed") {
    const failure = events.failure ?? "the turn failed";
    const status = statusIn(failure);
    outcome = { subtype: "turn_failed", isError: true, ...(status !== undefined ? { apiErrorStatus: status } : {}) };
    errors.push({ kind: "api-error", message: failure });
  } else {
    errors.push({ kind: "incomplete", message: "the Codex event stream has no turn.completed or turn.failed: the run was killed, crashed or cut off" });
  }

  const u = events.usage;
  const usage: Usage | undefined = u && {
    ...(extras.durationMs !== undefined ? { durationMs: extras.durationMs } : {}),
    inputTokens: Math.max(0, u.inputTokens - u.cachedInputTokens),
    outputTokens: u.outputTokens,
    cacheCreationTokens: u.cacheWriteInputTokens,
    cacheReadTokens: u.cachedInputTokens,
  };

  return {
    version: 1,
    source: { kind: "codex", ...(events.threadId ? { sessionId: events.threadId } : {}), ...extras.source },
    complete: events.ended !== undefined,
    ...(outcome ? { outcome } : {}),
    toolCalls,
    subagents: [],
    skills: [],
    hooks: [],
    replies,
    ...(events.ended === "completed" && lastMessage !== undefined ? { output: lastMessage } : {}),
    ...(extras.turns !== undefined ? { turns: extras.turns } : {}),
    ...(usage ? { usage } : {}),
    files: filesFromPatches(toolCalls),
    errors,
  };
}

/** Parse `codex exec --json` output (text, or its UTF-8 bytes) into a Trace. Pass `cwd` so file paths come out relative to it. */
export function parseCodexJsonl(text: string | Uint8Array, options: CodexEventOptions = {}): Trace {
  if (typeof text !== "string" && !(text instanceof Uint8Array)) throw wrongArgument("parseCodexJsonl", "text", text, "the text of a codex exec --json event log");
  requireObject("parseCodexJsonl", "options", options, "an options object");
  const events = parseCodexEvents(text, options);
  return buildCodexTrace(events, events.entries, options.cwd ? { source: { cwd: options.cwd } } : {});
}

/**
 * Read `codex exec --json` output from a file path, or parse it when given the text itself
 * (anything with a newline or starting with `{`). The file is read within the same caps as
 * `readTranscript`; a missing, unreadable or oversized file is a ProctorError naming the path.
 */
export function readCodexJsonl(pathOrText: string, options: CodexEventOptions & TranscriptLimits = {}): Trace {
  if (typeof pathOrText !== "string") throw new InvalidInputError("INVALID_INPUT", `readCodexJsonl: expected a file path or the events text (a string); got ${typeof pathOrText}`);
  const looksLikeText = pathOrText.includes("\n") || pathOrText.trimStart().startsWith("{");
  if (looksLikeText) return parseCodexJsonl(pathOrText, options);
  const { maxLineBytes, maxBytes, ...eventOptions } = options;
  const limits = { maxLineBytes: maxLineBytes ?? TRANSCRIPT_LIMITS.maxLineBytes, maxBytes: maxBytes ?? TRANSCRIPT_LIMITS.maxBytes };
  const bytes = readEventBytes(pathOrText, limits, {
    noun: "Codex events",
    reader: "readCodexJsonl",
    hint: "pass the path of a file written by `codex exec --json … > run.jsonl`, or the text itself",
  });
  return parseCodexJsonl(bytes, eventOptions);
}
