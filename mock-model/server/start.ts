/**
 * The scripted Anthropic Messages API server. One server serves many concurrent runs, each
 * registered under its own API key with its own script and records.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { InvalidInputError, ConfigError, messageOf } from "../../src/errors/proctor-error.js";
import { validateScript } from "../script/schema.js";
import type { Script } from "../script/types.js";
import { MockRunState, type MockRun } from "../run/mock-run.js";
import { sendApiError, sendFault, sendJson, sendMessageJson, sendMessageStream } from "./answer.js";
import { ResponsesRunState, type ResponsesMockRun } from "../responses/run-state.js";
import { refuseWebSocket, serveResponses } from "../responses/serve.js";

/** Every HTTP request as it arrived, for inspection (e.g. proving a credential never reached the server). */
export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export interface MockModelOptions {
  /** @default 0 (any free port) */
  readonly port?: number;
  /** @default "127.0.0.1" */
  readonly host?: string;
  /** Called with every request before it is answered. */
  readonly onRequest?: (request: RawRequest) => void;
  /** Called when an answer has been written (a stalled one never is), with how long the server took. */
  readonly onAnswer?: (answer: { readonly method: string; readonly url: string; readonly status: number; readonly ms: number }) => void;
  /**
   * Pick the run a request belongs to by something other than its API key (e.g. claude's session
   * id, for a server many claude processes share with one key): return the key the run was
   * registered under, or undefined to look the request's own key up.
   */
  readonly route?: (request: RawRequest) => string | undefined;
  /** Let the process exit while the server is still listening. @default false */
  readonly unref?: boolean;
}

export interface MockModel {
  /** `http://127.0.0.1:PORT` — the CLI's `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  readonly port: number;
  /** Register a run: validates the script and returns the run, with a fresh API key unless one is given. */
  addRun(script: Script, options?: { apiKey?: string }): MockRun;
  /** Register a run for the OpenAI Responses API (`POST /v1/responses`, what Codex speaks). */
  addResponsesRun(script: Script, options?: { apiKey?: string }): ResponsesMockRun;
  /** Stop listening and drop every open connection (stalled answers included). */
  close(): Promise<void>;
}

const HEALTH_PATHS = new Set(["/", "/health", "/healthz", "/v1/health", "/status"]);

function apiKeyOf(req: IncomingMessage): string | undefined {
  const key = req.headers["x-api-key"];
  if (typeof key === "string" && key) return key;
  const auth = req.headers.authorization;
  return typeof auth === "string" && auth.startsWith("Bearer ") ? auth.slice(7) : undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Start the mock model on 127.0.0.1 (a free port unless one is given). */
export async function startMockModel(options: MockModelOptions = {}): Promise<MockModel> {
  const runs = new Map<string, MockRunState | ResponsesRunState>();
  let runCounter = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const path = url.split("?")[0] ?? url;
    const raw = { method, url, headers: req.headers, body };
    options.onRequest?.(raw);

    if ((method === "HEAD" || method === "GET") && HEALTH_PATHS.has(path)) {
      if (method === "HEAD") return void res.writeHead(200).end();
      return sendJson(res, 200, { ok: true, server: "proctor mock model", runs: runs.size });
    }
    if (method === "POST" && path === "/v1/messages/count_tokens") {
      return sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(body.length / 4)) });
    }
    if (method !== "POST" || (path !== "/v1/messages" && path !== "/v1/responses")) {
      return sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: `proctor mock model: no route for ${method} ${path}; it serves POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/responses and health checks` } });
    }
    const key = options.route?.(raw) ?? apiKeyOf(req);
    const run = key ? runs.get(key) : undefined;
    if (!run) {
      return sendApiError(res, 401, "authentication_error", `proctor mock model: no run is registered for ${key ? "this API key" : "a request without an API key"}; register one with mock.addRun(script) and pass its apiKey`);
    }
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body);
    } catch {
      return sendApiError(res, 400, "invalid_request_error", "proctor mock model: the request body is not JSON");
    }
    if ((path === "/v1/responses") !== run instanceof ResponsesRunState) {
      return sendApiError(res, 400, "invalid_request_error", `proctor mock model: this API key's run was registered for ${run instanceof ResponsesRunState ? "the Responses API (addResponsesRun)" : "the Messages API (addRun)"}, not ${path}`);
    }
    if (run instanceof ResponsesRunState) return serveResponses(req, res, run, parsed);
    const answer = await run.answer(parsed);
    if (answer.kind === "error") return sendApiError(res, answer.status, answer.type, answer.text);
    if (answer.delayMs > 0) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    const streaming = parsed.stream === true;
    if (answer.kind === "fault") return sendFault(res, answer.fault, answer.message, streaming);
    return streaming ? sendMessageStream(res, answer.message) : sendMessageJson(res, answer.message);
  }

  const server = createServer((req, res) => {
    const { onAnswer } = options;
    if (onAnswer) {
      const started = performance.now();
      res.once("finish", () => onAnswer({ method: req.method ?? "GET", url: req.url ?? "/", status: res.statusCode, ms: performance.now() - started }));
    }
    handle(req, res).catch((error) => {
      if (!res.headersSent) sendApiError(res, 500, "api_error", `proctor mock model crashed: ${(error as Error)?.stack ?? String(error)}`);
      else res.destroy();
    });
  });
  server.on("upgrade", refuseWebSocket);
  server.keepAliveTimeout = 5_000;
  const port = options.port ?? 0;
  const listenHost = options.host ?? "127.0.0.1";
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidInputError("INVALID_INPUT", `startMockModel: port must be an integer within 0..65535; got ${String(port)}`, { input: "port", hint: "omit it (or pass 0) for a free port" });
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(new InvalidInputError("INVALID_INPUT", `startMockModel: cannot listen on ${listenHost}:${port}: ${messageOf(error)}`, { input: port ? "port" : "host", hint: "omit port for a free one, and host for 127.0.0.1", cause: error })),
    );
    server.listen(port, listenHost, () => resolve());
  });
  if (options.unref) server.unref();
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    addRun(script, runOptions = {}) {
      const checked = validateScript(script);
      const apiKey = runOptions.apiKey ?? `sk-proctor-mock-${randomBytes(12).toString("hex")}`;
      if (runs.has(apiKey)) throw new InvalidInputError("INVALID_INPUT", `a run is already registered for API key ${apiKey}; use a fresh key per run`);
      const run = new MockRunState(apiKey, checked, (++runCounter).toString(36), () => runs.delete(apiKey));
      runs.set(apiKey, run);
      return run;
    },
    addResponsesRun(script, runOptions = {}) {
      const checked = validateScript(script);
      if (checked.subagents?.length) throw new ConfigError("SCRIPT_INVALID", "a Responses API run has one conversation: script.subagents is not supported there; drop it");
      const apiKey = runOptions.apiKey ?? `sk-proctor-mock-${randomBytes(12).toString("hex")}`;
      if (runs.has(apiKey)) throw new InvalidInputError("INVALID_INPUT", `a run is already registered for API key ${apiKey}; use a fresh key per run`);
      const run = new ResponsesRunState(apiKey, checked, (++runCounter).toString(36), () => runs.delete(apiKey));
      runs.set(apiKey, run);
      return run;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
