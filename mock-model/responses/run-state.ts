/**
 * One Responses API run on the mock server (a Codex run): its script, where it is in it, every
 * request it received, every item it answered with and what the CLI sent back for each call.
 * Decides the answer to each request; the server only writes it.
 */
import { MAIN_AGENT, type ModelRequest } from "../../src/trace/types.js";
import { scriptErrors } from "../script/schema.js";
import type { Script, ScriptFault, ScriptToolUse, TurnContext, TurnSpec } from "../script/types.js";
import type { ApiResponse, OutputItem } from "./events.js";
import { describeOffered, readOfferedTools, resolveCall, type OfferedTool } from "./offered.js";
import { describeLastReceived, lastToolResults, recordResponsesRequest, toolOutputs } from "./request.js";

type Json = Record<string, any>;

/** A problem the mock hit while serving a run; each one fails the run. */
export interface ResponsesRunError {
  readonly kind: "script-overrun" | "turn-failed" | "tool-not-offered";
  readonly message: string;
  readonly agent: string;
  /** 1-based number of the turn that was asked for. */
  readonly turn: number;
}

/** One thing the mock answered with, in order: text, reasoning, or a tool call. */
export type EmittedItem =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "reasoning"; readonly text: string }
  | {
      readonly type: "call";
      /** The call id the CLI answers to. */
      readonly id: string;
      /** The script's name for it (`exec_command`, `mcp__echo__echo`). */
      readonly name: string;
      readonly input: Record<string, unknown>;
      /** Freeform (custom) tools take text: `input.input`. */
      readonly freeform: boolean;
    };

/** What to send back for one request. */
export type ResponsesAnswer =
  | { readonly kind: "response"; readonly response: ApiResponse; readonly delayMs: number }
  | { readonly kind: "fault"; readonly fault: ScriptFault; readonly response: ApiResponse; readonly delayMs: number }
  | { readonly kind: "error"; readonly status: number; readonly type: string; readonly text: string };

/** A Responses run registered on a mock server: hand its `apiKey` to the CLI, then read what it received. */
export interface ResponsesMockRun {
  readonly apiKey: string;
  readonly script: Script;
  /** Requests that offered tools, in arrival order. */
  readonly requests: readonly ModelRequest[];
  /** Requests that offered no tools: answered with `sideReply`, never consuming a turn. */
  readonly sideRequests: readonly ModelRequest[];
  /** Script overruns, calls to tools the CLI did not offer, broken function turns; non-empty means the run failed because of the script. */
  readonly errors: readonly ResponsesRunError[];
  readonly faultsServed: number;
  /** The items of each response the CLI was sent in full, in order (faults and answers it hung up on excluded). */
  readonly answered: readonly (readonly EmittedItem[])[];
  /** What the CLI sent back to the model for a call (its output text), once a later request carried it. */
  outputOf(callId: string): string | undefined;
  /** The tools the last request offered. */
  readonly offered: readonly OfferedTool[];
  /** The model the CLI asked for. */
  readonly model: string | undefined;
  /** The client's `user-agent` header (carries the CLI's version). */
  readonly userAgent: string | undefined;
  unusedTurns(): { agent: string; remaining: number }[];
  /** One line on the last request: the turn asked for and the last thing it received. */
  describeLastRequest(): string | undefined;
  /** Stop serving this key. */
  remove(): void;
}

const DEFAULT_USAGE = { inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0 };

/** A ResponsesMockRun with the answering logic the server calls. */
export class ResponsesRunState implements ResponsesMockRun {
  readonly requests: ModelRequest[] = [];
  readonly sideRequests: ModelRequest[] = [];
  readonly errors: ResponsesRunError[] = [];
  readonly answered: EmittedItem[][] = [];
  faultsServed = 0;
  offered: readonly OfferedTool[] = [];
  model: string | undefined;
  userAgent: string | undefined;
  private next = 0;
  private faultsAtNext = 0;
  private counter = 0;
  private lastDescription: string | undefined;
  private readonly outputs = new Map<string, string>();
  /** Responses decided but not yet written (a delayed answer the client may hang up on). */
  private readonly undelivered = new Map<string, EmittedItem[]>();
  private readonly callNames = new Map<string, string>();

  constructor(
    readonly apiKey: string,
    readonly script: Script,
    private readonly tag: string,
    private readonly onRemove: () => void,
  ) {}

  remove(): void {
    this.onRemove();
  }

  outputOf(callId: string): string | undefined {
    return this.outputs.get(callId);
  }

  unusedTurns() {
    const remaining = this.script.turns.length - this.next;
    return remaining > 0 ? [{ agent: MAIN_AGENT, remaining }] : [];
  }

  describeLastRequest(): string | undefined {
    return this.lastDescription;
  }

  /** Decide the answer to one Responses request. */
  async answer(body: Json, headers: { userAgent?: string } = {}): Promise<ResponsesAnswer> {
    const model = String(body.model ?? "mock-model");
    this.model ??= model;
    this.userAgent ??= headers.userAgent;
    for (const [id, text] of toolOutputs(body)) this.outputs.set(id, text);
    const offered = readOfferedTools(body);
    if (offered.length === 0) {
      this.sideRequests.push(recordResponsesRequest("side", body, offered));
      return { kind: "response", response: this.response(model, [{ type: "message", id: this.nextId("msg"), text: this.script.sideReply ?? "OK" }], undefined), delayMs: 0 };
    }
    this.offered = offered;
    const request = recordResponsesRequest(MAIN_AGENT, body, offered);
    this.requests.push(request);
    const turnNumber = this.next + 1;
    this.lastDescription = `${MAIN_AGENT} asked for turn ${turnNumber}; it had just received ${describeLastReceived(body)}`;

    const turn = this.script.turns[this.next];
    if (turn === undefined) {
      const n = this.script.turns.length;
      return this.fail("script-overrun", `script overrun: ${MAIN_AGENT} asked for turn ${turnNumber} but its script has ${n} turn${n === 1 ? "" : "s"}; the last thing it received was ${describeLastReceived(body)}`);
    }
    let spec: TurnSpec;
    if (typeof turn === "function") {
      const toolResults = lastToolResults(body, this.callNames);
      const context: TurnContext = { agent: MAIN_AGENT, turn: this.next, request, toolResults, ...(toolResults.length ? { lastToolResult: toolResults[toolResults.length - 1] } : {}), body };
      try {
        spec = await turn(context);
      } catch (error) {
        return this.fail("turn-failed", `the function for ${MAIN_AGENT} turn ${turnNumber} threw: ${(error as Error)?.message ?? String(error)}`);
      }
      const problems = scriptErrors({ turns: [spec] }).map((p) => p.replace(/^turns\[0\]/, "turn"));
      if (problems.length > 0) return this.fail("turn-failed", `the function for ${MAIN_AGENT} turn ${turnNumber} returned an invalid turn: ${problems.join("; ")}`);
    } else spec = turn;

    const built = this.items(spec, offered, turnNumber);
    if ("error" in built) return built.error;
    const response = this.response(model, built.items, spec);
    if (spec.fault !== undefined) {
      this.faultsServed++;
      this.faultsAtNext++;
      if (this.faultsAtNext >= (spec.times ?? 1)) this.advance();
      return { kind: "fault", fault: spec.fault, response, delayMs: spec.delayMs ?? 0 };
    }
    this.advance();
    this.undelivered.set(response.id, built.emitted);
    return { kind: "response", response, delayMs: spec.delayMs ?? 0 };
  }

  /** The server wrote the response in full: its items now count as answered. */
  delivered(responseId: string): void {
    const emitted = this.undelivered.get(responseId);
    if (!emitted) return;
    this.undelivered.delete(responseId);
    this.answered.push(emitted);
    for (const e of emitted) if (e.type === "call") this.callNames.set(e.id, e.name);
  }

  private advance(): void {
    this.next++;
    this.faultsAtNext = 0;
  }

  private fail(kind: ResponsesRunError["kind"], detail: string): ResponsesAnswer {
    const message = `proctor mock model: ${detail}`;
    this.errors.push({ kind, message, agent: MAIN_AGENT, turn: this.next + 1 });
    return { kind: "error", status: 400, type: "invalid_request_error", text: message };
  }

  /** The turn's output items in order (shorthand: thinking, text, tools), each call checked against what the request offered. */
  private items(spec: TurnSpec, offered: readonly OfferedTool[], turnNumber: number): { items: OutputItem[]; emitted: EmittedItem[] } | { error: ResponsesAnswer } {
    const blocks: ({ type: "text"; text: string } | { type: "thinking"; thinking: string } | ({ type: "tool_use" } & ScriptToolUse))[] = spec.blocks
      ? [...spec.blocks]
      : [
          ...(spec.thinking !== undefined ? [{ type: "thinking" as const, thinking: spec.thinking }] : []),
          ...(spec.text !== undefined ? [{ type: "text" as const, text: spec.text }] : []),
          ...(spec.tools ?? []).map((t) => ({ type: "tool_use" as const, ...t })),
        ];
    const items: OutputItem[] = [];
    const emitted: EmittedItem[] = [];
    for (const b of blocks) {
      if (b.type === "text") {
        items.push({ type: "message", id: this.nextId("msg"), text: b.text });
        emitted.push({ type: "text", text: b.text });
        continue;
      }
      if (b.type === "thinking") {
        items.push({ type: "reasoning", id: this.nextId("rs"), text: b.thinking });
        emitted.push({ type: "reasoning", text: b.thinking });
        continue;
      }
      if (spec.fault !== undefined) continue;
      const resolved = resolveCall(offered, b.name);
      if ("refused" in resolved) {
        return { error: this.fail("tool-not-offered", `turn ${turnNumber} calls ${b.name}, but ${resolved.refused}. It offered: ${describeOffered(offered)}`) };
      }
      const input = b.input ?? {};
      const callId = b.id ?? this.nextId("call");
      if (resolved.kind === "custom") {
        if (typeof input.input !== "string") {
          return { error: this.fail("turn-failed", `turn ${turnNumber} calls ${b.name}, a freeform tool: script its text as {"name": "${b.name}", "input": {"input": "…"}}`) };
        }
        items.push({ type: "custom_tool_call", id: this.nextId("ctc"), callId, name: resolved.toolName, input: input.input });
      } else {
        items.push({ type: "function_call", id: this.nextId("fc"), callId, name: resolved.toolName, ...(resolved.namespace ? { namespace: resolved.namespace } : {}), arguments: JSON.stringify(input) });
      }
      emitted.push({ type: "call", id: callId, name: b.name, input, freeform: resolved.kind === "custom" });
    }
    return { items, emitted };
  }

  private response(model: string, items: OutputItem[], spec: TurnSpec | undefined): ApiResponse {
    const u = { ...DEFAULT_USAGE, ...spec?.usage };
    return { id: this.nextId("resp"), model, items, usage: { input: u.inputTokens, cached: u.cacheReadTokens, cacheWrite: u.cacheCreationTokens, output: u.outputTokens } };
  }

  private nextId(prefix: string): string {
    return `${prefix}_mock_${this.tag}_${++this.counter}`;
  }
}
