/**
 * One Responses API run on the mock server (a Codex run): its script, where it is in it, every
 * request it received, every item it answered with and what the CLI sent back for each call.
 * Decides the answer to each request; the server only writes it.
 */
import { MAIN_AGENT } from "../../src/trace/types.js";
import { DEFAULT_USAGE, ScriptedRunState, type ErrorAnswer, type ScriptedRun, type ScriptedRunError, type TurnPosition } from "../run/scripted-run.js";
import type { ScriptFault, ScriptToolUse, TurnSpec } from "../script/types.js";
import type { ApiResponse, OutputItem } from "./events.js";
import { describeOffered, readOfferedTools, resolveCall, type OfferedTool } from "./offered.js";
import { describeLastReceived, lastToolResults, recordResponsesRequest, toolOutputs } from "./request.js";

type Json = Record<string, unknown>;

/** A problem the mock hit while serving a run (a tool the CLI did not offer among them); each one fails the run. */
export interface ResponsesRunError extends ScriptedRunError<"script-overrun" | "turn-failed" | "tool-not-offered"> {}

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
  | ErrorAnswer;

/** A Responses run registered on a mock server: hand its `apiKey` to the CLI, then read what it received. */
export interface ResponsesMockRun extends ScriptedRun<ResponsesRunError> {
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
  /** Turns the script still had when the run ended. */
  unusedTurns(): { agent: string; remaining: number }[];
}

/** A ResponsesMockRun with the answering logic the server calls. */
export class ResponsesRunState extends ScriptedRunState<"tool-not-offered"> implements ResponsesMockRun {
  readonly answered: EmittedItem[][] = [];
  offered: readonly OfferedTool[] = [];
  model: string | undefined;
  userAgent: string | undefined;
  /** Codex runs have one conversation: the main agent's. */
  private readonly position: TurnPosition = { next: 0, faultsAtNext: 0 };
  private readonly outputs = new Map<string, string>();
  /** Responses decided but not yet written (a delayed answer the client may hang up on). */
  private readonly undelivered = new Map<string, EmittedItem[]>();
  private readonly callNames = new Map<string, string>();

  outputOf(callId: string): string | undefined {
    return this.outputs.get(callId);
  }

  unusedTurns() {
    const remaining = this.script.turns.length - this.position.next;
    return remaining > 0 ? [{ agent: MAIN_AGENT, remaining }] : [];
  }

  /** Decide the answer to one Responses request. */
  async answer(body: Json, headers: { userAgent?: string | undefined } = {}): Promise<ResponsesAnswer> {
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
    const turnNumber = this.position.next + 1;
    const lastReceived = describeLastReceived(body);
    this.lastDescription = `${MAIN_AGENT} asked for turn ${turnNumber}; it had just received ${lastReceived}`;

    const turn = await this.resolveTurn(this.script.turns, this.position, MAIN_AGENT, lastReceived, { request, body, toolResults: () => lastToolResults(body, this.callNames) });
    if ("error" in turn) return turn.error;
    const { spec } = turn;
    const built = this.items(spec, offered, turnNumber);
    if ("error" in built) return built.error;
    const response = this.response(model, built.items, spec);
    const fault = this.step(this.position, spec);
    if (fault !== undefined) return { kind: "fault", fault, response, delayMs: spec.delayMs ?? 0 };
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

  private refuse(kind: ResponsesRunError["kind"], detail: string): { error: ResponsesAnswer } {
    return { error: this.fail(this.position, MAIN_AGENT, kind, detail) };
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
        return this.refuse("tool-not-offered", `turn ${turnNumber} calls ${b.name}, but ${resolved.refused}. It offered: ${describeOffered(offered)}`);
      }
      const input = b.input ?? {};
      const callId = b.id ?? this.nextId("call");
      if (resolved.kind === "custom") {
        if (typeof input.input !== "string") {
          return this.refuse("turn-failed", `turn ${turnNumber} calls ${b.name}, a freeform tool: script its text as {"name": "${b.name}", "input": {"input": "…"}}`);
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
}
