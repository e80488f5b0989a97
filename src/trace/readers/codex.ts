/**
 * `codex exec --json` events read into a timeline: the agent's messages and reasoning and the
 * tool calls the CLI reported (commands, patches, MCP calls, web searches, plans), in the order
 * they began, plus how the turn ended and what it cost. As for Claude transcripts: one small
 * reader per event kind over one explicit state, chosen from a table (`READERS`, and `ITEMS` for
 * the kinds of item an `item.*` event carries).
 */
import { relativeToCwd } from "../files-from-calls.js";
import type { RunProblem, ToolCall, ToolStatus } from "../types.js";
import { unwrapShellCommand } from "./codex-command.js";
import { isRecord, ownEntry } from "../../util/narrow.js";
import { readJsonLines } from "./json-lines.js";

type Json = Record<string, unknown>;

/** The item type a reported call came from. */
export type CallSource = "command_execution" | "file_change" | "mcp_tool_call" | "web_search" | "todo_list" | "model";

export type TimelineEntry =
  | { readonly type: "call"; readonly source: CallSource; readonly call: ToolCall }
  | { readonly type: "message"; readonly text: string }
  | { readonly type: "reasoning"; readonly text: string };

/** Token counts as `turn.completed` reports them (summed over turns). */
export interface CodexUsage {
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteInputTokens: number;
  readonly outputTokens: number;
  readonly reasoningOutputTokens: number;
}

export interface CodexEvents {
  readonly entries: readonly TimelineEntry[];
  readonly threadId?: string;
  readonly usage?: CodexUsage;
  /** How the last turn ended; undefined when the stream stopped first. */
  readonly ended?: "completed" | "failed";
  /** `turn.failed`'s message. */
  readonly failure?: string;
  /** Malformed lines, error events and error items. */
  readonly errors: readonly RunProblem[];
}

export interface CodexEventOptions {
  /** The run's cwd: file paths inside it are reported relative to it. */
  readonly cwd?: string;
  /** The name command executions get (the JSON stream doesn't say which tool ran them). @default "exec_command" */
  readonly shellTool?: string;
}

/** The tool Codex runs shell commands with in current versions. */
export const DEFAULT_SHELL_TOOL = "exec_command";

/** The sandbox stopped a command that tried to write outside the workspace. */
export const SANDBOX_DENIAL = /Read-only file system|Operation not permitted/;

/** Everything reading an event stream has gathered so far. */
interface CodexReadState {
  readonly options: CodexEventOptions;
  readonly entries: TimelineEntry[];
  /** Where each item's entry sits: a later event for the same item replaces it. */
  readonly byItem: Map<string, number>;
  readonly errors: RunProblem[];
  /** `error` events' messages, kept apart until the end (one may repeat the turn's failure). */
  readonly streamErrors: string[];
  threadId: string | undefined;
  usage: CodexUsage | undefined;
  ended: CodexEvents["ended"];
  failure: string | undefined;
}

/** Reads one event of one kind into the state; `line` is 1-based. */
type EventReader = (state: CodexReadState, event: Json, line: number) => void;

/** Reads one item into its timeline entry, or undefined for items that are not on the timeline. */
type ItemReader = (item: Json, options: CodexEventOptions) => TimelineEntry | undefined;

const PATCH_KINDS: Record<string, string> = { add: "A", update: "M", delete: "D" };

/** What a non-object field reads as: no fields (shared, never written). */
const NO_FIELDS: Json = Object.freeze({});

/** `value[key]` when `value` is an object, else undefined. */
function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function itemStatus(status: unknown, fallback: ToolStatus): ToolStatus {
  switch (status) {
    case "completed":
      return "success";
    case "failed":
      return "failure";
    case "declined":
      return "denied";
    case "in_progress":
      return "pending";
    default:
      return fallback;
  }
}

function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.map((b: unknown) => (field(b, "type") === "text" ? String(field(b, "text") ?? "") : `[${String(field(b, "type"))}]`)).join("\n");
}

function callEntry(source: CallSource, call: ToolCall): TimelineEntry {
  return { type: "call", source, call };
}

/** `command_execution`: a shell command, unwrapped from Codex's `/bin/bash -lc '…'`. */
function readCommand(item: Json, options: CodexEventOptions): TimelineEntry {
  // A command the sandbox stopped is reported either as a refused call (the stream leaves it
  // out) or as a command that ran and failed writing: the same refusal, whichever Codex chose.
  const failed = (item.status === "completed" || item.status === "failed") && typeof item.exit_code === "number" && item.exit_code !== 0;
  const sandboxed = failed && SANDBOX_DENIAL.test(String(item.aggregated_output ?? ""));
  const status = failed ? (sandboxed ? "denied" : "failure") : itemStatus(item.status, "success");
  return callEntry("command_execution", {
    id: String(item.id ?? ""),
    agent: "main",
    name: options.shellTool ?? DEFAULT_SHELL_TOOL,
    input: { command: unwrapShellCommand(String(item.command ?? "")) },
    ...(status !== "pending" ? { result: String(item.aggregated_output ?? "") } : {}),
    status,
    ...(status === "denied" ? { deniedBy: sandboxed ? ("sandbox" as const) : ("permission" as const) } : {}),
  });
}

/** `file_change`: a patch, its paths relative to the run's cwd. */
function readFileChange(item: Json, options: CodexEventOptions): TimelineEntry {
  const changes = (Array.isArray(item.changes) ? item.changes : []).map((c: unknown) => ({ path: relativeToCwd(String(field(c, "path") ?? ""), options.cwd), kind: String(field(c, "kind") ?? "update") }));
  const status = itemStatus(item.status, "success");
  return callEntry("file_change", {
    id: String(item.id ?? ""),
    agent: "main",
    name: "apply_patch",
    input: { changes },
    ...(status !== "pending" ? { result: changes.map((c: { path: string; kind: string }) => `${ownEntry(PATCH_KINDS, c.kind) ?? c.kind} ${c.path}`).join("\n") } : {}),
    status,
    ...(status === "denied" ? { deniedBy: "permission" as const } : {}),
  });
}

/** `mcp_tool_call`: named `mcp__server__tool` as Claude Code names them. */
function readMcpCall(item: Json): TimelineEntry {
  const message = field(item.error, "message");
  const error = typeof message === "string" ? message : undefined;
  let status = itemStatus(item.status, "success");
  if (status === "success" && field(item.result, "is_error") === true) status = "failure";
  if (status === "failure" && error && /approval/i.test(error)) status = "denied";
  const result = error ?? (item.result ? contentText(field(item.result, "content")) : undefined);
  return callEntry("mcp_tool_call", {
    id: String(item.id ?? ""),
    agent: "main",
    name: `mcp__${String(item.server)}__${String(item.tool)}`,
    // Any object is kept as written, an array too: `isRecord` would turn one into `{}`.
    input: typeof item.arguments === "object" && item.arguments !== null ? (item.arguments as Record<string, unknown>) : {},
    ...(result !== undefined && status !== "pending" ? { result } : {}),
    status,
    ...(status === "denied" ? { deniedBy: "permission" as const } : {}),
  });
}

/** Which reader takes an item, by its `type`. */
const ITEMS: ReadonlyMap<string, ItemReader> = new Map<string, ItemReader>([
  ["agent_message", (item) => ({ type: "message", text: String(item.text ?? "") })],
  ["reasoning", (item) => ({ type: "reasoning", text: String(item.text ?? "") })],
  ["command_execution", readCommand],
  ["file_change", readFileChange],
  ["mcp_tool_call", readMcpCall],
  ["web_search", (item) => callEntry("web_search", { id: String(item.id ?? ""), agent: "main", name: "web_search", input: { query: String(item.query ?? "") }, status: itemStatus(item.status, "success") })],
  ["todo_list", (item) => callEntry("todo_list", { id: String(item.id ?? ""), agent: "main", name: "update_plan", input: { items: Array.isArray(item.items) ? item.items : [] }, status: "success" })],
]);

/** `item.started` / `item.updated` / `item.completed`: an item's entry, replacing the one its earlier events left. */
function readItemEvent(state: CodexReadState, event: Json, line: number): void {
  const item = event.item;
  // An array has no "type": it is skipped like an item of an unknown kind.
  if (!isRecord(item)) return;
  if (item.type === "error") {
    if (event.type === "item.completed") state.errors.push({ kind: "codex-warning", message: String(item.message ?? "") });
    return;
  }
  const entry = typeof item.type === "string" ? ITEMS.get(item.type)?.(item, state.options) : undefined;
  if (!entry) return;
  const key = String(item.id ?? `line-${line - 1}`);
  const at = state.byItem.get(key);
  if (at === undefined) {
    state.byItem.set(key, state.entries.length);
    state.entries.push(entry);
  } else state.entries[at] = entry;
}

function readUsage(u: Json): CodexUsage {
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  return {
    inputTokens: n(u.input_tokens),
    cachedInputTokens: n(u.cached_input_tokens),
    cacheWriteInputTokens: n(u.cache_write_input_tokens),
    outputTokens: n(u.output_tokens),
    reasoningOutputTokens: n(u.reasoning_output_tokens),
  };
}

function addUsage(a: CodexUsage | undefined, b: CodexUsage): CodexUsage {
  if (!a) return b;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    cacheWriteInputTokens: a.cacheWriteInputTokens + b.cacheWriteInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningOutputTokens: a.reasoningOutputTokens + b.reasoningOutputTokens,
  };
}

/** Which reader takes an event, by its `type`; other types carry nothing read today. */
const READERS: ReadonlyMap<string, EventReader> = new Map<string, EventReader>([
  [
    "thread.started",
    (state, event) => {
      if (typeof event.thread_id === "string") state.threadId = event.thread_id;
    },
  ],
  [
    "turn.started",
    (state) => {
      state.ended = undefined;
    },
  ],
  [
    "turn.completed",
    (state, event) => {
      state.ended = "completed";
      // An array is an object too: it has always counted as a usage of zero tokens.
      if (typeof event.usage === "object" && event.usage !== null) state.usage = addUsage(state.usage, readUsage(isRecord(event.usage) ? event.usage : NO_FIELDS));
    },
  ],
  [
    "turn.failed",
    (state, event) => {
      state.ended = "failed";
      state.failure = String(field(event.error, "message") ?? "the turn failed");
    },
  ],
  [
    "error",
    (state, event) => {
      state.streamErrors.push(String(event.message ?? ""));
    },
  ],
  ["item.started", readItemEvent],
  ["item.updated", readItemEvent],
  ["item.completed", readItemEvent],
]);

/** Read `codex exec --json` output (text, or its UTF-8 bytes) into a timeline. Malformed lines are reported, not fatal. */
export function parseCodexEvents(text: string | Uint8Array, options: CodexEventOptions = {}): CodexEvents {
  const state: CodexReadState = { options, entries: [], byItem: new Map(), errors: [], streamErrors: [], threadId: undefined, usage: undefined, ended: undefined, failure: undefined };
  readJsonLines(text, {
    value(event, line) {
      if (!isRecord(event)) {
        state.errors.push({ kind: "malformed-line", line, message: `line ${line} is not a JSON object; skipped, the rest was read` });
        return;
      }
      if (typeof event.type === "string") READERS.get(event.type)?.(state, event, line);
    },
    malformed(_raw, line, why) {
      state.errors.push({ kind: "malformed-line", line, message: `line ${line} is not JSON (${why}); skipped, the rest was read` });
    },
  }, { trim: true });
  return finishEvents(state);
}

function finishEvents(state: CodexReadState): CodexEvents {
  const { errors, failure } = state;
  for (const message of state.streamErrors) {
    if (message === failure) continue;
    errors.push({ kind: /^Reconnecting\b/.test(message) ? "api-retry" : "codex-error", message });
  }
  return {
    entries: state.entries,
    ...(state.threadId ? { threadId: state.threadId } : {}),
    ...(state.usage ? { usage: state.usage } : {}),
    ...(state.ended ? { ended: state.ended } : {}),
    ...(failure !== undefined ? { failure } : {}),
    errors,
  };
}
