/**
 * Claude Code's own session logs as transcripts. Every session the CLI runs is logged under
 * `~/.claude/projects/<cwd with / → ->/<session-id>.jsonl`, each subagent in
 * `<session-id>/subagents/agent-<id>.jsonl` with an `agent-<id>.meta.json` naming the Agent call
 * that dispatched it. The log is rewritten here into the stream-json events `claude -p` prints,
 * so one parser reads both and a session reads to the same calls as the run's stream-json.
 *
 * What only the log has is kept (start and end time, git branch, cwd, permission mode); what only
 * stream-json has is absent from a log-based Trace: the offered tool list, and every hook run. The
 * log keeps a hook only when it left a mark — printed output, failed, blocked, was cancelled (an
 * `attachment` of type `hook_*`, read here as the stream's hook events) — and, on claude ≥ 2.1.3xx,
 * who denied a call (`permissionDecision.source`, read as the stream's `tool_result_meta`). A hook
 * that allowed a call in silence leaves nothing, so a log-based Trace says its hook record is partial.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readDataFile } from "../io/read-data-file.js";

type Json = Record<string, unknown>;

/** One subagent's log and the Agent call that dispatched it. */
export interface SubagentLog {
  /** The dispatching Agent call's tool_use id (from `agent-<id>.meta.json`). */
  readonly toolUseId: string;
  readonly agentType?: string;
  readonly text: EventText;
}

/** What a session log adds to the Trace's source. */
export interface SessionFacts {
  readonly startedAt?: string;
  readonly endedAt?: string;
  readonly gitBranch?: string;
  /** A session log keeps only the hook runs that left a mark (see the module comment). */
  readonly hookRecord: "partial";
}

/** A session log rewritten as stream-json text, with the facts only the log holds. */
export interface ConvertedSession {
  readonly streamJson: string;
  readonly facts: SessionFacts;
}

/** The text of an EventText. */
function textOf(text: EventText): string {
  return typeof text === "string" ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString("utf8");
}

/** The first `lines` lines of an EventText (decoding no more of the bytes than those). */
function headOf(text: EventText, lines: number): string {
  if (typeof text === "string") return text;
  return Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString("utf8", 0, headEnd(text, lines));
}

/** Where the first `lines` lines of the bytes end (before the last one's newline), or their length. */
function headEnd(text: Uint8Array, lines: number): number {
  const bytes = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  let end = -1;
  for (let n = 0; n < lines; n++) {
    end = bytes.indexOf(10, end + 1);
    if (end === -1) return bytes.length;
  }
  return end;
}

const LOG_TYPES = new Set(["user", "assistant", "attachment", "queue-operation", "last-prompt", "system", "summary"]);

/** Does this text read as a session log (rather than `claude -p` stream-json)? Looks at the first event only. */
export function isSessionLog(text: EventText): boolean {
  // Its first event has a "sessionId" key: text without those letters (or a `\u` escape that
  // could spell them) holds none, and need not be decoded or parsed — `proctor check` asks this
  // of every file. Both are ASCII, so the bytes can be searched as they are.
  if (typeof text !== "string") {
    const bytes = Buffer.from(text.buffer, text.byteOffset, text.byteLength).subarray(0, headEnd(text, 20));
    if (bytes.indexOf("sessionId") === -1 && bytes.indexOf("\\u") === -1) return false;
  }
  const head = headOf(text, 20);
  if (!head.includes("sessionId") && !head.includes("\\u")) return false;
  for (const raw of head.split("\n", 20)) {
    const line = raw.trim();
    if (line === "") continue;
    try {
      const event = JSON.parse(line) as Json;
      return typeof event.sessionId === "string" && typeof event.type === "string" && LOG_TYPES.has(event.type) && !("session_id" in event);
    } catch {
      return false;
    }
  }
  return false;
}

function parseLines(text: EventText, file: string): Json[] {
  const out: Json[] = [];
  const lines = textOf(text).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === "") continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === "object" && !Array.isArray(value)) out.push(value as Json);
    } catch {
      // Kept as a malformed line for the parser to report with its number.
      out.push({ type: "__malformed__", file, line: i + 1, text: line.slice(0, 200) });
    }
  }
  return out;
}

const isToolResultLine = (e: Json): boolean =>
  e.type === "user" && Array.isArray((e.message as Json | undefined)?.content) && ((e.message as Json).content as Json[]).some((b) => b?.type === "tool_result");

function userText(e: Json): string | undefined {
  const content = (e.message as Json | undefined)?.content;
  if (typeof content === "string") return content;
  return undefined;
}

/**
 * The hook attachments that record one hook run's end, and the exit code each implies when the
 * attachment carries none (a blocking error is exit 2; a success without a code exited 0).
 */
const HOOK_RUN_ATTACHMENTS: Readonly<Record<string, { exit?: number; outcome: string }>> = {
  hook_success: { exit: 0, outcome: "success" },
  hook_non_blocking_error: { outcome: "error" },
  hook_blocking_error: { exit: 2, outcome: "error" },
  hook_cancelled: { outcome: "cancelled" },
  hook_error_during_execution: { outcome: "error" },
};

/** A logged hook run (`attachment` of a `hook_*` type) as the stream's hook_started and hook_response events. */
function hookEvents(e: Json, sessionId: string, id: string): Json[] {
  const a = e.type === "attachment" && typeof e.attachment === "object" && e.attachment !== null ? (e.attachment as Json) : undefined;
  const kind = a && typeof a.type === "string" && Object.hasOwn(HOOK_RUN_ATTACHMENTS, a.type) ? HOOK_RUN_ATTACHMENTS[a.type] : undefined;
  if (!a || !kind || typeof a.hookName !== "string") return [];
  const event = typeof a.hookEvent === "string" ? a.hookEvent : a.hookName.split(":")[0];
  const blocking = typeof a.blockingError === "object" && a.blockingError !== null ? (a.blockingError as Json).blockingError : undefined;
  const stdout = typeof a.stdout === "string" ? a.stdout : "";
  const stderr = typeof a.stderr === "string" ? a.stderr : typeof blocking === "string" ? blocking : typeof a.content === "string" && a.type !== "hook_success" ? a.content : "";
  const exit = typeof a.exitCode === "number" ? a.exitCode : kind.exit;
  return [
    { type: "system", subtype: "hook_started", hook_id: id, hook_name: a.hookName, hook_event: event, session_id: sessionId },
    { type: "system", subtype: "hook_response", hook_id: id, hook_name: a.hookName, hook_event: event, ...(exit !== undefined ? { exit_code: exit } : {}), outcome: kind.outcome, output: stdout + stderr, stdout, stderr, session_id: sessionId },
  ];
}

/**
 * Who decided a denied call, as claude ≥ 2.1.3xx logs it on the result line
 * (`permissionDecision: {decision: "reject", source: "hook"}`), as the stream's `tool_result_meta`.
 */
function resultMeta(e: Json): Json[] | undefined {
  const decision = e.permissionDecision;
  if (typeof decision !== "object" || decision === null || (decision as Json).decision !== "reject" || typeof (decision as Json).source !== "string") return undefined;
  const ids = ((e.message as Json).content as Json[]).filter((b) => b?.type === "tool_result" && typeof b.tool_use_id === "string").map((b) => b.tool_use_id as string);
  return ids.map((id) => ({ id, permission_decision: { decision: "reject", source: (decision as Json).source } }));
}

/** One log event as the stream-json event `claude -p` would have printed, or undefined when it prints none. */
function toStreamEvent(e: Json, parent: string | null, sessionId: string): Json | undefined {
  if (e.type === "__malformed__") return e;
  if (e.type === "assistant") return { type: "assistant", message: e.message, parent_tool_use_id: parent, session_id: sessionId };
  if (e.type !== "user") return undefined;
  if (isToolResultLine(e)) {
    const meta = resultMeta(e);
    return { type: "user", message: e.message, parent_tool_use_id: parent, session_id: sessionId, ...(e.toolUseResult !== undefined ? { tool_use_result: e.toolUseResult } : {}), ...(meta ? { tool_result_meta: meta } : {}) };
  }
  const text = userText(e);
  const content = text !== undefined ? [{ type: "text", text }] : (e.message as Json | undefined)?.content;
  return { type: "user", message: { role: "user", content }, parent_tool_use_id: parent, session_id: sessionId };
}

/**
 * A background task's end as the log keeps it (claude ≥ 2.1.3xx: a user line `<task-notification>`
 * naming the call, its status and result), as the stream's `system/task_notification` event.
 */
function taskNotification(e: Json, sessionId: string): Json | undefined {
  const content = (e.message as Json | undefined)?.content;
  if (e.type !== "user" || typeof content !== "string" || !content.startsWith("<task-notification>")) return undefined;
  const tag = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(content)?.[1];
  const toolUseId = tag("tool-use-id");
  if (toolUseId === undefined) return undefined;
  const result = tag("result");
  return { type: "system", subtype: "task_notification", tool_use_id: toolUseId, status: tag("status") ?? "unknown", ...(result !== undefined ? { summary: result } : {}), session_id: sessionId };
}

/** The text of an assistant message's blocks, for the final result. */
function assistantText(e: Json): string {
  const content = (e.message as Json | undefined)?.content;
  if (!Array.isArray(content)) return "";
  return content.filter((b: Json) => b?.type === "text").map((b: Json) => String(b.text ?? "")).join("");
}

interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

function addUsage(total: Usage, seen: Set<string>, e: Json): void {
  const message = e.message as Json | undefined;
  const id = typeof message?.id === "string" ? message.id : undefined;
  const usage = message?.usage as Record<string, unknown> | undefined;
  if (!usage || (id !== undefined && seen.has(id))) return; // one message's blocks repeat its usage
  if (id !== undefined) seen.add(id);
  const n = (k: string) => (typeof usage[k] === "number" ? (usage[k] as number) : 0);
  total.input_tokens += n("input_tokens");
  total.output_tokens += n("output_tokens");
  total.cache_creation_input_tokens += n("cache_creation_input_tokens");
  total.cache_read_input_tokens += n("cache_read_input_tokens");
}

/**
 * Rewrite a session log (and its subagents' logs) as stream-json: an `init` event from what the
 * log knows, every assistant and tool-result event in order with each subagent's events placed
 * just before the result of the Agent call that dispatched it, and a `result` event when the
 * session ended with the main agent's answer (its last message calls no tool).
 */
export function convertSessionLog(mainText: EventText, subagents: readonly SubagentLog[] = [], file = "session log"): ConvertedSession {
  const main = parseLines(mainText, file);
  const first = main.find((e) => typeof e.sessionId === "string" && e.type !== "queue-operation") ?? main.find((e) => typeof e.sessionId === "string");
  const sessionId = typeof first?.sessionId === "string" ? first.sessionId : "";
  const logged = main.filter((e) => e.type === "user" || e.type === "assistant");
  const firstAssistant = logged.find((e) => e.type === "assistant" && (e.message as Json | undefined)?.model !== "<synthetic>");
  const model = (firstAssistant?.message as Json | undefined)?.model;
  const permissionMode = logged.find((e) => typeof e.permissionMode === "string")?.permissionMode;
  const init: Json = {
    type: "system",
    subtype: "init",
    session_id: sessionId,
    ...(typeof first?.cwd === "string" ? { cwd: first.cwd } : {}),
    ...(typeof first?.version === "string" ? { claude_code_version: first.version } : {}),
    ...(typeof model === "string" ? { model } : {}),
    ...(typeof permissionMode === "string" ? { permissionMode } : {}),
  };

  const byDispatch = new Map(subagents.map((s) => [s.toolUseId, parseLines(s.text, `subagent ${s.toolUseId}`)] as const));
  const placed = new Set<string>();
  const events: Json[] = [init];
  const usage: Usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const seenMessages = new Set<string>();
  let hookIds = 0;
  const placeSubagent = (toolUseId: string) => {
    const lines = byDispatch.get(toolUseId);
    if (!lines || placed.has(toolUseId)) return;
    placed.add(toolUseId);
    // A subagent's tokens are not the main agent's: claude's result line counts the main agent's
    // alone, and so does this (the cost, where the log keeps it, is the whole session's).
    for (const e of lines) {
      events.push(...hookEvents(e, sessionId, `log-hook-${++hookIds}`));
      const event = toStreamEvent(e, toolUseId, sessionId);
      if (event) events.push(event);
    }
  };

  let promptSkipped = false;
  let assistantMessages = 0;
  let lastMessageId: unknown;
  let last: Json | undefined;
  let costUsd: number | undefined;
  for (const e of main) {
    // claude ≥ 2.1.3xx keeps the session's running cost; the last one is the session's.
    if (e.type === "cost-state" && typeof e.totalCostUSD === "number") costUsd = e.totalCostUSD;
    const notice = taskNotification(e, sessionId);
    if (notice) {
      events.push(notice);
      continue;
    }
    if (e.type === "user" && !promptSkipped && !isToolResultLine(e)) {
      promptSkipped = true; // `claude -p` prints no event for its own prompt
      continue;
    }
    if (e.type === "user" && isToolResultLine(e)) {
      for (const block of (e.message as Json).content as Json[]) {
        if (block?.type === "tool_result" && typeof block.tool_use_id === "string") placeSubagent(block.tool_use_id);
      }
    }
    if (e.type === "assistant") {
      addUsage(usage, seenMessages, e);
      const id = (e.message as Json | undefined)?.id;
      if (id === undefined || id !== lastMessageId) assistantMessages++;
      lastMessageId = id;
    }
    const hooks = hookEvents(e, sessionId, `log-hook-${hookIds + 1}`);
    if (hooks.length) {
      hookIds++;
      events.push(...hooks);
      continue;
    }
    const event = toStreamEvent(e, null, sessionId);
    if (event) {
      events.push(event);
      // Only the main agent's messages end a session; a sidechain line is a subagent's.
      if ((e.type === "user" || e.type === "assistant") && e.isSidechain !== true) last = e;
    }
  }
  // A dispatch whose result never came back (the session stopped mid-subagent) still shows its calls.
  for (const s of subagents) placeSubagent(s.toolUseId);

  const stamps = main.map((e) => e.timestamp).filter((t): t is string => typeof t === "string").sort();
  const facts: SessionFacts = {
    ...(stamps.length ? { startedAt: stamps[0], endedAt: stamps[stamps.length - 1] } : {}),
    ...(typeof first?.gitBranch === "string" ? { gitBranch: first.gitBranch } : {}),
    hookRecord: "partial",
  };
  const lastContent = (last?.message as Json | undefined)?.content;
  // Each block of a message is its own line, every line carrying the message's stop reason: a
  // last line of a message that stopped for a tool is a log cut before the call, not an answer.
  const endedWithAnswer =
    last?.type === "assistant" &&
    (last.message as Json | undefined)?.model !== "<synthetic>" &&
    (last.message as Json | undefined)?.stop_reason !== "tool_use" &&
    !(Array.isArray(lastContent) && lastContent.some((b: Json) => b?.type === "tool_use"));
  if (endedWithAnswer) {
    // The log holds no result line; the answer, the turn count and the summed usage are what it
    // proves. Cost is not logged, so cost() fails on such a Trace instead of passing on a guess.
    const lastId = (last?.message as Json | undefined)?.id;
    const answer = main.filter((e) => e.type === "assistant" && (e.message as Json | undefined)?.id === lastId).map(assistantText).join("");
    const [firstStamp] = stamps;
    const lastStamp = stamps.at(-1);
    const duration = firstStamp !== undefined && lastStamp !== undefined ? Date.parse(lastStamp) - Date.parse(firstStamp) : undefined;
    events.push({
      type: "result",
      subtype: "success",
      is_error: false,
      result: answer,
      num_turns: assistantMessages,
      ...(duration !== undefined && Number.isFinite(duration) ? { duration_ms: duration } : {}),
      usage,
      ...(costUsd !== undefined ? { total_cost_usd: costUsd } : {}),
      session_id: sessionId,
    });
  }
  const streamJson = events
    .map((e) => (e.type === "__malformed__" ? `${String(e.text)}` : JSON.stringify(e)))
    .join("\n");
  return { streamJson, facts };
}

/** A file's text, or its bytes (UTF-8) for readers that decode line by line. */
export type EventText = string | Uint8Array;

/** A transcript file's text, and — when it is a session log — its subagents' logs. */
export interface TranscriptFiles<T extends EventText = string> {
  /** The file read (a session folder stands for `<folder>.jsonl`). */
  readonly file: string;
  readonly text: T;
  /** Present exactly when `text` is a session log. */
  readonly subagents?: SubagentLog[];
}

/**
 * Read a transcript given its path: a stream-json file, a session log, or a session folder
 * (`<id>/` stands for `<id>.jsonl`, its subagents under `<id>/subagents/`). Each file is read once,
 * with `read` (the caller's bounded reader).
 */
export function readTranscriptFiles<T extends EventText = string>(path: string, read: (file: string) => T): TranscriptFiles<T> {
  const trimmed = path.replace(/\/+$/, "");
  // A folder counts only with its log beside it; asking that first spares a stat of every plain file.
  const isFolder = existsSync(`${trimmed}.jsonl`) && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  const file = isFolder ? `${trimmed}.jsonl` : path;
  const text = read(file);
  if (!isSessionLog(text)) return { file, text };
  const folder = isFolder ? trimmed : join(dirname(file), basename(file, ".jsonl"));
  const subagents: SubagentLog[] = [];
  const dir = join(folder, "subagents");
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).filter((n) => /^agent-.+\.jsonl$/.test(n)).sort()) {
      const metaPath = join(dir, name.replace(/\.jsonl$/, ".meta.json"));
      const why = "each subagent log agent-<id>.jsonl needs its agent-<id>.meta.json beside it, as Claude Code writes them";
      const meta = (readDataFile(metaPath, { format: "json", what: "the subagent's metadata", code: "TRANSCRIPT_UNREADABLE", ifMissing: why, hint: why }) ?? {}) as Json;
      if (typeof meta.toolUseId !== "string") continue; // not dispatched by an Agent call (e.g. compaction)
      subagents.push({ toolUseId: meta.toolUseId, ...(typeof meta.agentType === "string" ? { agentType: meta.agentType } : {}), text: read(join(dir, name)) });
    }
  }
  return { file, text, subagents };
}

/** Where Claude Code keeps session logs: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function sessionsRoot(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const home = env.HOME ?? env.USERPROFILE ?? "";
  return join(env.CLAUDE_CONFIG_DIR ?? join(home, ".claude"), "projects");
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A command-line argument as a transcript path: itself when it exists, else — when it is a session
 * id — that session's log under `root`. Unchanged otherwise, so the reader names the missing path.
 */
export function resolveTranscriptArg(arg: string, root?: string): string {
  // The pattern first: a path that is no session id needs no look at the disk here.
  if (!SESSION_ID.test(arg) || existsSync(arg)) return arg;
  root ??= sessionsRoot();
  if (!existsSync(root)) return arg;
  for (const project of readdirSync(root)) {
    const candidate = join(root, project, `${arg}.jsonl`);
    if (existsSync(candidate)) return candidate;
  }
  return arg;
}

/** One session log found under a projects folder. */
export interface SessionEntry {
  readonly id: string;
  readonly file: string;
  readonly project: string;
}

/** Every session log under `root` (`<project>/<session-id>.jsonl`), newest file first. */
export function listSessionFiles(root = sessionsRoot()): SessionEntry[] {
  if (!existsSync(root)) return [];
  const out: (SessionEntry & { mtime: number })[] = [];
  for (const project of readdirSync(root)) {
    const dir = join(root, project);
    if (!statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".jsonl")) continue;
      const file = join(dir, name);
      out.push({ id: basename(name, ".jsonl"), file, project, mtime: statSync(file).mtimeMs });
    }
  }
  return out.sort((a, b) => b.mtime - a.mtime).map(({ mtime: _, ...e }) => e);
}

/** A session's prompt: the first user line whose content is text. */
export function sessionPrompt(text: string): string | undefined {
  for (const line of text.split("\n", 200)) {
    if (line.trim() === "") continue;
    try {
      const e = JSON.parse(line) as { type?: string; message?: { content?: unknown } };
      if (e.type === "user" && typeof e.message?.content === "string") return e.message.content;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
