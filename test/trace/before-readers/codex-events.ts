/**
 * The Codex event parser as it was before the per-event readers, frozen: the oracle the
 * equivalence property test compares the readers with. Not used by anything else.
 */
const SANDBOX_DENIAL = /Read-only file system|Operation not permitted/;
import { relativeToCwd } from "../../../src/trace/files-from-calls.js";
import type { CodexEventOptions, CodexEvents, CodexUsage, TimelineEntry } from "../../../src/trace/readers/codex.js";
import type { RunProblem, ToolCall, ToolStatus } from "../../../src/trace/types.js";
import { unwrapShellCommand } from "../../../src/trace/readers/codex-command.js";

type Json = Record<string, any>;

type CallSource = TimelineEntry extends infer E ? (E extends { type: "call"; source: infer S } ? S : never) : never;
const DEFAULT_SHELL_TOOL = "exec_command";

const PATCH_KINDS: Record<string, string> = { add: "A", update: "M", delete: "D" };

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
  return content.map((b: Json) => (b?.type === "text" ? String(b.text ?? "") : `[${String(b?.type)}]`)).join("\n");
}

/** The ToolCall a reported item stands for, or undefined for items that are not calls. */
function itemCall(item: Json, options: CodexEventOptions): { source: CallSource; call: ToolCall } | undefined {
  const id = String(item.id ?? "");
  const base = { id, agent: "main" };
  switch (item.type) {
    case "command_execution": {
      // A command the sandbox stopped is reported either as a refused call (the stream leaves it
      // out) or as a command that ran and failed writing: the same refusal, whichever Codex chose.
      const failed = (item.status === "completed" || item.status === "failed") && typeof item.exit_code === "number" && item.exit_code !== 0;
      const sandboxed = failed && SANDBOX_DENIAL.test(String(item.aggregated_output ?? ""));
      const status = failed ? (sandboxed ? "denied" : "failure") : itemStatus(item.status, "success");
      return {
        source: "command_execution",
        call: {
          ...base,
          name: options.shellTool ?? DEFAULT_SHELL_TOOL,
          input: { command: unwrapShellCommand(String(item.command ?? "")) },
          ...(status !== "pending" ? { result: String(item.aggregated_output ?? "") } : {}),
          status,
          ...(status === "denied" ? { deniedBy: sandboxed ? ("sandbox" as const) : ("permission" as const) } : {}),
        },
      };
    }
    case "file_change": {
      const changes = (Array.isArray(item.changes) ? item.changes : []).map((c: Json) => ({ path: relativeToCwd(String(c?.path ?? ""), options.cwd), kind: String(c?.kind ?? "update") }));
      const status = itemStatus(item.status, "success");
      return {
        source: "file_change",
        call: {
          ...base,
          name: "apply_patch",
          input: { changes },
          ...(status !== "pending" ? { result: changes.map((c: { path: string; kind: string }) => `${PATCH_KINDS[c.kind] ?? c.kind} ${c.path}`).join("\n") } : {}),
          status,
          ...(status === "denied" ? { deniedBy: "permission" as const } : {}),
        },
      };
    }
    case "mcp_tool_call": {
      const error = typeof item.error?.message === "string" ? item.error.message : undefined;
      let status = itemStatus(item.status, "success");
      if (status === "success" && item.result?.is_error === true) status = "failure";
      if (status === "failure" && error && /approval/i.test(error)) status = "denied";
      const result = error ?? (item.result ? contentText(item.result.content) : undefined);
      return {
        source: "mcp_tool_call",
        call: {
          ...base,
          name: `mcp__${String(item.server)}__${String(item.tool)}`,
          input: typeof item.arguments === "object" && item.arguments !== null ? item.arguments : {},
          ...(result !== undefined && status !== "pending" ? { result } : {}),
          status,
          ...(status === "denied" ? { deniedBy: "permission" as const } : {}),
        },
      };
    }
    case "web_search":
      return { source: "web_search", call: { ...base, name: "web_search", input: { query: String(item.query ?? "") }, status: itemStatus(item.status, "success") } };
    case "todo_list":
      return { source: "todo_list", call: { ...base, name: "update_plan", input: { items: Array.isArray(item.items) ? item.items : [] }, status: "success" } };
    default:
      return undefined;
  }
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

/** Read `codex exec --json` output into a timeline. Malformed lines are reported, not fatal. */
export function parseCodexEvents(text: string, options: CodexEventOptions = {}): CodexEvents {
  const entries: TimelineEntry[] = [];
  const byItem = new Map<string, number>();
  const errors: RunProblem[] = [];
  const streamErrors: string[] = [];
  let threadId: string | undefined;
  let usage: CodexUsage | undefined;
  let ended: CodexEvents["ended"];
  let failure: string | undefined;

  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let event: Json;
    try {
      event = JSON.parse(line);
    } catch (error) {
      errors.push({ kind: "malformed-line", line: i + 1, message: `line ${i + 1} is not JSON (${(error as Error).message}); skipped, the rest was read` });
      return;
    }
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      errors.push({ kind: "malformed-line", line: i + 1, message: `line ${i + 1} is not a JSON object; skipped, the rest was read` });
      return;
    }
    switch (event.type) {
      case "thread.started":
        if (typeof event.thread_id === "string") threadId = event.thread_id;
        return;
      case "turn.started":
        ended = undefined;
        return;
      case "turn.completed":
        ended = "completed";
        if (typeof event.usage === "object" && event.usage !== null) usage = addUsage(usage, readUsage(event.usage));
        return;
      case "turn.failed":
        ended = "failed";
        failure = String(event.error?.message ?? "the turn failed");
        return;
      case "error":
        streamErrors.push(String(event.message ?? ""));
        return;
      case "item.started":
      case "item.updated":
      case "item.completed":
        break;
      default:
        return;
    }
    const item: Json = event.item;
    if (typeof item !== "object" || item === null) return;
    let entry: TimelineEntry | undefined;
    if (item.type === "agent_message") entry = { type: "message", text: String(item.text ?? "") };
    else if (item.type === "reasoning") entry = { type: "reasoning", text: String(item.text ?? "") };
    else if (item.type === "error") {
      if (event.type === "item.completed") errors.push({ kind: "codex-warning", message: String(item.message ?? "") });
      return;
    } else {
      const call = itemCall(item, options);
      if (call) entry = { type: "call", ...call };
    }
    if (!entry) return;
    const key = String(item.id ?? `line-${i}`);
    const at = byItem.get(key);
    if (at === undefined) {
      byItem.set(key, entries.length);
      entries.push(entry);
    } else entries[at] = entry;
  });

  for (const message of streamErrors) {
    if (message === failure) continue;
    errors.push({ kind: /^Reconnecting\b/.test(message) ? "api-retry" : "codex-error", message });
  }
  return { entries, ...(threadId ? { threadId } : {}), ...(usage ? { usage } : {}), ...(ended ? { ended } : {}), ...(failure !== undefined ? { failure } : {}), errors };
}
