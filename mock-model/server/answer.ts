/** Writing an assistant message the way the Messages API does: SSE events or one JSON body, or a fault. */
import type { ScriptFault, StopReason } from "../script/types.js";

/**
 * The part of node:http's `ServerResponse` the writers here use, spelled out so that the published
 * types do not need `@types/node` in the user's project.
 */
export interface ServerResponse {
  writeHead(status: number, headers?: Record<string, string | number>): unknown;
  write(chunk: unknown): unknown;
  end(chunk?: string): unknown;
  destroy(): unknown;
}

type Json = Record<string, unknown>;

/** An API content block as sent to the client. */
export type ApiBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

export interface ApiMessage {
  readonly id: string;
  readonly model: string;
  readonly content: readonly ApiBlock[];
  readonly stopReason: StopReason;
  readonly usage: { input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number };
}

function messageBody(m: ApiMessage): Json {
  return { id: m.id, type: "message", role: "assistant", model: m.model, content: m.content, stop_reason: m.stopReason, stop_sequence: null, usage: m.usage };
}

/** Send a JSON body with a status. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An Anthropic-shaped error body. */
export function sendApiError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: "error", error: { type, message } }, { "request-id": `req_mock_${Date.now()}` });
}

/** The whole message as one JSON body (non-streaming requests). */
export function sendMessageJson(res: ServerResponse, m: ApiMessage): void {
  sendJson(res, 200, messageBody(m));
}

/** The SSE events of a message, in order; `cutAfter` stops after that many events. */
export function messageEvents(m: ApiMessage): string[] {
  const ev = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const out = [ev("message_start", { message: { ...messageBody(m), content: [], stop_reason: null, usage: { ...m.usage, output_tokens: 1 } } })];
  m.content.forEach((block, index) => {
    if (block.type === "text") {
      out.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
      out.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: block.text } }));
    } else if (block.type === "thinking") {
      out.push(ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } }));
      out.push(ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: block.thinking } }));
      out.push(ev("content_block_delta", { index, delta: { type: "signature_delta", signature: block.signature } }));
    } else {
      out.push(ev("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }));
      out.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }));
    }
    out.push(ev("content_block_stop", { index }));
  });
  out.push(ev("message_delta", { delta: { stop_reason: m.stopReason, stop_sequence: null }, usage: { output_tokens: m.usage.output_tokens } }));
  out.push(ev("message_stop", {}));
  return out;
}

/** The SSE response head, shared by the Messages and Responses APIs. */
export function startStream(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
}

/** Serialised SSE events as one whole stream. */
export function sendEvents(res: ServerResponse, events: readonly string[]): void {
  startStream(res);
  res.end(events.join(""));
}

/** The message as an SSE stream. */
export function sendMessageStream(res: ServerResponse, m: ApiMessage): void {
  sendEvents(res, messageEvents(m));
}

/**
 * Serve a fault. `cut` sends the message's first events and then destroys the connection
 * mid-message; `stall` sends `message_start` and then nothing until the client hangs up.
 */
export function sendFault(res: ServerResponse, fault: ScriptFault, m: ApiMessage, streaming: boolean): void {
  if (fault === "overloaded") {
    sendApiError(res, 529, "overloaded_error", "Overloaded");
    return;
  }
  if (fault === "server-error") {
    sendApiError(res, 500, "api_error", "Internal server error");
    return;
  }
  if (typeof fault === "object") {
    sendApiError(res, fault.status, fault.type ?? "api_error", fault.message ?? `mock fault ${fault.status}`);
    return;
  }
  const events = messageEvents(m);
  if (fault === "cut") {
    if (!streaming) {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"msg_cut","type":"message","content":[{"type":"te');
    } else {
      startStream(res);
      res.write(events.slice(0, 3).join(""));
    }
    // Let the partial body reach the client before the connection dies.
    setTimeout(() => res.destroy(), 20);
    return;
  }
  // stall: the answer starts, then nothing more until the client gives up or the server closes.
  startStream(res);
  if (streaming) res.write(events[0]);
}
