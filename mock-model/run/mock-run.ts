/**
 * One Messages API run's state on the mock server (a Claude Code run): where each conversation is
 * in its script. Decides the answer to each request; the server only writes it.
 */
import type { ApiBlock, ApiMessage } from "../server/answer.js";
import type { Script, ScriptFault, TurnSpec } from "../script/types.js";
import { Conversations, type Conversation } from "./conversations.js";
import { describeLastReceived, lastToolResults, recordRequest } from "./flatten.js";
import { backgroundTurn, readProtocol, toolSearchTurn, TOOL_SEARCH, type FillSwitches, type ProtocolTurn } from "./protocol.js";
import { DEFAULT_USAGE, ScriptedRunState, type ErrorAnswer, type ScriptedRun, type ScriptedRunError } from "./scripted-run.js";

type Json = Record<string, unknown>;

/** A problem the mock hit while serving a run; each one fails the run. */
export interface MockRunError extends ScriptedRunError<"script-overrun" | "no-subagent-script" | "turn-failed"> {}

/** What to send back for one request. */
export type Answer =
  | { readonly kind: "message"; readonly message: ApiMessage; readonly delayMs: number }
  | { readonly kind: "fault"; readonly fault: ScriptFault; readonly message: ApiMessage; readonly delayMs: number }
  | ErrorAnswer;

/** A protocol turn the mock answered itself (see `Script.protocolTurns`). */
export interface FilledTurn {
  readonly agent: string;
  /** `await-background`: an empty turn while a background subagent runs; `tool-search`: a ToolSearch call. */
  readonly kind: "await-background" | "tool-search";
  /** 1-based number of the script turn that came next (the fill consumed none). */
  readonly beforeTurn: number;
  /** The background dispatches still running, or the tools searched for. */
  readonly about: readonly string[];
  /** The answer's message id (as the transcript shows it). */
  readonly messageId: string;
}

/** A Messages run registered on a mock server: hand its `apiKey` to the CLI, then read what it received. */
export interface MockRun extends ScriptedRun<MockRunError> {
  /** Turns each conversation never asked for (`required`: those not marked optional). */
  unusedTurns(): { agent: string; dispatchId?: string; remaining: number; required: number }[];
  /** The protocol turns the mock answered itself, in order. */
  readonly filledTurns: readonly FilledTurn[];
}

/** The fill switches a script's `protocolTurns` sets. */
export function fillSwitches(protocolTurns: Script["protocolTurns"]): FillSwitches {
  if (protocolTurns === undefined || typeof protocolTurns === "boolean") return { background: protocolTurns !== false, toolSearch: protocolTurns !== false };
  return { background: protocolTurns.background !== false, toolSearch: protocolTurns.toolSearch !== false };
}

/** A MockRun with the answering logic the server calls. */
export class MockRunState extends ScriptedRunState<"no-subagent-script"> implements MockRun {
  private readonly conversations = new Conversations(this.script.turns, this.script.subagents ?? []);
  private readonly fill = fillSwitches(this.script.protocolTurns);
  /** The ToolSearch calls the mock made itself, by tool_use id (never repeated back to back). */
  private readonly ownSearches = new Set<string>();
  /** A function turn resolved before the ToolSearch it needed, served as resolved on the next request. */
  private readonly held = new Map<Conversation, { at: number; spec: TurnSpec }>();
  readonly filledTurns: FilledTurn[] = [];

  unusedTurns() {
    return this.conversations.unused();
  }

  /** Decide the answer to one Messages request. */
  async answer(body: Json): Promise<Answer> {
    const model = String(body.model ?? "claude-mock");
    const messages: Json[] = Array.isArray(body.messages) ? body.messages : [];
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      this.sideRequests.push(recordRequest("side", body));
      return { kind: "message", message: this.message(model, [{ type: "text", text: this.script.sideReply ?? "OK" }], undefined, "end_turn"), delayMs: 0 };
    }
    const conversation = this.conversations.route(messages);
    const request = recordRequest(conversation.agent, body);
    this.requests.push(request);
    const lastReceived = describeLastReceived(messages);
    this.lastDescription = `${conversation.agent} asked for turn ${conversation.next + 1}; it had just received ${lastReceived}`;

    const view = readProtocol(body);
    const waiting = backgroundTurn(view, this.fill);
    if (waiting) return this.answerFill(conversation, model, waiting);

    if (conversation.turns === undefined) {
      return this.fail(conversation, conversation.agent, "no-subagent-script", `no script for subagent "${conversation.agent}" (prompt ${JSON.stringify(conversation.prompt.slice(0, 120))}); add {"type": "${conversation.agent}", "turns": […]} to script.subagents`);
    }
    const held = this.held.get(conversation);
    this.held.delete(conversation);
    const turn =
      held?.at === conversation.next
        ? held
        : await this.resolveTurn(conversation.turns, conversation, conversation.agent, lastReceived, {
            request,
            body,
            toolResults: () => lastToolResults(messages, this.conversations.toolNames, view),
          });
    if ("error" in turn) return turn.error;
    const { spec } = turn;
    const search = spec.fault === undefined ? toolSearchTurn(view, calledTools(spec), this.fill, this.ownSearches) : undefined;
    if (search) {
      if (typeof conversation.turns[conversation.next] === "function") this.held.set(conversation, { at: conversation.next, spec });
      return this.answerFill(conversation, model, search);
    }

    const blocks = this.blocks(spec);
    const message = this.message(model, blocks, spec);
    const fault = this.step(conversation, spec);
    if (fault !== undefined) return { kind: "fault", fault, message, delayMs: spec.delayMs ?? 0 };
    const calls = blocks.flatMap((b) => (b.type === "tool_use" ? [b] : []));
    this.conversations.noteEmitted(conversation, calls);
    return { kind: "message", message, delayMs: spec.delayMs ?? 0 };
  }

  /** Answer a protocol turn: no script turn is consumed. */
  private answerFill(conversation: Conversation, model: string, turn: ProtocolTurn): Answer {
    const blocks: ApiBlock[] = [];
    if (turn.kind === "tool-search") {
      const id = this.nextId("toolu");
      this.ownSearches.add(id);
      blocks.push({ type: "tool_use", id, name: TOOL_SEARCH, input: { query: `select:${turn.names.join(",")}` } });
    }
    const message = this.message(model, blocks, undefined);
    this.conversations.noteEmitted(conversation, blocks.flatMap((b) => (b.type === "tool_use" ? [b] : [])));
    this.filledTurns.push({ agent: conversation.agent, kind: turn.kind, beforeTurn: conversation.next + 1, about: turn.kind === "tool-search" ? turn.names : turn.running, messageId: message.id });
    return { kind: "message", message, delayMs: 0 };
  }

  private blocks(spec: TurnSpec): ApiBlock[] {
    const toolBlock = (t: { name: string; input?: Record<string, unknown>; id?: string }): ApiBlock => ({ type: "tool_use", id: t.id ?? this.nextId("toolu"), name: t.name, input: t.input ?? {} });
    if (spec.blocks) {
      return spec.blocks.map((b) =>
        b.type === "text" ? { type: "text", text: b.text } : b.type === "thinking" ? { type: "thinking", thinking: b.thinking, signature: "mock-signature" } : toolBlock(b),
      );
    }
    const out: ApiBlock[] = [];
    if (spec.thinking !== undefined) out.push({ type: "thinking", thinking: spec.thinking, signature: "mock-signature" });
    if (spec.text !== undefined) out.push({ type: "text", text: spec.text });
    for (const t of spec.tools ?? []) out.push(toolBlock(t));
    return out;
  }

  private message(model: string, content: ApiBlock[], spec: TurnSpec | undefined, stop?: ApiMessage["stopReason"]): ApiMessage {
    const u = { ...DEFAULT_USAGE, ...spec?.usage };
    return {
      id: this.nextId("msg"),
      model,
      content,
      stopReason: stop ?? spec?.stopReason ?? (content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn"),
      usage: { input_tokens: u.inputTokens, output_tokens: u.outputTokens, cache_creation_input_tokens: u.cacheCreationTokens, cache_read_input_tokens: u.cacheReadTokens },
    };
  }
}

/** The tool names a turn calls. */
function calledTools(spec: TurnSpec): string[] {
  const tools = spec.blocks ? spec.blocks.flatMap((b) => (b.type === "tool_use" ? [b] : [])) : (spec.tools ?? []);
  return tools.map((t) => t.name);
}
