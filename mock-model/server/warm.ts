/**
 * Warming a fresh mock server: the CLI's first two requests (a health check, then a streamed
 * Messages request offering tools), sent from this process under a throwaway key. V8 compiles the
 * server's answering code and Node sets up its HTTP parser on first use; in a process that drives
 * one run, that first use would otherwise be the CLI's own first requests, the CLI waiting on each.
 * Sent once the CLI is started, it runs while the CLI boots, which takes far longer.
 */
import { request } from "node:http";
import type { MockModel } from "./start.js";

/** The request body: one user message and one offered tool, as the CLI's first turn has. */
const BODY = JSON.stringify({
  model: "claude-mock",
  max_tokens: 16,
  stream: true,
  messages: [{ role: "user", content: [{ type: "text", text: "warm up" }] }],
  tools: [{ name: "Bash", description: "Run a command", input_schema: { type: "object", properties: { command: { type: "string" } } } }],
});

/** One request to the server, its answer read to the end; never rejects, never keeps the process alive. */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      res.on("error", () => resolve());
      res.on("end", () => resolve());
      res.resume();
    });
    req.on("socket", (socket) => socket.unref());
    req.on("error", () => resolve());
    req.end(body);
  });
}

/** Answer one health check and one scripted tool call on `mock`, then drop the throwaway run. */
export async function warmUp(mock: MockModel): Promise<void> {
  const run = mock.addRun({ turns: [{ tools: [{ name: "Bash", input: { command: "true" } }] }] });
  try {
    await send(`${mock.url}/`, "HEAD", {});
    await send(`${mock.url}/v1/messages?beta=true`, "POST", { "content-type": "application/json", "x-api-key": run.apiKey }, BODY);
  } finally {
    run.remove();
  }
}
