/**
 * The MCP stand-in proctor runs in place of a plugin's real server when a suite mocks it: a stdio
 * MCP server (newline-delimited JSON-RPC) that lists the mocked tools and answers each call from
 * its responder — a fixed answer, or an agent-played one scripted in `proctor.answers.json` — and
 * appends every call to the run's call log (`PROCTOR_MOCK_CALLS`), which the `mock_calls` grader
 * target and the run's abort read. Started as `node stand-in.js SPEC.json`.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { expectViolation, fillAnswer, readAgentReply, scriptedReply, type AnswerRule, type MockVerdict } from "../../src/plugin-eval/mock-respond.js";
import type { MockToolListing, Responder } from "../../src/plugin-eval/mocks.js";

/** What the harness hands a stand-in: one server's tools, responders and scripted answers. */
export interface StandInSpec {
  readonly server: string;
  readonly tools: readonly MockToolListing[];
  readonly responders: Readonly<Record<string, Responder>>;
  readonly answers: Readonly<Record<string, readonly AnswerRule[]>>;
}

/** One line of the call log. */
export interface MockCallRecord {
  readonly server: string;
  readonly tool: string;
  readonly responder: Responder["kind"] | "none";
  readonly input: unknown;
  readonly verdict: MockVerdict["verdict"];
  readonly output: string;
}

/** What a stand-in answers one call with. */
export function answerCall(spec: StandInSpec, tool: string, input: unknown): MockVerdict & { responder: MockCallRecord["responder"] } {
  const responder = Object.hasOwn(spec.responders, tool) ? spec.responders[tool] : undefined;
  if (!responder) return { responder: "none", verdict: "tool_error", text: `no mock for ${spec.server}/${tool}` };
  if (responder.expect !== null) {
    const violation = expectViolation(input, responder.expect);
    if (violation !== null) return { responder: responder.kind, verdict: "abort", text: `the model's call violates expect: ${violation}` };
  }
  if (responder.kind === "fixed") {
    const filled = fillAnswer(responder.body, input, responder.baseDir);
    if (!filled.ok) return { responder: "fixed", verdict: "tool_error", text: filled.reason };
    return { responder: "fixed", verdict: responder.isError ? "tool_error" : "ok", text: filled.text };
  }
  const reply = scriptedReply(spec.answers[tool], input);
  if (reply === undefined) return { responder: "agent", verdict: "abort", text: `no scripted answer for the agent-played ${spec.server}/${tool} with this input — add one to mocks/${spec.server}/proctor.answers.json` };
  return { responder: "agent", ...readAgentReply(reply) };
}

/** Serve `spec` over stdin/stdout until stdin ends. */
export function serveStandIn(spec: StandInSpec, callLog: string | undefined): void {
  const send = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  createInterface({ input: process.stdin }).on("line", (line) => {
    let request: { id?: unknown; method?: unknown; params?: { protocolVersion?: unknown; name?: unknown; arguments?: unknown } };
    try {
      request = JSON.parse(line);
    } catch {
      return;
    }
    if (request.id === undefined) return;
    const id = request.id;
    switch (request.method) {
      case "initialize":
        return send({ id, result: { protocolVersion: typeof request.params?.protocolVersion === "string" ? request.params.protocolVersion : "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: `proctor-mock/${spec.server}`, version: "1" } } });
      case "tools/list":
        return send({ id, result: { tools: spec.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: { type: "object", ...t.inputSchema } })) } });
      case "tools/call": {
        const tool = String(request.params?.name ?? "");
        const input = request.params?.arguments ?? {};
        const answer = answerCall(spec, tool, input);
        const record: MockCallRecord = { server: spec.server, tool, responder: answer.responder, input, verdict: answer.verdict, output: answer.text };
        if (callLog) appendFileSync(callLog, `${JSON.stringify(record)}\n`);
        const text = answer.verdict === "abort" ? `eval aborted by mock: ${spec.server}/${tool} — ${answer.text}` : answer.text;
        return send({ id, result: { content: [{ type: "text", text }], ...(answer.verdict === "ok" ? {} : { isError: true }) } });
      }
      case "ping":
        return send({ id, result: {} });
      default:
        return send({ id, error: { code: -32601, message: `no method ${String(request.method)}` } });
    }
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("proctor mock stand-in: give the spec file\n");
    process.exit(2);
  }
  const spec = JSON.parse(readFileSync(file, "utf8")) as StandInSpec;
  const callLog = process.env.PROCTOR_MOCK_CALLS;
  // The identity line: a run whose log lacks it had no working stand-in, so its calls are not evidence.
  if (callLog) appendFileSync(callLog, `${JSON.stringify({ ready: spec.server })}\n`);
  serveStandIn(spec, callLog);
}
