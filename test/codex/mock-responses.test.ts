/** The mock model's Responses API route (what Codex speaks), driven over HTTP with requests Codex really sent. */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOfferedTools, startMockModel, type MockModel, type Script, type TurnContext } from "../../mock-model/index.js";

type Json = Record<string, any>;
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8"));
/** A real first request of codex-cli 0.171 (model gpt-5.5, one MCP server), trimmed. */
const CLASSIC = fixture("codex-run-request.json");
/** The same CLI with a code-mode model: every tool behind `exec`, offered in an `additional_tools` input item. */
const CODE_MODE = fixture("codex-code-mode-request.json");

/** The request a CLI sends after its calls ran: the first request plus the calls and their outputs. */
function followUp(calls: { id: string; name: string; output: string }[]): Json {
  return {
    ...CLASSIC,
    input: [
      ...CLASSIC.input,
      ...calls.flatMap((c) => [
        { type: "function_call", name: c.name, arguments: "{}", call_id: c.id },
        { type: "function_call_output", call_id: c.id, output: c.output },
      ]),
    ],
  };
}

async function post(mock: MockModel, key: string, body: Json, path = "/v1/responses"): Promise<{ status: number; events: Json[]; json?: Json }> {
  const res = await fetch(`${mock.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!(res.headers.get("content-type") ?? "").includes("event-stream")) return { status: res.status, events: [], json: JSON.parse(text) };
  const events = text
    .split("\n\n")
    .filter((chunk) => chunk.includes("data: "))
    .map((chunk) => JSON.parse(chunk.slice(chunk.indexOf("data: ") + 6)));
  return { status: res.status, events };
}

const completed = (events: Json[]) => events.find((e) => e.type === "response.completed")?.response;

describe("readOfferedTools", () => {
  it("reads function, freeform and hosted tools and deferred MCP namespaces from a real Codex request", () => {
    expect(readOfferedTools(CLASSIC).map((t) => `${t.name}:${t.kind}`)).toEqual([
      "exec_command:function",
      "write_stdin:function",
      "list_mcp_resources:function",
      "list_mcp_resource_templates:function",
      "read_mcp_resource:function",
      "request_user_input:function",
      "apply_patch:custom",
      "view_image:function",
      "get_goal:function",
      "create_goal:function",
      "update_goal:function",
      "tool_search:hosted",
      "web_search:hosted",
      "mcp__echo:namespace",
      "multi_agent_v1:namespace",
    ]);
  });

  it("reads code mode's additional_tools item: plain tools unprefixed, other namespaces as <namespace>__<tool>", () => {
    const names = readOfferedTools(CODE_MODE).map((t) => `${t.name}:${t.kind}`);
    expect(names).toContain("exec:custom");
    expect(names).toContain("wait:function");
    expect(names).toContain("clock__sleep:function");
    expect(names).toContain("collaboration__spawn_agent:function");
    expect(names).not.toContain("exec_command:function");
  });

  it("finds no tools in a request without any (a side request)", () => {
    expect(readOfferedTools({ model: "m", input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "title?" }] }] })).toEqual([]);
  });
});

describe("the /v1/responses route", () => {
  let mock: MockModel;
  beforeAll(async () => {
    mock = await startMockModel();
  });
  afterAll(() => mock.close());

  it("answers a turn as SSE: reasoning, message, a function call and a freeform call, with usage", async () => {
    const run = mock.addResponsesRun({
      turns: [
        {
          thinking: "Look first.",
          text: "Let me look.",
          tools: [
            { name: "exec_command", input: { cmd: "ls" }, id: "call_ls" },
            { name: "apply_patch", input: { input: "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n" } },
          ],
          usage: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 2, cacheCreationTokens: 1 },
        },
      ],
    });
    const { status, events } = await post(mock, run.apiKey, CLASSIC);
    expect(status).toBe(200);
    expect(events[0].type).toBe("response.created");
    expect(events.at(-1)!.type).toBe("response.completed");
    const response = completed(events);
    expect(response.output.map((i: Json) => i.type)).toEqual(["reasoning", "message", "function_call", "custom_tool_call"]);
    expect(response.output[1].content[0].text).toBe("Let me look.");
    expect(response.output[2]).toMatchObject({ name: "exec_command", call_id: "call_ls", arguments: '{"cmd":"ls"}' });
    expect(response.output[3]).toMatchObject({ name: "apply_patch", input: "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n" });
    expect(response.usage).toEqual({ input_tokens: 9, input_tokens_details: { cached_tokens: 2, cache_write_tokens: 1 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 });
    // Every data line carries its own type, as the CLI's parser wants.
    expect(events.every((e) => typeof e.type === "string")).toBe(true);

    const recorded = run.requests[0];
    expect(recorded.agent).toBe("main");
    expect(recorded.system).toContain("You are Codex");
    expect(recorded.messages).toContain("[user] tidy the notes");
    expect(recorded.tools.map((t) => t.name)).toContain("apply_patch");
    expect(run.answered[0].map((i) => i.type)).toEqual(["reasoning", "text", "call", "call"]);
    expect(run.model).toBe("gpt-5.5");
  });

  it("puts a call to mcp__<server>__<tool> into the server's deferred namespace", async () => {
    const run = mock.addResponsesRun({ turns: [{ tools: [{ name: "mcp__echo__echo", input: { text: "ping" } }] }] });
    const response = completed((await post(mock, run.apiKey, CLASSIC)).events);
    expect(response.output[0]).toMatchObject({ type: "function_call", namespace: "mcp__echo", name: "echo", arguments: '{"text":"ping"}' });
  });

  it("refuses a call to a tool the CLI did not offer, naming the ones it did", async () => {
    const run = mock.addResponsesRun({ turns: [{ tools: [{ name: "Bash", input: { command: "ls" } }] }] });
    const { status, json } = await post(mock, run.apiKey, CLASSIC);
    expect(status).toBe(400);
    expect(json!.error.message).toContain("turn 1 calls Bash, but the CLI did not offer a tool named Bash. It offered: exec_command, write_stdin,");
    expect(json!.error.message).toContain("apply_patch, ");
    expect(json!.error.message).toContain("mcp__echo__* (deferred)");
    expect(run.errors).toMatchObject([{ kind: "tool-not-offered", agent: "main", turn: 1 }]);
  });

  it("refuses a hosted tool and a freeform tool scripted without its text", async () => {
    const hosted = mock.addResponsesRun({ turns: [{ tools: [{ name: "web_search", input: { query: "x" } }] }] });
    expect((await post(mock, hosted.apiKey, CLASSIC)).json!.error.message).toContain("web_search is a hosted tool");
    const patch = mock.addResponsesRun({ turns: [{ tools: [{ name: "apply_patch", input: { patch: "*** Begin Patch" } }] }] });
    expect((await post(mock, patch.apiKey, CLASSIC)).json!.error.message).toContain('apply_patch, a freeform tool: script its text as {"name": "apply_patch", "input": {"input": "…"}}');
    expect(patch.errors[0].kind).toBe("turn-failed");
  });

  it("makes an overrun a hard error naming the turn asked for and the last thing received", async () => {
    const run = mock.addResponsesRun({ turns: [{ tools: [{ name: "exec_command", input: { cmd: "ls" }, id: "call_1" }] }] });
    await post(mock, run.apiKey, CLASSIC);
    const { status, json } = await post(mock, run.apiKey, followUp([{ id: "call_1", name: "exec_command", output: "Process exited with code 0\nOutput:\na.txt" }]));
    expect(status).toBe(400);
    expect(json!.error.message).toMatch(/script overrun: main asked for turn 2 but its script has 1 turn; the last thing it received was \[tool_result call_1\] Process exited with code 0 Output: a\.txt$/);
    expect(run.errors).toMatchObject([{ kind: "script-overrun", turn: 2 }]);
    expect(run.outputOf("call_1")).toBe("Process exited with code 0\nOutput:\na.txt");
    expect(run.describeLastRequest()).toContain("main asked for turn 2");
  });

  it("gives a function turn the outputs of the last calls, with their names and whether they failed", async () => {
    const seen: TurnContext[] = [];
    const script: Script = {
      turns: [
        { tools: [{ name: "exec_command", input: { cmd: "false" }, id: "call_a" }, { name: "exec_command", input: { cmd: "true" }, id: "call_b" }] },
        (ctx) => {
          seen.push(ctx);
          return { text: ctx.lastToolResult?.isError ? "one failed" : "all passed" };
        },
      ],
    };
    const run = mock.addResponsesRun(script);
    await post(mock, run.apiKey, CLASSIC);
    const second = await post(
      mock,
      run.apiKey,
      followUp([
        { id: "call_a", name: "exec_command", output: "Process exited with code 0\nOutput:\n" },
        { id: "call_b", name: "exec_command", output: "Process exited with code 1\nOutput:\n" },
      ]),
    );
    expect(completed(second.events).output[0].content[0].text).toBe("one failed");
    expect(seen[0].toolResults.map((r) => [r.toolUseId, r.name, r.isError])).toEqual([
      ["call_a", "exec_command", false],
      ["call_b", "exec_command", true],
    ]);
    expect(seen[0].turn).toBe(1);
  });

  it("serves faults — 503 server_is_overloaded, 500, any status — each consuming a turn, `times` in a row", async () => {
    const run = mock.addResponsesRun({ turns: [{ fault: "overloaded", times: 2 }, { fault: "server-error" }, { fault: { status: 429, type: "rate_limit_error", message: "slow down" } }, { text: "ok" }] });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(mock, run.apiKey, CLASSIC));
    expect(answers.map((a) => a.status)).toEqual([503, 503, 500, 429, 200]);
    expect(answers[0].json!.error).toMatchObject({ code: "server_is_overloaded", type: "server_error" });
    expect(answers[3].json!.error).toMatchObject({ type: "rate_limit_error", message: "slow down" });
    expect(run.faultsServed).toBe(4);
    expect(run.answered).toHaveLength(1);
  });

  it("cuts a stream mid-response: the response starts and never completes", async () => {
    const run = mock.addResponsesRun({ turns: [{ fault: "cut" }] });
    const res = await fetch(`${mock.url}/v1/responses`, { method: "POST", headers: { authorization: `Bearer ${run.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ ...CLASSIC, stream: true }) });
    const body = await res.text().catch((error: Error) => `(cut: ${error.message})`);
    expect(body).not.toContain("response.completed");
  });

  it("answers a side request (no tools) with sideReply, consuming no turn", async () => {
    const run = mock.addResponsesRun({ turns: [{ text: "the real answer" }], sideReply: "A title" });
    const side = completed((await post(mock, run.apiKey, { model: "m", stream: true, input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "title?" }] }] })).events);
    expect(side.output[0].content[0].text).toBe("A title");
    expect(completed((await post(mock, run.apiKey, CLASSIC)).events).output[0].content[0].text).toBe("the real answer");
    expect(run.sideRequests).toHaveLength(1);
    expect(run.requests).toHaveLength(1);
  });

  it("keeps runs apart by key, and each key to the API it was registered for", async () => {
    expect((await post(mock, "sk-nobody", CLASSIC)).status).toBe(401);
    const messagesRun = mock.addRun({ turns: [{ text: "hi" }] });
    expect((await post(mock, messagesRun.apiKey, CLASSIC)).json!.error.message).toContain("registered for the Messages API");
    const responsesRun = mock.addResponsesRun({ turns: [{ text: "hi" }] });
    const wrong = await post(mock, responsesRun.apiKey, { model: "m", messages: [], tools: [{ name: "x" }] }, "/v1/messages");
    expect(wrong.json!.error.message).toContain("registered for the Responses API");
    const a = mock.addResponsesRun({ turns: [{ text: "from a" }] });
    const b = mock.addResponsesRun({ turns: [{ text: "from b" }] });
    const [ra, rb] = await Promise.all([post(mock, a.apiKey, CLASSIC), post(mock, b.apiKey, CLASSIC)]);
    expect([completed(ra.events).output[0].content[0].text, completed(rb.events).output[0].content[0].text]).toEqual(["from a", "from b"]);
  });

  it("answers a WebSocket upgrade on /v1/responses with 426, so the CLI falls back to HTTP at once", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${mock.url}/v1/responses`, { headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" } });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("upgrade", () => reject(new Error("the mock accepted a WebSocket")));
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(426);
  });

  it("does not count an answer the client hung up on during its delay", async () => {
    const run = mock.addResponsesRun({ turns: [{ text: "too late", delayMs: 300 }] });
    const controller = new AbortController();
    const pending = fetch(`${mock.url}/v1/responses`, { method: "POST", signal: controller.signal, headers: { authorization: `Bearer ${run.apiKey}` }, body: JSON.stringify(CLASSIC) }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await pending;
    await new Promise((r) => setTimeout(r, 400));
    expect(run.requests).toHaveLength(1);
    expect(run.answered).toEqual([]);
  });

  it("refuses subagents in a Responses script: Codex runs are one conversation", () => {
    expect(() => mock.addResponsesRun({ turns: [{ text: "x" }], subagents: [{ turns: [{ text: "y" }] }] })).toThrow(/script.subagents is not supported/);
  });
});
