/**
 * The CLI's protocol turns, recognised from the request alone: requests claude sends because of how
 * it runs the model's decisions, not because the model has something new to decide. The mock
 * answers them itself so one script runs unchanged on every supported claude (docs/harness.md,
 * "Turns the mock fills in"). Nothing here counts requests: each answer is read off the body.
 *
 * - **Background subagents** (claude ≥ 2.1.3xx runs an Agent call in the background unless its input
 *   says `run_in_background`): the call answers "Async agent launched successfully…", and when the
 *   subagent ends a `<task-notification>` arrives as user text. While a dispatch the script did not
 *   background itself is still running, the mock ends the main agent's turn with an empty answer
 *   (claude then waits); once every such dispatch has notified, the script's next turn is served,
 *   as it would be after the dispatch's result on a claude that runs subagents in the foreground.
 * - **Deferred tools** (claude ≥ 2.1.3xx names MCP and rarely used tools in a message and loads
 *   their schemas through ToolSearch): before a scripted call of a tool that is deferred and not
 *   yet loaded in this request, the mock emits the `ToolSearch` call a model has to make first
 *   (`select:<names>`), then the scripted turn.
 */
import { contentText, deferredToolNames } from "./flatten.js";
import { isRecord } from "../../src/util/narrow.js";

type Json = Record<string, unknown>;

/** The tools that dispatch a subagent (2.1.197 and later call it Agent; older versions Task). */
export const DISPATCH_TOOLS: ReadonlySet<string> = new Set(["Agent", "Task"]);

/** The tool claude ≥ 2.1.3xx loads deferred tools with. */
export const TOOL_SEARCH = "ToolSearch";

/** What an Agent call answers when claude runs the subagent in the background. */
export const LAUNCH_NOTICE = /^\s*Async agent launched successfully/;

/** One `<task-notification>` block (claude ≥ 2.1.3xx, when a background task ends). */
const NOTIFICATION = /<task-notification>([\s\S]*?)<\/task-notification>/g;

/** The placeholder tool that keeps deferred loading on: no tool the model can call. */
const PLACEHOLDER = "DeferredToolPlaceholder";

/** A background task's end, as its notification says it. */
export interface TaskNotice {
  /** The tool_use id of the call that started the task. */
  readonly toolUseId: string;
  /** `completed`, `failed`, `killed`, … as claude wrote it. */
  readonly status: string;
  /** The task's answer (a subagent's last words), when the notification carries one. */
  readonly result?: string;
}

/** A subagent dispatch in the request's history. */
export interface Dispatch {
  readonly id: string;
  /** The call's input set `run_in_background` itself: the script decided, the mock fills nothing for it. */
  readonly explicit: boolean;
}

/** What one request says about the protocol around the model's decisions. */
export interface ProtocolView {
  /** Dispatches whose call answered with a launch notice, by tool_use id. */
  readonly launched: ReadonlySet<string>;
  /** Every task notification the request carries, by tool_use id. */
  readonly notices: ReadonlyMap<string, TaskNotice>;
  /** Background dispatches the script did not background itself and that have not notified yet. */
  readonly running: readonly string[];
  /** The messages after the last assistant message carry a launch notice or a notification of such a dispatch. */
  readonly backgroundEvent: boolean;
  /** Tools offered only by name (deferred) and not loaded by a ToolSearch result yet. */
  readonly unloaded: ReadonlySet<string>;
  /** The request offers ToolSearch. */
  readonly toolSearch: boolean;
  /** The last assistant message's tool_use ids. */
  readonly lastCallIds: readonly string[];
}

const blocksOf = (m: Json): Json[] => (Array.isArray(m.content) ? (m.content as unknown[]).filter(isRecord) : []);

/** Text of a message's text blocks (or its string content). */
function textOf(m: Json): string {
  if (typeof m.content === "string") return m.content;
  return blocksOf(m)
    .filter((b) => b.type === "text")
    .map((b) => String(b.text ?? ""))
    .join("\n");
}

/** An assistant message with nothing in it: no call, no visible text. */
function isEmptyAnswer(m: Json): boolean {
  return blocksOf(m).every((b) => b.type === "text" && String(b.text ?? "").trim() === "") && (typeof m.content !== "string" || m.content.trim() === "");
}

const tagText = (body: string, tag: string): string | undefined => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(body)?.[1];

/** Every `<task-notification>` in a text, with the call it belongs to. */
export function readNotices(text: string): TaskNotice[] {
  const out: TaskNotice[] = [];
  for (const m of text.matchAll(NOTIFICATION)) {
    const body = m[1] ?? "";
    const toolUseId = tagText(body, "tool-use-id")?.trim();
    if (!toolUseId) continue;
    const result = tagText(body, "result");
    out.push({ toolUseId, status: tagText(body, "status")?.trim() ?? "", ...(result !== undefined ? { result: result.trim() } : {}) });
  }
  return out;
}

function systemText(system: unknown): string {
  if (typeof system === "string") return system;
  return Array.isArray(system) ? system.map((b) => String(isRecord(b) ? (b.text ?? "") : "")).join("\n") : "";
}

/** Read the protocol state off one Messages request body. */
export function readProtocol(body: Json): ProtocolView {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]).filter(isRecord) : [];
  const tools = Array.isArray(body.tools) ? (body.tools as unknown[]).filter(isRecord) : [];

  const dispatches = new Map<string, Dispatch>();
  const launched = new Set<string>();
  const notices = new Map<string, TaskNotice>();
  const loaded = new Set<string>();
  let lastAssistant = -1;
  messages.forEach((m, i) => {
    // An empty answer (the mock's own, when claude keeps it) says nothing: the tail runs past it.
    if (m.role === "assistant" && !isEmptyAnswer(m)) lastAssistant = i;
    for (const b of blocksOf(m)) {
      if (b.type === "tool_use" && DISPATCH_TOOLS.has(String(b.name))) {
        const input = isRecord(b.input) ? b.input : {};
        dispatches.set(String(b.id), { id: String(b.id), explicit: input.run_in_background !== undefined });
      }
      if (b.type === "tool_result") {
        if (LAUNCH_NOTICE.test(contentText(b.content))) launched.add(String(b.tool_use_id));
        if (Array.isArray(b.content)) for (const c of b.content) if (isRecord(c) && c.type === "tool_reference") loaded.add(String(c.tool_name));
      }
    }
    if (m.role !== "assistant") for (const n of readNotices(textOf(m))) notices.set(n.toolUseId, n);
  });

  const ours = (id: string) => dispatches.get(id)?.explicit === false;
  const running = [...launched].filter((id) => ours(id) && !notices.has(id));
  const tail = messages.slice(lastAssistant + 1);
  const backgroundEvent = tail.some(
    (m) => blocksOf(m).some((b) => b.type === "tool_result" && ours(String(b.tool_use_id)) && launched.has(String(b.tool_use_id))) || readNotices(textOf(m)).some((n) => ours(n.toolUseId)),
  );

  const direct = new Set<string>();
  const deferred = new Set<string>();
  for (const t of tools) {
    const name = String(t.name ?? "");
    if (name === PLACEHOLDER) continue;
    (t.defer_loading === true ? deferred : direct).add(name);
  }
  const listed = `${systemText(body.system)}\n${messages.filter((m) => m.role !== "assistant").map(textOf).join("\n")}`;
  for (const name of deferredToolNames(listed)) deferred.add(name);
  const unloaded = new Set([...deferred].filter((name) => !direct.has(name) && !loaded.has(name)));

  const last = lastAssistant >= 0 ? messages[lastAssistant] : undefined;
  const lastCallIds = last ? blocksOf(last).flatMap((b) => (b.type === "tool_use" ? [String(b.id)] : [])) : [];
  return { launched, notices, running, backgroundEvent, unloaded, toolSearch: direct.has(TOOL_SEARCH), lastCallIds };
}

/** What the mock answers a request with before the script's next turn, if anything. */
export type ProtocolTurn =
  /** A background dispatch is still running: end the turn, claude waits and notifies. */
  | { readonly kind: "await-background"; readonly running: readonly string[] }
  /** Load these deferred tools first. */
  | { readonly kind: "tool-search"; readonly names: readonly string[] };

/** Which protocol turns a script lets the mock fill in. */
export interface FillSwitches {
  readonly background: boolean;
  readonly toolSearch: boolean;
}

/**
 * The background turn for this request, before the script's next turn is looked at: an empty
 * answer while a dispatch the script did not background itself still runs and this request came
 * from the protocol (its launch notice or another task's notification).
 */
export function backgroundTurn(view: ProtocolView, fill: FillSwitches): ProtocolTurn | undefined {
  if (!fill.background || !view.backgroundEvent || view.running.length === 0) return undefined;
  return { kind: "await-background", running: view.running };
}

/**
 * The ToolSearch turn the scripted calls need first: the deferred, unloaded tools they name —
 * unless the request offers no ToolSearch, or its last assistant message was the mock's own
 * search (a search that loaded nothing is not repeated: the scripted call then goes out as is).
 */
export function toolSearchTurn(view: ProtocolView, calls: readonly string[], fill: FillSwitches, ownSearches: ReadonlySet<string>): ProtocolTurn | undefined {
  if (!fill.toolSearch || !view.toolSearch || calls.includes(TOOL_SEARCH)) return undefined;
  if (view.lastCallIds.some((id) => ownSearches.has(id))) return undefined;
  const names = [...new Set(calls.filter((name) => view.unloaded.has(name)))];
  return names.length > 0 ? { kind: "tool-search", names } : undefined;
}
