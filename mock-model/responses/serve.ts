/** The `/v1/responses` route of the mock server, and its answer to WebSocket upgrades. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { sendJson } from "../server/answer.js";
import { responseBody, sendResponseStream, sendResponsesError, sendResponsesFault } from "./events.js";
import type { ResponsesRunState } from "./run-state.js";

/** Answer one `POST /v1/responses` for a registered run. */
export async function serveResponses(req: IncomingMessage, res: ServerResponse, run: ResponsesRunState, body: Record<string, unknown>): Promise<void> {
  const userAgent = typeof req.headers["user-agent"] === "string" ? req.headers["user-agent"] : undefined;
  const answer = await run.answer(body, { userAgent });
  if (answer.kind === "error") return sendResponsesError(res, answer.status, answer.type, answer.text);
  if (answer.delayMs > 0) await new Promise((r) => setTimeout(r, answer.delayMs));
  if (res.destroyed) return;
  const streaming = body.stream === true;
  if (answer.kind === "fault") return sendResponsesFault(res, answer.fault, answer.response, streaming);
  if (streaming) sendResponseStream(res, answer.response);
  else sendJson(res, 200, responseBody(answer.response));
  run.delivered(answer.response.id);
}

/**
 * Refuse a WebSocket upgrade. Codex tries a WebSocket on `/v1/responses` first; a 404 makes it
 * retry for seconds, while `426 Upgrade Required` makes it fall back to HTTP SSE at once.
 */
export function refuseWebSocket(req: IncomingMessage, socket: Duplex): void {
  const path = (req.url ?? "/").split("?")[0];
  const [status, reason] = path === "/v1/responses" ? [426, "Upgrade Required"] : [404, "Not Found"];
  const text = JSON.stringify({ error: { message: `proctor mock model: no WebSocket on ${path}; use HTTP (POST /v1/responses with stream: true)`, type: "invalid_request_error" } });
  socket.on("error", () => undefined);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}
