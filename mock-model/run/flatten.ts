/** A Messages API request body, read once into the shapes routing and recording need. */
import type { ModelRequest } from "../../src/trace/types.js";
import type { ToolResultSeen } from "../script/types.js";
import { at } from "../../src/util/narrow.js";

type Json = Record<string, unknown>;

/** Text of a content value (a string or blocks), tool results and tool calls included. */
function blockText(block: Json): string {
  switch (block?.type) {
    case "text":
      return String(block.text ?? "");
    case "thinking":
      return `[thinking] ${String(block.thinking ?? "")}`;
    case "tool_use":
      return `[tool_use ${String(block.name)} ${String(block.id)}] ${JSON.stringify(block.input ?? {})}`;
    case "tool_result":
      return `[tool_result ${String(block.tool_use_id)}${block.is_error ? " error" : ""}] ${contentText(block.content)}`;
    case "image":
      return "[image]";
    default:
      return JSON.stringify(block);
  }
}

/** A message's content as text. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map(blockText).join("\n");
}

/** The system prompt as one text (it arrives as a string or as text blocks). */
export function systemText(system: unknown): string {
  if (typeof system === "string") return system;
  if (!Array.isArray(system)) return "";
  return system.map((b: Json) => String(b?.text ?? "")).join("\n");
}

/** Every message as `[role] text`, tool calls and tool results included. */
export function messagesText(messages: readonly Json[]): string {
  return messages.map((m) => `[${String(m.role)}] ${contentText(m.content)}`).join("\n");
}

const REMINDER = /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/;

/**
 * The first user message's own words: the prompt (main agent) or the Agent call's prompt
 * (a subagent), without the `<system-reminder>` blocks the CLI adds.
 */
export function firstUserText(messages: readonly Json[]): string {
  const first = messages.find((m) => m.role === "user");
  if (!first) return "";
  if (typeof first.content === "string") return first.content;
  if (!Array.isArray(first.content)) return "";
  return first.content
    .filter((b: Json) => b?.type === "text" && !REMINDER.test(String(b.text ?? "")))
    .map((b: Json) => String(b.text))
    .join("\n");
}

/** The tool results in the last user message, in order. */
export function lastToolResults(messages: readonly Json[], toolNames: ReadonlyMap<string, string>, protocol?: { readonly notices: ReadonlyMap<string, TaskNoticeLike> }): ToolResultSeen[] {
  const seen = (b: Json): ToolResultSeen => {
    const id = String(b.tool_use_id);
    const name = toolNames.get(id);
    const notice = protocol?.notices.get(id);
    // A background subagent's answer came in its notification: the call's result, as a claude that
    // runs subagents in the foreground would have given it.
    if (notice) return { toolUseId: id, ...(name ? { name } : {}), content: notice.result ?? "", isError: notice.status !== "completed" };
    const text = contentText(b.content);
    return { toolUseId: id, ...(name ? { name } : {}), content: name === "Agent" || name === "Task" ? subagentWords(text) : text, isError: b.is_error === true };
  };
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = at(messages, i);
    if (m.role !== "user") continue;
    if (!Array.isArray(m.content)) return [];
    const results = m.content.filter((b: Json) => b?.type === "tool_result");
    if (results.length > 0 || !protocol) return results.map(seen);
    // A notification after the mock's own empty turns: the results are those of the last call-making turn.
    for (let j = i - 1; j >= 0; j--) {
      const a = at(messages, j);
      if (a.role !== "assistant") continue;
      const blocks = Array.isArray(a.content) ? (a.content as Json[]) : [];
      if (!blocks.some((b) => b?.type === "tool_use")) {
        if (blocks.every((b) => b?.type === "text" && String(b.text ?? "").trim() === "")) continue;
        return [];
      }
      const next = messages.slice(j + 1).find((x) => x.role === "user");
      const answered = next && Array.isArray(next.content) ? (next.content as Json[]).filter((b) => b?.type === "tool_result") : [];
      return answered.some((b) => protocol.notices.has(String(b.tool_use_id))) ? answered.map(seen) : [];
    }
    return [];
  }
  return [];
}

/** The frame claude ≥ 2.1.3xx puts around a foreground subagent's report, up to the report. */
const HAND_BACK = /^[\s\S]*?\[Subagent hand-back\][^\n]*?The report follows:\n/;
/** The note of the tools a subagent used, before its hand-back. */
const TOOLS_USED = /^\s*<tools-used-before-summary>[\s\S]*?<\/tools-used-before-summary>\s*/;
/** claude's bookkeeping after a subagent's answer (agentId, usage). */
const TRAILER = /\n*agentId: [\w-]+ \(use SendMessage[\s\S]*$/;

/**
 * A subagent's words as its Agent call's result carries them, without claude's framing: the
 * hand-back frame (its report indented two spaces) and the agentId/usage trailer. The same answer
 * reads the same on every claude.
 */
export function subagentWords(text: string): string {
  let words = text.replace(TRAILER, "");
  if (HAND_BACK.test(words)) {
    words = words
      .replace(HAND_BACK, "")
      .split("\n")
      .map((line) => line.replace(/^ {2}/, ""))
      .join("\n");
  } else words = words.replace(TOOLS_USED, "");
  return words;
}

/** A background task's end, as much of it as a tool result needs. */
interface TaskNoticeLike {
  readonly status: string;
  readonly result?: string;
}

/** The last thing the model received, in one line, for error messages. */
export function describeLastReceived(messages: readonly Json[]): string {
  // The CLI's own notices come as `system` messages (claude ≥ 2.1.3xx re-sends a refused request
  // with "ToolSearch is no longer available"): what the agent last received is before them.
  let i = messages.length - 1;
  while (i > 0 && messages[i]?.role === "system") i--;
  const last = messages[i];
  if (!last) return "nothing (no messages)";
  const text = contentText(last.content).replace(/\s+/g, " ").trim();
  return `${String(last.role)}: ${text.length > 300 ? `${text.slice(0, 299)}…` : text}`;
}

/**
 * The list claude ≥ 2.1.3xx writes in place of deferred tools' schemas ("The following deferred
 * tools are now available via ToolSearch. … :" then one name a line): those tools are offered too.
 */
const DEFERRED_LIST = /The following deferred tools are now available via ToolSearch\.[^\n]*\n((?:[^\s<>]+\n?)+)/g;

/** The tool names a request offers only by name, for ToolSearch to load. */
export function deferredToolNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(DEFERRED_LIST)) for (const name of (m[1] ?? "").split("\n")) if (name) names.push(name);
  return names;
}

/** The recorded form of a request routed to an agent. */
export function recordRequest(agent: string, body: Json): ModelRequest {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const system = systemText(body.system);
  const messages = messagesText(Array.isArray(body.messages) ? body.messages : []);
  const offered: { name: string; description: string; deferred?: boolean }[] = [];
  for (const t of tools as Json[]) {
    const name = String(t?.name ?? "");
    // The placeholder stands for the deferred tools; it is no tool the model can call.
    if (name === "DeferredToolPlaceholder") continue;
    offered.push({ name, description: String(t?.description ?? ""), ...(t?.defer_loading === true ? { deferred: true } : {}) });
  }
  const seen = new Set(offered.map((t) => t.name));
  for (const name of deferredToolNames(`${system}\n${messages}`)) {
    if (seen.has(name)) continue;
    seen.add(name);
    offered.push({ name, description: "(deferred: its schema is loaded through ToolSearch)", deferred: true });
  }
  const outside = (Array.isArray(body.messages) ? (body.messages as Json[]) : []).filter((m) => m?.role !== "assistant");
  return { agent, system, messages, tools: offered, inbound: `${system}\n${messagesText(outside)}` };
}
