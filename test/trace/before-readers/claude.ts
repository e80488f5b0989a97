/**
 * The transcript parser as it was before the per-event readers, frozen: the oracle the
 * equivalence property test compares the readers with. Not used by anything else.
 */
import { findExcessDepth, MAX_JSON_DEPTH } from "../../../src/io/json-depth.js";
import { interpretHookOutput } from "../../../src/hook/interpret.js";
import { tieDenyingHooks } from "../../../src/trace/denying-hooks.js";
import { filesFromCalls } from "../../../src/trace/files-from-calls.js";
import { toolResultStatus } from "../../../src/trace/result-status.js";
import { MAIN_AGENT, type HookEvent, type Reply, type RunProblem, type RunOutcome, type SkillActivation, type SubagentRun, type ToolCall, type ToolStatus, type Trace, type TraceSource, type Usage } from "../../../src/trace/types.js";

type Json = Record<string, any>;

interface MutableCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  agent: string;
  agentType?: string | undefined;
  result?: string;
  isError?: boolean;
  turn: number;
  /** Index into the hooks of the PreToolUse hook event that refused this call. */
  denyingHook?: number;
}

interface MessageGroup {
  id: string;
  agent: string;
  texts: string[];
  callsTool: boolean;
  synthetic: boolean;
  at: number;
  /** 1-based number of this model message over the run. */
  turn: number;
}

const SUBAGENT_TOOLS = new Set(["Agent", "Task"]);

/** The `trace.errors` kind of a text with no transcript event in it at all (notes, a log, an empty file). */
export const NOT_A_TRANSCRIPT = "not-a-transcript";

/** Tool-result content (a string or blocks) as text. */
export function flattenContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? "" : JSON.stringify(content);
  return content
    .map((b: Json) => (b?.type === "text" ? String(b.text ?? "") : b?.type === "image" ? "[image]" : JSON.stringify(b)))
    .join("\n");
}

/** Parse transcript text into a Trace. Never throws on content: problems land in `trace.errors`. */
export function parseTranscript(text: string, options: { sourceKind?: TraceSource["kind"] } = {}): Trace {
  const calls: MutableCall[] = [];
  const byId = new Map<string, MutableCall>();
  const groups = new Map<string, MessageGroup>();
  const subagentTypes = new Map<string, string>();
  const hooks: HookEvent[] = [];
  const startedHooks = new Map<string, { name: string; event: string; at: number; callId?: string | undefined }>();
  const errors: RunProblem[] = [];
  let source: TraceSource = { kind: options.sourceKind ?? "transcript" };
  let result: Json | undefined;
  let syntheticError: string | undefined;
  let events = 0;

  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.length === 0 || raw.trim().length === 0) continue;
    let line: Json;
    try {
      if (findExcessDepth(raw) !== undefined) throw new Error(`it nests deeper than ${MAX_JSON_DEPTH} levels`);
      line = JSON.parse(raw);
    } catch (error) {
      errors.push({ kind: "malformed-line", line: i + 1, message: `line ${i + 1} is not JSON (${(error as Error).message}); skipped, the rest was read` });
      // A damaged event is still a sign of a transcript; prose or a log is not.
      if (raw.trimStart().startsWith("{")) events++;
      continue;
    }
    if (typeof line !== "object" || line === null) {
      errors.push({ kind: "malformed-line", line: i + 1, message: `line ${i + 1} is not a JSON object; skipped, the rest was read` });
      continue;
    }
    if (typeof line.type === "string") events++;
    switch (line.type) {
      case "assistant": {
        const msg: Json = line.message ?? {};
        const agent: string = line.parent_tool_use_id ?? MAIN_AGENT;
        const id: string = msg.id ?? `line-${i + 1}`;
        let group = groups.get(id);
        if (!group) {
          group = { id, agent, texts: [], callsTool: false, synthetic: msg.model === "<synthetic>", at: calls.length, turn: groups.size + 1 };
          groups.set(id, group);
        }
        for (const block of Array.isArray(msg.content) ? msg.content : []) {
          if (block?.type === "text" && typeof block.text === "string") group.texts.push(block.text);
          else if (block?.type === "tool_use") {
            group.callsTool = true;
            const call: MutableCall = {
              id: String(block.id),
              name: String(block.name),
              input: typeof block.input === "object" && block.input !== null ? block.input : {},
              agent,
              turn: group.turn,
            };
            if (agent !== MAIN_AGENT) call.agentType = subagentTypes.get(agent);
            if (SUBAGENT_TOOLS.has(call.name)) subagentTypes.set(call.id, String(call.input.subagent_type ?? "general-purpose"));
            calls.push(call);
            byId.set(call.id, call);
          }
        }
        if (group.synthetic && group.texts.length > 0) syntheticError = group.texts.join("");
        break;
      }
      case "user": {
        const content = line.message?.content;
        if (!Array.isArray(content)) break;
        for (const block of content) {
          if (block?.type !== "tool_result") continue;
          const call = byId.get(String(block.tool_use_id));
          if (!call) continue;
          call.result = flattenContent(block.content);
          call.isError = block.is_error === true;
        }
        break;
      }
      case "system":
        if (line.subtype === "init") source = readInit(line, source.kind);
        else if (line.subtype === "hook_started") {
          const name = String(line.hook_name ?? line.hook_event ?? "");
          startedHooks.set(String(line.hook_id), { name, event: String(line.hook_event ?? name.split(":")[0]), at: calls.length, callId: findHookCall(calls, name) });
        } else if (line.subtype === "hook_response") hooks.push(readHookResponse(line, startedHooks, calls));
        break;
      case "result":
        result = line;
        break;
      default:
        break; // newer CLIs add line types; they carry nothing a check reads today
    }
  }

  // Hooks that started but never answered: the run ended under them.
  const answered = new Set(hooks.map((x) => (x as { hookId?: string }).hookId));
  for (const [id, h] of startedHooks) {
    if (!answered.has(id)) hooks.push({ name: h.name, event: h.event, exitCode: null, outcome: "pending", blocked: false, output: "", at: h.at, ...(h.callId ? { callId: h.callId } : {}) });
  }
  for (const h of hooks) delete (h as { hookId?: string }).hookId;
  tieDenyingHooks(hooks, calls, byId);

  const denials = new Set<string>((Array.isArray(result?.permission_denials) ? result!.permission_denials : []).map((d: Json) => String(d.tool_use_id)));
  const toolCalls: ToolCall[] = calls.map((c) => finishCall(c, denials));
  const index = new Map(toolCalls.map((c, i) => [c.id, i]));

  const subagents: SubagentRun[] = [];
  const skills: SkillActivation[] = [];
  toolCalls.forEach((c, i) => {
    if (SUBAGENT_TOOLS.has(c.name)) {
      subagents.push({
        id: c.id,
        type: subagentTypes.get(c.id)!,
        ...(typeof c.input.description === "string" ? { description: c.input.description } : {}),
        prompt: typeof c.input.prompt === "string" ? c.input.prompt : "",
        calls: toolCalls.flatMap((x, j) => (x.agent === c.id ? [j] : [])),
        ...(c.result !== undefined ? { output: c.result } : {}),
        status: c.status,
      });
    } else if (c.name === "Skill" && typeof c.input.skill === "string") {
      skills.push({ name: c.input.skill, callIndex: i, agent: c.agent, status: c.status });
    }
  });

  const replies: Reply[] = [];
  for (const g of groups.values()) {
    if (g.agent !== MAIN_AGENT || g.callsTool || g.synthetic) continue;
    const text = g.texts.join("");
    if (text.trim()) replies.push({ text, messageId: g.id, at: g.at });
  }

  let outcome: RunOutcome | undefined;
  let usage: Usage | undefined;
  if (result) {
    outcome = {
      subtype: String(result.subtype ?? "unknown"),
      isError: result.is_error === true,
      ...(typeof result.stop_reason === "string" ? { stopReason: result.stop_reason } : {}),
      ...(typeof result.api_error_status === "number" ? { apiErrorStatus: result.api_error_status } : {}),
    };
    usage = readUsage(result);
    if (outcome.isError) {
      const detail = typeof result.result === "string" && result.result ? result.result : Array.isArray(result.errors) ? result.errors.join("; ") : outcome.subtype;
      // A lost connection has no status but is an API error all the same ("API Error: Connection …").
      errors.push({ kind: outcome.apiErrorStatus || /^API Error\b/.test(detail) ? "api-error" : outcome.subtype, message: detail });
    }
  } else {
    if (events === 0) errors.push({ kind: NOT_A_TRANSCRIPT, message: "no line is a transcript event (a JSON object with a \"type\", or a damaged one); this is not claude stream-json output" });
    errors.push({
      kind: "incomplete",
      message: syntheticError
        ? `the transcript has no final result line; the last thing the CLI said was ${JSON.stringify(syntheticError.slice(0, 200))}`
        : "the transcript has no final result line: the run was killed, crashed or cut off",
    });
  }

  return {
    version: 1,
    source,
    complete: result !== undefined,
    ...(outcome ? { outcome } : {}),
    toolCalls,
    subagents,
    skills,
    hooks: hooks.map((h) => (h.callId && !index.has(h.callId) ? ({ ...h, callId: undefined } as unknown as HookEvent) : h)),
    replies,
    ...(typeof result?.result === "string" && !result.is_error ? { output: result.result } : {}),
    ...(typeof result?.num_turns === "number" ? { turns: result.num_turns } : {}),
    ...(usage ? { usage } : {}),
    files: filesFromCalls(toolCalls, source.cwd),
    errors,
  };
}

function readInit(line: Json, kind: TraceSource["kind"]): TraceSource {
  return {
    kind,
    ...(typeof line.claude_code_version === "string" ? { agentVersion: line.claude_code_version } : {}),
    ...(typeof line.session_id === "string" ? { sessionId: line.session_id } : {}),
    ...(typeof line.model === "string" ? { model: line.model } : {}),
    ...(typeof line.cwd === "string" ? { cwd: line.cwd } : {}),
    ...(typeof line.permissionMode === "string" ? { permissionMode: line.permissionMode } : {}),
    ...(Array.isArray(line.tools) ? { tools: line.tools.map(String) } : {}),
    ...(Array.isArray(line.mcp_servers) ? { mcpServers: line.mcp_servers.map((s: Json) => ({ name: String(s.name), status: String(s.status) })) } : {}),
    ...(Array.isArray(line.plugins) ? { plugins: line.plugins.map((p: Json) => ({ name: String(p?.name ?? ""), path: String(p?.path ?? "") })) } : {}),
  };
}

/** The call a `PreToolUse:Write`-style hook is about: the latest Write still waiting for its result. */
function findHookCall(calls: readonly MutableCall[], hookName: string): string | undefined {
  const colon = hookName.indexOf(":");
  if (colon === -1) return undefined;
  const toolName = hookName.slice(colon + 1);
  for (let i = calls.length - 1; i >= 0; i--) if (calls[i].name === toolName && calls[i].result === undefined) return calls[i].id;
  for (let i = calls.length - 1; i >= 0; i--) if (calls[i].name === toolName) return calls[i].id;
  return undefined;
}

function readHookResponse(line: Json, started: Map<string, { name: string; event: string; at: number; callId?: string | undefined }>, calls: readonly MutableCall[]): HookEvent {
  const id = String(line.hook_id);
  const start = started.get(id);
  const name = String(line.hook_name ?? start?.name ?? "");
  const exitCode = typeof line.exit_code === "number" ? line.exit_code : null;
  const stdout = typeof line.stdout === "string" ? line.stdout : "";
  const stderr = typeof line.stderr === "string" ? line.stderr : "";
  const verdict = interpretHookOutput(exitCode, stdout, stderr);
  const callId = start?.callId ?? findHookCall(calls, name);
  const hook: HookEvent & { hookId: string } = {
    hookId: id,
    name,
    event: String(line.hook_event ?? start?.event ?? name.split(":")[0]),
    exitCode,
    outcome: String(line.outcome ?? (exitCode === 0 ? "success" : "error")),
    blocked: verdict.blocked,
    ...(verdict.decision ? { decision: verdict.decision } : {}),
    output: typeof line.output === "string" ? line.output : stdout + stderr,
    stdout,
    stderr,
    ...(callId ? { callId } : {}),
    at: start?.at ?? calls.length,
  };
  return hook;
}

function finishCall(c: MutableCall, denials: ReadonlySet<string>): ToolCall {
  let status: ToolStatus;
  let deniedBy: ToolCall["deniedBy"];
  let effects: readonly unknown[] | undefined;
  if (c.result === undefined) status = "pending";
  else {
    const s = toolResultStatus(c.result, c.isError === true, { listed: denials.has(c.id), hookBlocked: c.denyingHook !== undefined });
    status = s.status;
    deniedBy = s.deniedBy;
    effects = s.effects;
  }
  return {
    id: c.id,
    name: c.name,
    input: c.input,
    ...(c.result !== undefined ? { result: c.result } : {}),
    status,
    agent: c.agent,
    ...(c.agentType ? { agentType: c.agentType } : {}),
    ...(deniedBy ? { deniedBy } : {}),
    ...(deniedBy === "hook" && c.denyingHook !== undefined ? { denyingHook: c.denyingHook } : {}),
    turn: c.turn,
    ...(effects?.length ? { effects } : {}),
  };
}

function readUsage(result: Json): Usage | undefined {
  const u = result.usage;
  if (typeof u !== "object" || u === null) return undefined;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  return {
    ...(typeof result.total_cost_usd === "number" && Number.isFinite(result.total_cost_usd) ? { costUsd: result.total_cost_usd } : {}),
    ...(typeof result.duration_ms === "number" && Number.isFinite(result.duration_ms) ? { durationMs: result.duration_ms } : {}),
    inputTokens: n(u.input_tokens),
    outputTokens: n(u.output_tokens),
    cacheCreationTokens: n(u.cache_creation_input_tokens),
    cacheReadTokens: n(u.cache_read_input_tokens),
  };
}

