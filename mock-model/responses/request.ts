/** A Responses API request body, read once into the shapes recording and function turns need. */
import type { ModelRequest } from "../../src/trace/types.js";
import type { ToolResultSeen } from "../script/types.js";
import type { OfferedTool } from "./offered.js";
import { outputStatus } from "./output-status.js";
import { asRecord, asString, at } from "../../src/util/narrow.js";

type Json = Record<string, unknown>;

/** An input item's `type`, or "" when it has none. */
const typeOf = (item: unknown): string => asString(asRecord(item).type) ?? "";

const OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output", "local_shell_call_output", "tool_search_output"]);
const CALL_TYPES = new Set(["function_call", "custom_tool_call", "local_shell_call", "tool_search_call"]);

/** A tool output as text: a string, or content parts (`input_text` …) joined by newlines. */
export function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return output.map((p: Json) => (typeof p?.text === "string" ? p.text : p?.type === "input_image" ? "[image]" : "")).join("\n");
  return output === undefined || output === null ? "" : JSON.stringify(output);
}

function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p: Json) => (typeof p?.text === "string" ? p.text : p?.type === "input_image" ? "[image]" : "")).join("\n");
}

function callName(item: Json): string {
  const own = String(item.name ?? item.type);
  return typeof item.namespace === "string" && item.namespace ? `${item.namespace}__${own}` : own;
}

/** One input item as a `[kind] text` line. */
function itemText(item: Json): string | undefined {
  switch (item?.type) {
    case "message":
      return item.role === "developer" || item.role === "system" ? undefined : `[${String(item.role)}] ${partsText(item.content)}`;
    case "reasoning":
      return `[reasoning] ${Array.isArray(item.summary) ? item.summary.map((s: Json) => String(s?.text ?? "")).join("\n") : ""}`;
    case "function_call":
      return `[tool_use ${callName(item)} ${String(item.call_id)}] ${String(item.arguments ?? "")}`;
    case "custom_tool_call":
      return `[tool_use ${callName(item)} ${String(item.call_id)}] ${String(item.input ?? "")}`;
    case "additional_tools":
      return undefined;
    default:
      if (OUTPUT_TYPES.has(typeOf(item))) return `[tool_result ${String(item.call_id)}] ${outputText(item.output)}`;
      return `[${String(item?.type)}] ${JSON.stringify(item)}`;
  }
}

/** The instructions and every developer/system message, as one text. */
export function systemText(body: Json): string {
  const input: Json[] = Array.isArray(body.input) ? body.input : [];
  const parts = typeof body.instructions === "string" && body.instructions ? [body.instructions] : [];
  for (const item of input) if (item?.type === "message" && (item.role === "developer" || item.role === "system")) parts.push(partsText(item.content));
  return parts.join("\n");
}

/** Every conversation item as `[kind] text`, tool calls and their outputs included. */
export function inputText(body: Json): string {
  const input: Json[] = Array.isArray(body.input) ? body.input : typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : [];
  return input.flatMap((item) => itemText(item) ?? []).join("\n");
}

/** The recorded form of a request: what the model was told and which tools it was offered. */
export function recordResponsesRequest(agent: string, body: Json, offered: readonly OfferedTool[]): ModelRequest {
  const system = systemText(body);
  return { agent, system, messages: inputText(body), tools: offered.map((t) => ({ name: t.name, description: t.description })), inbound: `${system}\n${inboundText(body)}` };
}

/** What reached the model from outside: every item but the model's own messages, reasoning and calls. */
function inboundText(body: Json): string {
  const input: Json[] = Array.isArray(body.input) ? body.input : typeof body.input === "string" ? [{ type: "message", role: "user", content: body.input }] : [];
  const outside = input.filter((item) => !(item?.type === "message" && item.role === "assistant") && item?.type !== "reasoning" && !CALL_TYPES.has(typeOf(item)));
  return outside.flatMap((item) => itemText(item) ?? []).join("\n");
}

/** Every tool output the request carries, by call id. */
export function toolOutputs(body: Json): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of Array.isArray(body.input) ? body.input : []) if (OUTPUT_TYPES.has(item?.type)) out.set(String(item.call_id), outputText(item.output));
  return out;
}

/** The outputs at the end of the conversation (the answers to the model's last calls), in order. */
export function lastToolResults(body: Json, names: ReadonlyMap<string, string>): ToolResultSeen[] {
  const input: Json[] = Array.isArray(body.input) ? body.input : [];
  const out: ToolResultSeen[] = [];
  for (let i = input.length - 1; i >= 0; i--) {
    const item = at(input, i);
    if (CALL_TYPES.has(typeOf(item))) continue;
    if (!OUTPUT_TYPES.has(typeOf(item))) break;
    const id = String(item.call_id);
    const content = outputText(item.output);
    const name = names.get(id);
    out.unshift({ toolUseId: id, ...(name ? { name } : {}), content, isError: outputStatus(content).status !== "success" });
  }
  return out;
}

/** The last thing the model received, in one line, for error messages. */
export function describeLastReceived(body: Json): string {
  const input: Json[] = Array.isArray(body.input) ? body.input : [];
  const last = [...input].reverse().find((item) => itemText(item) !== undefined);
  if (!last) return "nothing (no input items)";
  const text = (itemText(last) ?? "").replace(/\s+/g, " ").trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
