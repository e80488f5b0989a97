/**
 * One run's state on the mock server: its script, where each conversation is in it, and every
 * request it received. Decides the answer to each request; the server only writes it.
 */
import type { ModelRequest } from "../../src/trace/types.js";
import type { ApiBlock, ApiMessage } from "../server/answer.js";
import { scriptErrors } from "../script/schema.js";
import type { Script, ScriptFault, TurnContext, TurnSpec } from "../script/types.js";
import { Conversations, type Conversation } from "./conversations.js";
import { describeLastReceived, lastToolResults, recordRequest } from "./flatten.js";

type Json = Record<string, any>;

/** A problem the mock hit while serving a run; each one fails the run. */
export interface MockRunError {
  readonly kind: "script-overrun" | "no-subagent-script" | "turn-failed";
  readonly message: string;
  readonly agent: string;
  /** 1-based number of the turn that was asked for. */
  readonly turn: number;
}

/** What to send back for one request. */
export type Answer =
  | { readonly kind: "message"; readonly message: ApiMessage; readonly delayMs: number }
  | { readonly kind: "fault"; readonly fault: ScriptFault; readonly message: ApiMessage; readonly delayMs: number }
  | { readonly kind: "error"; readonly status: number; readonly type: string; readonly text: string };

/** A run registered on a mock server: hand its `apiKey` to the CLI, then read what it received. */
export interface MockRun {
  readonly apiKey: string;
  readonly script: Script;
  /** Main-agent and subagent requests, in arrival order. */
  readonly requests: readonly ModelRequest[];
  /** The CLI's own side requests (no tools): answered neutrally, never consuming a turn. */
  readonly sideRequests: readonly ModelRequest[];
  /** Script overruns and other hard errors; non-empty means the run failed because of the script. */
  readonly errors: readonly MockRunError[];
  /** How many scripted faults were served (so an API error in the trace is known to be intended). */
  readonly faultsServed: number;
  /** Turns each conversation never asked for. */
  unusedTurns(): { agent: string; dispatchId?: string; remaining: number }[];
  /** One line on the last main/subagent request: the agent and the last thing it received. */
  describeLastRequest(): string | undefined;
  /** Stop serving this key. */
  remove(): void;
}

const DEFAULT_USAGE = { inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0 };

/** A MockRun with the answering logic the server calls. */
export class MockRunState implements MockRun {
  readonly requests: ModelRequest[] = [];
  readonly sideRequests: ModelRequest[] = [];
  readonly errors: MockRunError[] = [];
  faultsServed = 0;
  private readonly conversations: Conversations;
  private lastDescription: string | undefined;
  private counter = 0;

  constructor(
    readonly apiKey: string,
    readonly script: Script,
    private readonly tag: string,
    private readonly onRemove: () => void,
  ) {
    this.conversations = new Conversations(script.turns, script.subagents ?? []);
  }

  remove(): void {
    this.onRemove();
  }

  unusedTurns() {
    return this.conversations.unused();
  }

  describeLastRequest(): string | undefined {
    return this.lastDescription;
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
    const turnNumber = conversation.next + 1;
    this.lastDescription = `${conversation.agent} asked for turn ${turnNumber}; it had just received ${describeLastReceived(messages)}`;

    if (conversation.turns === undefined) {
      return this.fail(conversation, "no-subagent-script", `no script for subagent "${conversation.agent}" (prompt ${JSON.stringify(conversation.prompt.slice(0, 120))}); add {"type": "${conversation.agent}", "turns": […]} to script.subagents`);
    }
    const turn = conversation.turns[conversation.next];
    if (turn === undefined) {
      const n = conversation.turns.length;
      return this.fail(conversation, "script-overrun", `script overrun: ${conversation.agent} asked for turn ${turnNumber} but its script has ${n} turn${n === 1 ? "" : "s"}; the last thing it received was ${describeLastReceived(messages)}`);
    }
    let spec: TurnSpec;
    if (typeof turn === "function") {
      const toolResults = lastToolResults(messages, this.conversations.toolNames);
      const context: TurnContext = { agent: conversation.agent, turn: conversation.next, request, toolResults, ...(toolResults.length ? { lastToolResult: toolResults[toolResults.length - 1] } : {}), body };
      try {
        spec = await turn(context);
      } catch (error) {
        return this.fail(conversation, "turn-failed", `the function for ${conversation.agent} turn ${turnNumber} threw: ${(error as Error)?.message ?? String(error)}`);
      }
      const problems = scriptErrors({ turns: [spec] }).map((p) => p.replace(/^turns\[0\]/, "turn"));
      if (problems.length > 0) return this.fail(conversation, "turn-failed", `the function for ${conversation.agent} turn ${turnNumber} returned an invalid turn: ${problems.join("; ")}`);
    } else spec = turn;

    const blocks = this.blocks(spec);
    const message = this.message(model, blocks, spec);
    if (spec.fault !== undefined) {
      this.faultsServed++;
      conversation.faultsAtNext++;
      if (conversation.faultsAtNext >= (spec.times ?? 1)) this.advance(conversation);
      return { kind: "fault", fault: spec.fault, message, delayMs: spec.delayMs ?? 0 };
    }
    this.advance(conversation);
    const calls = blocks.flatMap((b) => (b.type === "tool_use" ? [b] : []));
    this.conversations.noteEmitted(conversation, calls);
    return { kind: "message", message, delayMs: spec.delayMs ?? 0 };
  }

  private advance(conversation: Conversation): void {
    conversation.next++;
    conversation.faultsAtNext = 0;
  }

  private fail(conversation: Conversation, kind: MockRunError["kind"], detail: string): Answer {
    const message = `proctor mock model: ${detail}`;
    this.errors.push({ kind, message, agent: conversation.agent, turn: conversation.next + 1 });
    return { kind: "error", status: 400, type: "invalid_request_error", text: message };
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

  private nextId(prefix: string): string {
    return `${prefix}_mock_${this.tag}_${++this.counter}`;
  }
}
