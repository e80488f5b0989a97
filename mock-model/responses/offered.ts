/**
 * The tools a Responses API request offers the model, read from the request itself: the CLI's
 * tool set changes between versions (function tools, freeform tools, namespaces, "code mode"'s
 * `additional_tools` input item, deferred MCP namespaces), so nothing here is hard-coded.
 */
type Json = Record<string, unknown>;

/** One tool the model may call, under the name a script uses for it. */
export interface OfferedTool {
  /** `exec_command`, `apply_patch`, `clock__sleep`, `mcp__echo` (a deferred namespace). Namespaced tools are `<namespace>__<tool>`, as Codex itself names them. */
  readonly name: string;
  /**
   * `function`: JSON arguments; `custom`: freeform text (e.g. `apply_patch`); `namespace`: a deferred
   * namespace whose tools load on demand (`mcp__<server>__<tool>` calls go through it); `hosted`:
   * run by the API itself (`web_search`, `tool_search`), so a mock cannot script it.
   */
  readonly kind: "function" | "custom" | "namespace" | "hosted";
  readonly description: string;
  /** The namespace the call must carry (tools inside a namespace). */
  readonly namespace?: string;
}

/** What a scripted call becomes on the wire. */
export interface ResolvedCall {
  readonly kind: "function" | "custom";
  /** The tool's own name, as the output item carries it. */
  readonly toolName: string;
  readonly namespace?: string;
}

/** The namespace Codex puts its plain tools in; its tools are called without a namespace. */
const DEFAULT_NAMESPACE = "functions";

function addTool(out: OfferedTool[], tool: Json, namespace: string | undefined): void {
  if (typeof tool !== "object" || tool === null) return;
  const type = String(tool.type ?? "");
  if (type === "namespace") {
    const ns = String(tool.name ?? "");
    for (const inner of Array.isArray(tool.tools) ? tool.tools : []) addTool(out, inner, ns === DEFAULT_NAMESPACE ? undefined : ns);
    return;
  }
  const description = typeof tool.description === "string" ? tool.description : "";
  if (type === "function" || type === "custom") {
    const own = String(tool.name ?? "");
    if (!own) return;
    out.push({ name: namespace ? `${namespace}__${own}` : own, kind: type, description, ...(namespace ? { namespace } : {}) });
    return;
  }
  out.push({ name: String(tool.name ?? type), kind: "hosted", description });
}

/** Text of a message item's content parts. */
function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p: Json) => (typeof p?.text === "string" ? p.text : "")).join("\n");
}

/** `- mcp__echo` / `- multi_agent_v1: Tools for …` lines under "Deferred tool namespaces:". */
function deferredNamespaces(input: readonly Json[]): { name: string; description: string }[] {
  const out: { name: string; description: string }[] = [];
  for (const item of input) {
    if (item?.type !== "message" || item.role === "assistant") continue;
    const text = partsText(item.content);
    const at = text.indexOf("Deferred tool namespaces:");
    if (at === -1) continue;
    for (const line of text.slice(at).split("\n").slice(1)) {
      const m = /^- ([\w.-]+)(?::\s*(.*))?$/.exec(line.trim());
      if (!m) break;
      out.push({ name: m[1] ?? "", description: m[2] ?? "" });
    }
  }
  return out;
}

/**
 * Every tool the request offers: its top-level `tools`, the `additional_tools` input item (code
 * mode), and the deferred namespaces its instructions list (MCP servers, whose tools load through
 * `tool_search`). An empty list means the request offers no tools (a side request), or is not a
 * request body at all.
 */
export function readOfferedTools(body: Json): OfferedTool[] {
  const out: OfferedTool[] = [];
  if (typeof body !== "object" || body === null) return out; // not a request body: it offers nothing
  for (const tool of Array.isArray(body.tools) ? body.tools : []) addTool(out, tool, undefined);
  const input: Json[] = Array.isArray(body.input) ? body.input : [];
  for (const item of input) {
    if (item?.type === "additional_tools") for (const tool of Array.isArray(item.tools) ? item.tools : []) addTool(out, tool, undefined);
  }
  const known = new Set(out.map((t) => t.namespace).filter(Boolean));
  for (const ns of deferredNamespaces(input)) {
    if (!known.has(ns.name)) out.push({ name: ns.name, kind: "namespace", description: `deferred tool namespace${ns.description ? `: ${ns.description}` : ""} (its tools load through tool_search)`, namespace: ns.name });
  }
  return out;
}

/**
 * How a scripted call to `name` goes on the wire, or why it can't: a tool the request offers
 * (exact name), or `<namespace>__<tool>` inside an offered deferred namespace (`mcp__echo__echo`).
 */
export function resolveCall(offered: readonly OfferedTool[], name: string): ResolvedCall | { readonly refused: string } {
  const exact = offered.find((t) => t.name === name && t.kind !== "namespace");
  if (exact?.kind === "hosted") return { refused: `${name} is a hosted tool (the API runs it, not the CLI), so a mock model cannot script a call to it` };
  if (exact) {
    const toolName = exact.namespace ? name.slice(exact.namespace.length + 2) : name;
    return { kind: exact.kind as "function" | "custom", toolName, ...(exact.namespace ? { namespace: exact.namespace } : {}) };
  }
  const ns = offered.find((t) => t.kind === "namespace" && name.startsWith(`${t.name}__`) && name.length > t.name.length + 2);
  if (ns) return { kind: "function", toolName: name.slice(ns.name.length + 2), namespace: ns.name };
  return { refused: `the CLI did not offer a tool named ${name}` };
}

/** The offered tools in one line, for error messages: `exec_command, apply_patch, mcp__echo__* (deferred)`. */
export function describeOffered(offered: readonly OfferedTool[]): string {
  if (offered.length === 0) return "no tools";
  return offered.map((t) => (t.kind === "namespace" ? `${t.name}__* (deferred)` : t.kind === "hosted" ? `${t.name} (hosted)` : t.name)).join(", ");
}
