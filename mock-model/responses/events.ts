/** Writing a model response the way the Responses API does: SSE events or one JSON body, or a fault. */
import type { ScriptFault } from "../script/types.js";
import { type ServerResponse, sendEvents, sendJson, startStream } from "../server/answer.js";

type Json = Record<string, unknown>;

/** One output item as the client receives it. */
export type OutputItem =
  | { readonly type: "message"; readonly id: string; readonly text: string }
  | { readonly type: "reasoning"; readonly id: string; readonly text: string }
  | { readonly type: "function_call"; readonly id: string; readonly callId: string; readonly name: string; readonly namespace?: string; readonly arguments: string }
  | { readonly type: "custom_tool_call"; readonly id: string; readonly callId: string; readonly name: string; readonly input: string };

export interface ApiResponse {
  readonly id: string;
  readonly model: string;
  readonly items: readonly OutputItem[];
  readonly usage: { readonly input: number; readonly cached: number; readonly cacheWrite: number; readonly output: number };
}

function wireItem(item: OutputItem): Json {
  switch (item.type) {
    case "message":
      return { type: "message", id: item.id, role: "assistant", status: "completed", content: [{ type: "output_text", text: item.text, annotations: [] }] };
    case "reasoning":
      return { type: "reasoning", id: item.id, summary: [{ type: "summary_text", text: item.text }], content: [] };
    case "function_call":
      return { type: "function_call", id: item.id, call_id: item.callId, name: item.name, ...(item.namespace ? { namespace: item.namespace } : {}), arguments: item.arguments, status: "completed" };
    case "custom_tool_call":
      return { type: "custom_tool_call", id: item.id, call_id: item.callId, name: item.name, input: item.input, status: "completed" };
  }
}

function usageBody(r: ApiResponse): Json {
  const u = r.usage;
  return {
    input_tokens: u.input + u.cached,
    input_tokens_details: { cached_tokens: u.cached, cache_write_tokens: u.cacheWrite },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.input + u.cached + u.output,
  };
}

/** The whole response as one JSON body (non-streaming requests). */
export function responseBody(r: ApiResponse): Json {
  return { id: r.id, object: "response", status: "completed", model: r.model, output: r.items.map(wireItem), usage: usageBody(r) };
}

/** The SSE events of a response, in order. */
export function responseEvents(r: ApiResponse): string[] {
  const ev = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const out = [ev("response.created", { response: { id: r.id, object: "response", status: "in_progress", model: r.model, output: [] } })];
  r.items.forEach((item, index) => {
    const done = wireItem(item);
    const started = item.type === "message" ? { ...done, status: "in_progress", content: [] } : item.type === "function_call" ? { ...done, status: "in_progress", arguments: "" } : done;
    out.push(ev("response.output_item.added", { output_index: index, item: started }));
    if (item.type === "message") out.push(ev("response.output_text.delta", { output_index: index, item_id: item.id, content_index: 0, delta: item.text }));
    if (item.type === "function_call") out.push(ev("response.function_call_arguments.delta", { output_index: index, item_id: item.id, delta: item.arguments }));
    out.push(ev("response.output_item.done", { output_index: index, item: done }));
  });
  out.push(ev("response.completed", { response: responseBody(r) }));
  return out;
}

/** The response as an SSE stream. */
export function sendResponseStream(res: ServerResponse, r: ApiResponse): void {
  sendEvents(res, responseEvents(r));
}

/** An OpenAI-shaped error body. */
export function sendResponsesError(res: ServerResponse, status: number, type: string, message: string, code: string | null = null): void {
  sendJson(res, status, { error: { message, type, param: null, code } }, { "x-request-id": `req_mock_${Date.now()}` });
}

/**
 * Serve a fault. `overloaded` is what the Responses API sends when a model is at capacity (HTTP 503
 * `server_is_overloaded`); `cut` starts the stream and then destroys the connection mid-response;
 * `stall` starts it and then sends nothing until the client hangs up.
 */
export function sendResponsesFault(res: ServerResponse, fault: ScriptFault, r: ApiResponse, streaming: boolean): void {
  if (fault === "overloaded") {
    sendResponsesError(res, 503, "server_error", "The server is overloaded; please retry", "server_is_overloaded");
    return;
  }
  if (fault === "server-error") {
    sendResponsesError(res, 500, "server_error", "The server had an error while processing your request");
    return;
  }
  if (typeof fault === "object") {
    sendResponsesError(res, fault.status, fault.type ?? "server_error", fault.message ?? `mock fault ${fault.status}`);
    return;
  }
  const events = responseEvents(r);
  if (fault === "cut") {
    if (streaming) {
      startStream(res);
      // The response starts and a message begins; the stream dies before the message or the response completes.
      const ev = (type: string, data: Json) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      const item = { type: "message", id: `${r.id}_cut`, role: "assistant", status: "in_progress", content: [] };
      res.write(events[0] + ev("response.output_item.added", { output_index: 0, item }) + ev("response.output_text.delta", { output_index: 0, item_id: item.id, content_index: 0, delta: "Let me" }));
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"resp_cut","object":"response","output":[{"type":"mess');
    }
    // Let the partial body reach the client before the connection dies.
    setTimeout(() => res.destroy(), 20);
    return;
  }
  startStream(res);
  if (streaming) res.write(events[0]);
}
