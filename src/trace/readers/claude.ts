/**
 * `claude -p --output-format stream-json --verbose` output → Trace. Each event kind has one small
 * reader over one explicit state; `READERS` says which reader takes which line, and `finishTrace`
 * turns the state into the Trace once every line is read. Unknown line types are skipped (newer
 * CLIs add them), malformed lines are reported by number without losing the rest, and a
 * transcript without a final `result` line is marked incomplete.
 */
import { interpretHookOutput } from "../../hook/interpret.js";
import { tieDenyingHooks } from "../denying-hooks.js";
import { filesFromCalls } from "../files-from-calls.js";
import { denierOf, toolResultStatus } from "../result-status.js";
import { MAIN_AGENT, type HookEvent, type Reply, type RunProblem, type RunOutcome, type SkillActivation, type SubagentRun, type ToolCall, type ToolStatus, type Trace, type TraceSource, type Usage } from "../types.js";
import { isRecord } from "../../util/narrow.js";
import { handBackText, launchedInBackground, noticeStatus, outcomeOf, readTaskNotice, resultError, segmentOf, sumTurns, sumUsage, type TaskNotice } from "./claude-segments.js";
import { readJsonLines } from "./json-lines.js";
import { withRewrites } from "./claude-rewrites.js";

type Json = Record<string, unknown>;

/** A tool call while the transcript is read: its result arrives on a later line. */
interface ReadingCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly agent: string;
  agentType: string | undefined;
  result: string | undefined;
  isError: boolean | undefined;
  readonly turn: number;
  /** Index into the hooks of the PreToolUse hook event that refused this call. */
  denyingHook: number | undefined;
  /** The work went on in the background (claude ≥ 2.1.3xx): the result is a launch notice. */
  background: boolean;
  /** A subagent's own words, as the structured `tool_use_result` gave them. */
  handBack: string | undefined;
  /** The calls to the same tool, this one among them. */
  readonly named: NamedCalls;
}

/** The calls to one tool, in order. */
interface NamedCalls {
  readonly calls: ReadingCall[];
  /** How many have no result yet: when none has, a hook's call is the latest. */
  pending: number;
}

/** The assistant lines of one model message (the CLI writes one line per content block). */
interface ModelMessage {
  readonly id: string;
  readonly agent: string;
  /** Its text blocks, kept only while they can still matter: a main-agent reply, or a synthetic message's last words. */
  texts: string[] | undefined;
  callsTool: boolean;
  readonly synthetic: boolean;
  /** Tool calls made before this message. */
  readonly at: number;
  /** 1-based number of this model message over the run. */
  readonly turn: number;
}

interface StartedHook {
  readonly name: string;
  readonly event: string;
  readonly at: number;
  readonly callId: string | undefined;
}


/** Everything reading a transcript has gathered so far. */
export interface ClaudeReadState {
  source: TraceSource;
  readonly calls: ReadingCall[];
  readonly callsById: Map<string, ReadingCall>;
  /** Calls per tool name, in order: what a `PreToolUse:Write` hook is about is found here. */
  readonly callsByName: Map<string, NamedCalls>;
  /**
   * Every model message by id. A message that has called a tool (and is not synthetic) is only
   * its turn number: nothing else about it can matter any more, and a number is no object for the
   * garbage collector to carry to the end of the read.
   */
  readonly messages: Map<string, ModelMessage | number>;
  /** Subagent type per spawning call id. */
  readonly subagentTypes: Map<string, string>;
  readonly hooks: HookEvent[];
  readonly startedHooks: Map<string, StartedHook>;
  /** Nothing but hook answers and notices since the last `result` line: the session had ended. */
  afterResult: boolean;
  /** The hook ids that answered (a started hook that did not is pending when the run ends). */
  readonly answeredHooks: Set<string>;
  readonly errors: RunProblem[];
  /** The last `result` line. */
  result: Json | undefined;
  /** Every `result` line, in order (one per segment). */
  readonly results: Json[];
  /** Each result line's index in `results` whose segment ended with the main agent's last input unanswered. */
  readonly unanswered: Set<number>;
  /** The main agent got input (a tool result, a prompt) and has not answered it yet. */
  awaitingMain: boolean;
  /** Who the CLI said denied a call, by call id (claude ≥ 2.1.3xx). */
  readonly deniers: Map<string, NonNullable<ToolCall["deniedBy"]>>;
  /** Background tasks' ends by the call that started them. */
  readonly notices: Map<string, TaskNotice>;
  /** Each subagent's latest text message: its answer when the run ends before the notification. */
  readonly agentTexts: Map<string, { id: string; text: string }>;
  /** What a synthetic (CLI-written) assistant message said: the last words of a cut-off run. */
  syntheticError: string | undefined;
  /** Lines that were transcript events (or damaged ones). */
  events: number;
}

/** Reads one line of one event kind into the state; `line` is 1-based. */
type LineReader = (state: ClaudeReadState, event: Json, line: number) => void;

/** What an absent or non-object field reads as: no fields (shared, never written). */
const NO_FIELDS: Json = Object.freeze({});

/** `value[key]` when `value` is an object, else undefined. */
function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/** The tools that start a subagent. */
const SUBAGENT_TOOLS = new Set(["Agent", "Task"]);

/** The `trace.errors` kind of a text with no transcript event in it at all (notes, a log, an empty file). */
export const NOT_A_TRANSCRIPT = "not-a-transcript";

/** Tool-result content (a string or blocks) as text. */
export function flattenContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? "" : JSON.stringify(content);
  return content
    .map((b: unknown) => (isRecord(b) && b.type === "text" ? String(b.text ?? "") : isRecord(b) && b.type === "image" ? "[image]" : JSON.stringify(b)))
    .join("\n");
}

/** A state to read a transcript into. */
export function startClaudeRead(kind: TraceSource["kind"] = "transcript"): ClaudeReadState {
  return {
    source: { kind },
    calls: [],
    callsById: new Map(),
    callsByName: new Map(),
    messages: new Map(),
    subagentTypes: new Map(),
    hooks: [],
    startedHooks: new Map(),
    afterResult: false,
    answeredHooks: new Set(),
    errors: [],
    result: undefined,
    results: [],
    unanswered: new Set(),
    awaitingMain: false,
    notices: new Map(),
    deniers: new Map(),
    agentTexts: new Map(),
    syntheticError: undefined,
    events: 0,
  };
}

/** `assistant`: one content block of a model message — text, thinking, or a tool call. */
function readAssistant(state: ClaudeReadState, event: Json, line: number): void {
  const msg: Json = isRecord(event.message) ? event.message : NO_FIELDS;
  const parent = event.parent_tool_use_id;
  const agent = typeof parent === "string" ? parent : parent === undefined || parent === null ? MAIN_AGENT : String(parent);
  const id = typeof msg.id === "string" ? msg.id : msg.id === undefined || msg.id === null ? `line-${line}` : String(msg.id);
  const known = state.messages.get(id);
  const content: unknown = msg.content;
  if (agent === MAIN_AGENT) state.awaitingMain = false;
  else keepAgentText(state, agent, id, content);
  if (typeof known === "number") {
    // A message that already called a tool: only its further calls count.
    addCalls(state, content, agent, known);
    return;
  }
  if (known === undefined && msg.model !== "<synthetic>" && callsATool(content)) {
    // A new message that calls a tool on its first line (the usual case) is its turn number at once.
    const turn = state.messages.size + 1;
    state.messages.set(id, turn);
    addCalls(state, content, agent, turn);
    return;
  }
  let message = known;
  if (!message) {
    message = { id, agent, texts: undefined, callsTool: false, synthetic: msg.model === "<synthetic>", at: state.calls.length, turn: state.messages.size + 1 };
    state.messages.set(id, message);
  }
  if (Array.isArray(content)) {
    for (const block of content as unknown[]) {
      if (!isRecord(block)) continue;
      if (block.type === "text" && typeof block.text === "string") {
        // Only a main-agent message without tool calls becomes a reply; other texts are dropped
        // here rather than held to the end of the read.
        if (message.synthetic || (message.agent === MAIN_AGENT && !message.callsTool)) {
          if (message.texts) message.texts.push(block.text);
          else message.texts = [block.text];
        }
      } else if (block.type === "tool_use") {
        message.callsTool = true;
        if (!message.synthetic) message.texts = undefined;
        addCall(state, block, agent, message.turn);
      }
    }
  }
  if (message.synthetic && message.texts !== undefined) state.syntheticError = message.texts.join("");
  else if (message.callsTool && !message.synthetic) state.messages.set(id, message.turn);
}

/** A subagent's text blocks, per message: the latest message is its answer so far. */
function keepAgentText(state: ClaudeReadState, agent: string, id: string, content: unknown): void {
  if (!Array.isArray(content)) return;
  for (const block of content as unknown[]) {
    if (!isRecord(block) || block.type !== "text" || typeof block.text !== "string") continue;
    const last = state.agentTexts.get(agent);
    state.agentTexts.set(agent, last?.id === id ? { id, text: last.text + block.text } : { id, text: block.text });
  }
}

/** Whether a message's content holds a tool call. */
function callsATool(content: unknown): boolean {
  if (!Array.isArray(content)) return false;
  for (const block of content as unknown[]) if (isRecord(block) && block.type === "tool_use") return true;
  return false;
}

/** The tool calls among a message's content blocks, in order. */
function addCalls(state: ClaudeReadState, content: unknown, agent: string, turn: number): void {
  if (!Array.isArray(content)) return;
  for (const block of content as unknown[]) if (isRecord(block) && block.type === "tool_use") addCall(state, block, agent, turn);
}

function addCall(state: ClaudeReadState, block: Json, agent: string, turn: number): void {
  // Every field set here, in one order: calls keep one shape however they end.
  const name = String(block.name);
  const call: ReadingCall = {
    id: String(block.id),
    name,
    input: callInput(block.input),
    agent,
    agentType: agent !== MAIN_AGENT ? state.subagentTypes.get(agent) : undefined,
    result: undefined,
    isError: undefined,
    turn,
    denyingHook: undefined,
    background: false,
    handBack: undefined,
    named: namedCalls(state, name),
  };
  if (SUBAGENT_TOOLS.has(call.name)) state.subagentTypes.set(call.id, String(call.input.subagent_type ?? "general-purpose"));
  state.calls.push(call);
  state.callsById.set(call.id, call);
  call.named.calls.push(call);
  call.named.pending++;
}

function namedCalls(state: ClaudeReadState, name: string): NamedCalls {
  let named = state.callsByName.get(name);
  if (!named) {
    named = { calls: [], pending: 0 };
    state.callsByName.set(name, named);
  }
  return named;
}

/** A tool call's input as the transcript gave it; anything but an object reads as no input. */
function callInput(input: unknown): Record<string, unknown> {
  // Any object is kept as written, an array too (the CLI never writes one): narrowing with
  // `isRecord` would turn an array into `{}`, which is not what this reader has ever done.
  return typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
}

/** `user`: tool results, each paired with its call by id. */
function readToolResults(state: ClaudeReadState, event: Json): void {
  const message = event.message;
  const content = isRecord(message) ? message.content : undefined;
  if (event.parent_tool_use_id === undefined || event.parent_tool_use_id === null) state.awaitingMain = true;
  if (!Array.isArray(content)) return;
  for (const block of content as unknown[]) {
    if (!isRecord(block) || block.type !== "tool_result") continue;
    const call = state.callsById.get(String(block.tool_use_id));
    if (!call) continue;
    if (call.result === undefined) call.named.pending--;
    call.result = flattenContent(block.content);
    call.isError = block.is_error === true;
    keepDecision(state, event.tool_result_meta, call.id);
    if (launchedInBackground(event.tool_use_result)) call.background = true;
    else if (SUBAGENT_TOOLS.has(call.name)) call.handBack = handBackText(event.tool_use_result);
  }
}

/** `system/init`: the CLI, model, cwd and tools of the run. */
function readInit(state: ClaudeReadState, event: Json): void {
  // Field by field (see readUsage), in the order the keys have always come out.
  const source: { -readonly [K in keyof TraceSource]: TraceSource[K] } = { kind: state.source.kind };
  if (typeof event.claude_code_version === "string") source.agentVersion = event.claude_code_version;
  if (typeof event.session_id === "string") source.sessionId = event.session_id;
  if (typeof event.model === "string") source.model = event.model;
  if (typeof event.cwd === "string") source.cwd = event.cwd;
  if (typeof event.permissionMode === "string") source.permissionMode = event.permissionMode;
  if (Array.isArray(event.tools)) source.tools = event.tools.map(String);
  if (Array.isArray(event.mcp_servers)) source.mcpServers = event.mcp_servers.map((s: unknown) => ({ name: String(field(s, "name")), status: String(field(s, "status")) }));
  if (Array.isArray(event.plugins)) source.plugins = event.plugins.map((p: unknown) => ({ name: String(field(p, "name") ?? ""), path: String(field(p, "path") ?? "") }));
  // Names as strings (every version so far), or objects with a name (read defensively).
  if (Array.isArray(event.skills)) source.skills = event.skills.map((s: unknown) => String(typeof s === "string" ? s : (field(s, "name") ?? "")));
  if (Array.isArray(event.agents)) source.agents = event.agents.map((a: unknown) => String(typeof a === "string" ? a : (field(a, "name") ?? "")));
  state.source = source;
}

/** `system/hook_started`: a hook began; where it sits on the timeline and which call it is about. */
function readHookStarted(state: ClaudeReadState, event: Json): void {
  const name = String(event.hook_name ?? event.hook_event ?? "");
  state.startedHooks.set(String(event.hook_id), { name, event: String(event.hook_event ?? name.split(":")[0]), at: state.calls.length, callId: findHookCall(state, name) });
}

/** `system/hook_response`: a hook answered; what it said and whether it blocked. */
function readHookResponse(state: ClaudeReadState, event: Json): void {
  const id = String(event.hook_id);
  const start = state.startedHooks.get(id);
  const name = String(event.hook_name ?? start?.name ?? "");
  const exitCode = typeof event.exit_code === "number" ? event.exit_code : null;
  const stdout = typeof event.stdout === "string" ? event.stdout : "";
  const stderr = typeof event.stderr === "string" ? event.stderr : "";
  const verdict = interpretHookOutput(exitCode, stdout, stderr);
  const callId = start?.callId ?? findHookCall(state, name);
  state.answeredHooks.add(id);
  // Field by field (see readUsage), in the order the keys have always come out: one per hook line.
  const hook: { -readonly [K in keyof HookEvent]: HookEvent[K] } = {
    name,
    event: String(event.hook_event ?? start?.event ?? name.split(":")[0]),
    exitCode,
    outcome: String(event.outcome ?? (exitCode === 0 ? "success" : "error")),
    blocked: verdict.blocked,
  } as HookEvent;
  if (verdict.decision) hook.decision = verdict.decision;
  hook.output = typeof event.output === "string" ? event.output : stdout + stderr;
  hook.stdout = stdout;
  hook.stderr = stderr;
  if (callId) hook.callId = callId;
  hook.at = start?.at ?? state.calls.length;
  // claude cancels what still runs in the background (an async hook) when the session ends, and says so after its result line.
  if (hook.outcome === "cancelled" && state.afterResult) hook.cancelledAtEnd = true;
  state.hooks.push(hook);
}

/** `result`: how the run ended, what it cost. */
function readResult(state: ClaudeReadState, event: Json): void {
  state.result = event;
  if (state.awaitingMain) state.unanswered.add(state.results.length);
  state.results.push(event);
}

/** A result's `tool_result_meta` entry for the call: who decided its denial, when the CLI said. */
function keepDecision(state: ClaudeReadState, meta: unknown, callId: string): void {
  if (!Array.isArray(meta) || state.deniers.has(callId)) return;
  for (const m of meta as unknown[]) {
    if (!isRecord(m) || m.id !== callId || !isRecord(m.permission_decision) || m.permission_decision.decision !== "reject") continue;
    const by = denierOf(String(m.permission_decision.source));
    if (by) state.deniers.set(callId, by);
  }
}

/** `system/permission_denied`: the permission system refused a call, and (often) why. */
function readPermissionDenied(state: ClaudeReadState, event: Json): void {
  if (typeof event.tool_use_id !== "string") return;
  // The event itself is the permission system's word; its reason type says who decided.
  const by = typeof event.decision_reason_type === "string" ? denierOf(event.decision_reason_type) : undefined;
  state.deniers.set(event.tool_use_id, by ?? "permission");
}

/** `system/task_notification`: a background task ended; its summary is its answer. */
function readTaskNotification(state: ClaudeReadState, event: Json): void {
  const read = readTaskNotice(event);
  if (read) state.notices.set(read.callId, read.notice);
}

/** Which reader takes a `system` line, by its `subtype`. */
const SYSTEM_READERS: ReadonlyMap<string, LineReader> = new Map<string, LineReader>([
  ["init", readInit],
  ["hook_started", readHookStarted],
  ["hook_response", readHookResponse],
  ["task_notification", readTaskNotification],
  ["permission_denied", readPermissionDenied],
]);

/** Which reader takes a line, by its `type`; other types carry nothing a check reads today. */
const READERS: ReadonlyMap<string, LineReader> = new Map<string, LineReader>([
  ["assistant", readAssistant],
  ["user", readToolResults],
  ["system", (state, event, line) => (typeof event.subtype === "string" ? SYSTEM_READERS.get(event.subtype)?.(state, event, line) : undefined)],
  ["result", readResult],
]);

/** Read one parsed line into the state. */
export function readClaudeEvent(state: ClaudeReadState, event: unknown, line: number): void {
  if (typeof event !== "object" || event === null) {
    state.errors.push({ kind: "malformed-line", line, message: `line ${line} is not a JSON object; skipped, the rest was read` });
    return;
  }
  // An array is skipped like any other line without a "type".
  if (!isRecord(event) || typeof event.type !== "string") return;
  state.events++;
  const reader = READERS.get(event.type);
  if (reader) reader(state, event, line);
  if (event.type === "result") state.afterResult = true;
  else if (event.type === "assistant" || event.type === "user" || event.subtype === "init" || event.subtype === "hook_started") state.afterResult = false;
  else if (carriesCalls(event)) {
    // A new kind of line is harmless unless it carries calls or results this reader would miss.
    state.errors.push({ kind: "unknown-event", line, message: `claude ${state.source.agentVersion ?? "(version unknown)"} wrote a "${event.type}" line carrying tool calls or results that proctor does not read (line ${line}): the Trace may miss calls` });
  }
}

/** Did the model say anything (a message not written by the CLI itself)? */
function modelSpoke(state: ClaudeReadState): boolean {
  for (const m of state.messages.values()) if (typeof m === "number" || !m.synthetic) return true;
  return false;
}

/** Does a line of an unknown type hold tool_use or tool_result blocks? */
function carriesCalls(event: Json): boolean {
  const content = field(event.message, "content");
  return Array.isArray(content) && (content as unknown[]).some((b) => isRecord(b) && (b.type === "tool_use" || b.type === "tool_result"));
}

/** Record a line that did not parse. A damaged event is still a sign of a transcript; prose or a log is not. */
export function readMalformedLine(state: ClaudeReadState, raw: string, line: number, why: string): void {
  state.errors.push({ kind: "malformed-line", line, message: `line ${line} is not JSON (${why}); skipped, the rest was read` });
  if (raw.trimStart().startsWith("{")) state.events++;
}

/** Parse transcript text (or its UTF-8 bytes) into a Trace. Never throws on content: problems land in `trace.errors`. */
export function parseClaudeStream(text: string | Uint8Array, options: { sourceKind?: TraceSource["kind"] } = {}): Trace {
  const state = startClaudeRead(options.sourceKind);
  readJsonLines(text, {
    value: (event, line) => readClaudeEvent(state, event, line),
    malformed: (raw, line, why) => readMalformedLine(state, raw, line, why),
  });
  return finishTrace(state);
}

/** The call a `PreToolUse:Write`-style hook is about: the latest Write still waiting for its result, else the latest Write. */
function findHookCall(state: ClaudeReadState, hookName: string): string | undefined {
  const colon = hookName.indexOf(":");
  if (colon === -1) return undefined;
  const name = hookName.slice(colon + 1);
  const group = state.callsByName.get(name);
  if (!group) return undefined;
  const named = group.calls;
  // Every call of the tool answered (a PostToolUse hook, say): the latest, without a scan of them all.
  if (group.pending === 0) return named[named.length - 1]?.id;
  for (let i = named.length - 1; i >= 0; i--) if (named[i]?.result === undefined) return named[i]?.id;
  return named[named.length - 1]?.id;
}

/** The Trace of everything read. */
export function finishTrace(state: ClaudeReadState): Trace {
  const { calls, result, errors, source } = state;
  const hooks = settleHooks(state);
  const denials = new Set<string>((Array.isArray(result?.permission_denials) ? (result.permission_denials as unknown[]) : []).map((d) => String(isRecord(d) ? d.tool_use_id : undefined)));
  const read: ToolCall[] = calls.map((c) => finishCall(c, denials, state.deniers, c.background ? (state.notices.get(c.id) ?? { status: "running" }) : undefined));
  // Commands a hook rewrote (a confining gate): the one that ran beside the one asked for.
  const { calls: toolCalls, problems } = withRewrites(read, hooks);
  errors.push(...problems);
  const { subagents, skills } = readSpawns(state, toolCalls);

  const replies: Reply[] = [];
  for (const m of state.messages.values()) {
    if (typeof m === "number" || m.agent !== MAIN_AGENT || m.callsTool || m.synthetic || m.texts === undefined) continue;
    const text = m.texts.join("");
    if (text.trim()) replies.push({ text, messageId: m.id, at: m.at });
  }

  let outcome: RunOutcome | undefined;
  let usage: Usage | undefined;
  const { results } = state;
  if (result) {
    results.forEach((r, i) => {
      const o = outcomeOf(r);
      if (o.isError) {
        errors.push(resultError(r, o, results.length, i));
        outcome ??= o;
      }
    });
    const last = outcomeOf(result);
    if (!last.isError && result.result === "" && state.unanswered.has(results.length - 1)) {
      // The CLI said success, but the model's answer to the main agent's last input never came
      // (a stream cut it recovered from with nothing to show): no evidence the run finished.
      errors.push({ kind: "no-answer", message: "claude ended the run as a success with an empty result, but the model never answered the main agent's last input (the stream was cut or the answer was lost)" });
      outcome ??= { ...last, isError: true };
    }
    outcome ??= last;
    if (!last.isError && !modelSpoke(state)) {
      errors.push({ kind: "no-model-request", message: "claude ended the run without the model saying anything: the model was never asked (a slash command's ! preamble that failed, or a hook that stopped the session, ends a run before the first request)" });
    }
    usage = results.length > 1 ? sumUsage(results) : readUsage(result);
  } else {
    if (state.events === 0) errors.push({ kind: NOT_A_TRANSCRIPT, message: 'no line is a transcript event (a JSON object with a "type", or a damaged one); this is not claude stream-json output' });
    errors.push({
      kind: "incomplete",
      message: state.syntheticError
        ? `the transcript has no final result line; the last thing the CLI said was ${JSON.stringify(state.syntheticError.slice(0, 200))}`
        : "the transcript has no final result line: the run was killed, crashed or cut off",
    });
  }

  for (const server of source.mcpServers ?? []) {
    if (server.status === "failed") errors.push({ kind: "mcp-server-failed", message: `the MCP server "${server.name}" failed to start (init lists it as failed), so none of its tools were there to call` });
  }
  const turns = turnsOf(results);
  // The calls' ids are callsById's keys: no second set of them.
  const ids = state.callsById;
  return {
    version: 1,
    source,
    complete: result !== undefined,
    ...(outcome ? { outcome } : {}),
    ...(results.length > 1 ? { segments: results.map(segmentOf) } : {}),
    toolCalls,
    subagents,
    skills,
    hooks: hooks.map((h) => (h.callId && !ids.has(h.callId) ? withoutCallId(h) : h)),
    replies,
    ...(typeof result?.result === "string" && !result.is_error ? { output: result.result } : {}),
    ...(turns !== undefined ? { turns } : {}),
    ...(usage ? { usage } : {}),
    files: filesFromCalls(toolCalls, source.cwd),
    errors,
  };
}

/** The hook events, with hooks that started but never answered (the run ended under them) as pending, each blocking one tied to the call it refused. */
function settleHooks(state: ClaudeReadState): HookEvent[] {
  const hooks = state.hooks;
  for (const [id, h] of state.startedHooks) {
    if (!state.answeredHooks.has(id)) hooks.push({ name: h.name, event: h.event, exitCode: null, outcome: "pending", blocked: false, output: "", at: h.at, ...(h.callId ? { callId: h.callId } : {}) });
  }
  tieDenyingHooks(hooks, state.calls, state.callsById);
  return hooks;
}

function withoutCallId(hook: HookEvent): HookEvent {
  const { callId: _, ...rest } = hook;
  return rest;
}

/** The subagents the Agent/Task calls started, with the calls each made, and the skills activated. */
function readSpawns(state: ClaudeReadState, toolCalls: readonly ToolCall[]): { subagents: SubagentRun[]; skills: SkillActivation[] } {
  // The calls of each agent that some Agent/Task call started: only those lists are read.
  const byAgent = new Map<string, number[]>();
  for (const c of toolCalls) if (SUBAGENT_TOOLS.has(c.name)) byAgent.set(c.id, []);
  if (byAgent.size > 0) {
    toolCalls.forEach((c, i) => {
      byAgent.get(c.agent)?.push(i);
    });
  }
  const subagents: SubagentRun[] = [];
  const skills: SkillActivation[] = [];
  toolCalls.forEach((c, i) => {
    if (SUBAGENT_TOOLS.has(c.name)) {
      subagents.push({
        id: c.id,
        type: state.subagentTypes.get(c.id) ?? "general-purpose",
        ...(typeof c.input.description === "string" ? { description: c.input.description } : {}),
        prompt: typeof c.input.prompt === "string" ? c.input.prompt : "",
        calls: [...(byAgent.get(c.id) ?? [])],
        ...subagentEnd(state, c),
      });
    } else if (c.name === "Skill" && typeof c.input.skill === "string") {
      skills.push({ name: c.input.skill, callIndex: i, agent: c.agent, status: c.status });
    }
  });
  return { subagents, skills };
}

/** Turns over the run: one result line's count, or every segment's added up. */
function turnsOf(results: readonly Json[]): number | undefined {
  if (results.length > 1) return sumTurns(results);
  const n = results[0]?.num_turns;
  return typeof n === "number" ? n : undefined;
}

/**
 * A subagent's output and status. In the foreground its call's result is its answer (claude
 * ≥ 2.1.3xx frames it; the structured copy has the words alone). In the background the result is
 * a launch notice: the answer is the task notification's summary, or, when the run ended first,
 * the subagent's last message — and its status is that of the notification.
 */
function subagentEnd(state: ClaudeReadState, c: ToolCall): { output?: string; status: ToolStatus } {
  const reading = state.callsById.get(c.id);
  if (reading?.background) {
    const notice = state.notices.get(c.id);
    const output = notice?.summary ?? state.agentTexts.get(c.id)?.text;
    return { ...(output !== undefined ? { output } : {}), status: noticeStatus(notice) };
  }
  const output = reading?.handBack ?? c.result;
  return { ...(output !== undefined ? { output } : {}), status: c.status };
}

function finishCall(c: ReadingCall, denials: ReadonlySet<string>, deniers: ReadonlyMap<string, NonNullable<ToolCall["deniedBy"]>>, background: TaskNotice | undefined): ToolCall {
  let status: ToolStatus;
  let deniedBy: ToolCall["deniedBy"];
  let effects: readonly unknown[] | undefined;
  if (c.result === undefined) status = "pending";
  else {
    const decidedBy = deniers.get(c.id);
    const s = toolResultStatus(c.result, c.isError === true, { listed: denials.has(c.id), hookBlocked: c.denyingHook !== undefined, ...(decidedBy ? { decidedBy } : {}) });
    status = s.status;
    deniedBy = s.deniedBy;
    effects = s.effects;
  }
  // Built field by field, not with conditional spreads: this runs once per call, and the keys
  // come out in the same order either way.
  const out: Record<string, unknown> = { id: c.id, name: c.name, input: c.input };
  if (c.result !== undefined) out.result = c.result;
  out.status = status;
  out.agent = c.agent;
  if (c.agentType) out.agentType = c.agentType;
  if (deniedBy) out.deniedBy = deniedBy;
  if (deniedBy === "hook" && c.denyingHook !== undefined) out.denyingHook = c.denyingHook;
  out.turn = c.turn;
  if (effects?.length) out.effects = effects;
  if (background) out.background = background;
  return out as unknown as ToolCall;
}

function readUsage(result: Json): Usage | undefined {
  const usage = result.usage;
  if (typeof usage !== "object" || usage === null) return undefined;
  // An array is an object too: it has always given a usage of zero tokens.
  const u: Json = isRecord(usage) ? usage : NO_FIELDS;
  // Field by field, not with conditional spreads: spreads are slow in code that has not warmed
  // up, which is all of it in a one-shot `proctor check`.
  const out: { -readonly [K in keyof Usage]: Usage[K] } = {} as Usage;
  if (isFiniteNumber(result.total_cost_usd)) out.costUsd = result.total_cost_usd;
  if (isFiniteNumber(result.duration_ms)) out.durationMs = result.duration_ms;
  out.inputTokens = finiteOrZero(u.input_tokens);
  out.outputTokens = finiteOrZero(u.output_tokens);
  out.cacheCreationTokens = finiteOrZero(u.cache_creation_input_tokens);
  out.cacheReadTokens = finiteOrZero(u.cache_read_input_tokens);
  return out;
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

function finiteOrZero(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}
