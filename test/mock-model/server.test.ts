import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockModel, type MockModel, type RawRequest } from "../../mock-model/index.js";

let mock: MockModel;
const raw: RawRequest[] = [];
const answered: { method: string; url: string; status: number; ms: number }[] = [];
beforeAll(async () => {
  mock = await startMockModel({ onRequest: (r) => raw.push(r), onAnswer: (a) => answered.push(a) });
});
afterAll(() => mock.close());

const TOOLS = [{ name: "Bash", description: "Runs a command" }, { name: "Agent", description: "Dispatches a subagent" }];

type Msg = { role: string; content: unknown };

function post(key: string, body: Record<string, unknown>, path = "/v1/messages?beta=true") {
  return fetch(`${mock.url}${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** A response body as JSON (typed loosely: these tests read API shapes). */
const json = (res: Response): Promise<any> => res.json();

/** The SSE events of a streamed answer, as parsed objects. */
async function events(res: Response): Promise<Record<string, any>[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((chunk) => chunk.includes("data: "))
    .map((chunk) => JSON.parse(chunk.slice(chunk.indexOf("data: ") + 6)));
}

/** Rebuild the assistant message the way an SDK does from the stream. */
async function streamed(res: Response) {
  const evs = await events(res);
  const blocks: any[] = [];
  let stop: string | undefined;
  for (const e of evs) {
    if (e.type === "content_block_start") blocks[e.index] = { ...e.content_block };
    if (e.type === "content_block_delta") {
      const b = blocks[e.index];
      if (e.delta.type === "text_delta") b.text += e.delta.text;
      if (e.delta.type === "thinking_delta") b.thinking += e.delta.thinking;
      if (e.delta.type === "input_json_delta") b.json = (b.json ?? "") + e.delta.partial_json;
    }
    if (e.type === "message_delta") stop = e.delta.stop_reason;
  }
  for (const b of blocks) if (b.type === "tool_use") b.input = JSON.parse(b.json);
  return { types: evs.map((e) => e.type), blocks, stop };
}

const user = (text: string): Msg => ({ role: "user", content: [{ type: "text", text: "<system-reminder>\nctx\n</system-reminder>\n" }, { type: "text", text }] });

describe("mock model HTTP surface", () => {
  it("answers HEAD /, health GETs, count_tokens, and a JSON 404 naming the request", async () => {
    expect((await fetch(mock.url, { method: "HEAD" })).status).toBe(200);
    expect(await (await fetch(`${mock.url}/health`)).json()).toMatchObject({ ok: true });
    const count = await post("any", { messages: [] }, "/v1/messages/count_tokens?beta=true");
    expect((await json(count)).input_tokens).toBeGreaterThan(0);
    const missing = await fetch(`${mock.url}/v1/models`);
    expect(missing.status).toBe(404);
    expect((await json(missing)).error.message).toContain("no route for GET /v1/models");
  });

  it("refuses an unknown API key with a 401 that says how to register", async () => {
    const res = await post("nobody", { messages: [user("hi")], tools: TOOLS, stream: true });
    expect(res.status).toBe(401);
    expect((await json(res)).error.message).toMatch(/no run is registered for this API key; register one with mock\.addRun/);
  });

  it("streams SSE in the Messages API order: text, parallel tool calls, thinking, stop reason and usage", async () => {
    const run = mock.addRun({
      turns: [{ thinking: "plan", text: "Two at once.", tools: [{ name: "Bash", input: { command: "ls" } }, { name: "Bash", input: { command: "pwd" } }], usage: { inputTokens: 1234, outputTokens: 56 } }],
    });
    const res = await post(run.apiKey, { model: "claude-x", messages: [user("go")], tools: TOOLS, stream: true });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const evs = await events(res.clone());
    const m = await streamed(res);
    expect(m.types[0]).toBe("message_start");
    expect(m.types.slice(-2)).toEqual(["message_delta", "message_stop"]);
    expect(m.blocks.map((b) => b.type)).toEqual(["thinking", "text", "tool_use", "tool_use"]);
    expect(m.blocks[1].text).toBe("Two at once.");
    expect(m.blocks.slice(2).map((b) => b.input)).toEqual([{ command: "ls" }, { command: "pwd" }]);
    expect(new Set(m.blocks.slice(2).map((b) => b.id)).size).toBe(2);
    expect(m.stop).toBe("tool_use");
    expect(evs[0].message).toMatchObject({ model: "claude-x", usage: { input_tokens: 1234 } });
    expect(evs.find((e) => e.type === "message_delta")?.usage.output_tokens).toBe(56);
  });

  it("answers non-streaming requests with one JSON message", async () => {
    const run = mock.addRun({ turns: [{ text: "plain" }] });
    const res = await post(run.apiKey, { messages: [user("go")], tools: TOOLS });
    expect(await json(res)).toMatchObject({ type: "message", role: "assistant", content: [{ type: "text", text: "plain" }], stop_reason: "end_turn" });
  });

  it("answers side requests (no tools) neutrally without consuming a turn, and records them apart", async () => {
    const run = mock.addRun({ turns: [{ text: "the real turn" }], sideReply: "side ok" });
    const side = await json(await post(run.apiKey, { system: "summarise", messages: [user("title this")] }));
    expect(side.content).toEqual([{ type: "text", text: "side ok" }]);
    const main = await streamed(await post(run.apiKey, { messages: [user("go")], tools: TOOLS, stream: true }));
    expect(main.blocks[0].text).toBe("the real turn");
    expect(run.sideRequests.map((r) => r.messages)).toEqual([expect.stringContaining("title this")]);
    expect(run.requests.map((r) => r.agent)).toEqual(["main"]);
  });

  it("records each request: system text, flattened messages with tool calls and results, advertised tools", async () => {
    const run = mock.addRun({ turns: [{ text: "ok" }] });
    await post(run.apiKey, {
      system: [{ type: "text", text: "You are Claude." }, { type: "text", text: "Be brief." }],
      messages: [user("list"), { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "a.txt" }], is_error: false }] }],
      tools: TOOLS,
    });
    const [r] = run.requests;
    expect(r.system).toBe("You are Claude.\nBe brief.");
    expect(r.messages).toContain('[tool_use Bash t1] {"command":"ls"}');
    expect(r.messages).toContain("[tool_result t1] a.txt");
    expect(r.tools).toEqual(TOOLS);
  });

  it("routes subagent requests by the Agent call's prompt and type, each dispatch with its own turns", async () => {
    const run = mock.addRun({
      turns: [{ tools: [{ name: "Agent", input: { prompt: "Find configs", subagent_type: "Explore" } }, { name: "Agent", input: { prompt: "Review the diff", subagent_type: "general-purpose" } }] }, { text: "main done" }],
      subagents: [
        { type: "Explore", turns: [{ text: "explore turn 1" }] },
        { prompt: /review/i, turns: [{ tools: [{ name: "Bash", input: { command: "git diff" } }] }, { text: "review done" }] },
      ],
    });
    const first = await streamed(await post(run.apiKey, { messages: [user("start")], tools: TOOLS, stream: true }));
    const [explore, review] = first.blocks;
    // Interleaved, as parallel subagents arrive.
    const r1 = await streamed(await post(run.apiKey, { messages: [user("Review the diff")], tools: [TOOLS[0]], stream: true }));
    const e1 = await streamed(await post(run.apiKey, { messages: [user("Find configs")], tools: [TOOLS[0]], stream: true }));
    const r2 = await streamed(
      await post(run.apiKey, {
        messages: [user("Review the diff"), { role: "assistant", content: [r1.blocks[0]] }, { role: "user", content: [{ type: "tool_result", tool_use_id: r1.blocks[0].id, content: "diff" }] }],
        tools: [TOOLS[0]],
        stream: true,
      }),
    );
    const m2 = await streamed(
      await post(run.apiKey, {
        messages: [user("start"), { role: "assistant", content: first.blocks }, { role: "user", content: [{ type: "tool_result", tool_use_id: explore.id, content: "x" }, { type: "tool_result", tool_use_id: review.id, content: "y" }] }],
        tools: TOOLS,
        stream: true,
      }),
    );
    expect([r1.blocks[0].input, e1.blocks[0].text, r2.blocks[0].text, m2.blocks[0].text]).toEqual([{ command: "git diff" }, "explore turn 1", "review done", "main done"]);
    expect(run.requests.map((r) => r.agent)).toEqual(["main", "general-purpose", "Explore", "general-purpose", "main"]);
    expect(run.errors).toEqual([]);
    expect(run.unusedTurns()).toEqual([]);
  });

  it("gives a function turn the request and the last tool result to branch on", async () => {
    const run = mock.addRun({
      turns: [{ tools: [{ name: "Bash", input: { command: "cat x" } }] }, (ctx) => (ctx.lastToolResult?.isError ? { text: `failed: ${ctx.lastToolResult.content}` } : { text: "fine" })],
    });
    const a = await streamed(await post(run.apiKey, { messages: [user("go")], tools: TOOLS, stream: true }));
    const b = await streamed(
      await post(run.apiKey, {
        messages: [user("go"), { role: "assistant", content: a.blocks }, { role: "user", content: [{ type: "tool_result", tool_use_id: a.blocks[0].id, content: "no such file", is_error: true }] }],
        tools: TOOLS,
        stream: true,
      }),
    );
    expect(b.blocks[0].text).toBe("failed: no such file");
  });

  it("fails a run that runs past its script, naming the agent, the turn and the last thing received", async () => {
    const run = mock.addRun({ turns: [{ text: "only turn" }] });
    await post(run.apiKey, { messages: [user("go")], tools: TOOLS, stream: true });
    const res = await post(run.apiKey, { messages: [user("go"), { role: "assistant", content: "only turn" }, user("and now?")], tools: TOOLS, stream: true });
    expect(res.status).toBe(400);
    const message = (await json(res)).error.message;
    expect(message).toBe("proctor mock model: script overrun: main asked for turn 2 but its script has 1 turn; the last thing it received was user: <system-reminder> ctx </system-reminder> and now?");
    expect(run.errors).toEqual([{ kind: "script-overrun", message, agent: "main", turn: 2 }]);
  });

  it("fails a subagent dispatch no script entry matches", async () => {
    const run = mock.addRun({ turns: [{ tools: [{ name: "Agent", input: { prompt: "Plan it", subagent_type: "Plan" } }] }] });
    await post(run.apiKey, { messages: [user("go")], tools: TOOLS, stream: true });
    const res = await post(run.apiKey, { messages: [user("Plan it")], tools: [TOOLS[0]], stream: true });
    expect(res.status).toBe(400);
    expect(run.errors[0]).toMatchObject({ kind: "no-subagent-script", agent: "Plan" });
    expect(run.errors[0].message).toMatch(/add \{"type": "Plan", "turns": \[…\]\} to script\.subagents/);
  });

  it("serves faults: 529 and 500 bodies, repeated `times`, then the next turn", async () => {
    const run = mock.addRun({ turns: [{ fault: "overloaded", times: 2 }, { fault: "server-error" }, { fault: { status: 429, type: "rate_limit_error" } }, { text: "recovered" }] });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(run.apiKey, { messages: [user("go")], tools: TOOLS, stream: true });
      statuses.push(res.status);
      if (i === 0) expect(await json(res)).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
      else await res.arrayBuffer();
    }
    expect(statuses).toEqual([529, 529, 500, 429]);
    expect((await streamed(await post(run.apiKey, { messages: [user("go")], tools: TOOLS, stream: true }))).blocks[0].text).toBe("recovered");
    expect(run.faultsServed).toBe(4);
  });

  it("cuts a stream mid-message: the client sees a partial stream and a dropped connection", async () => {
    const run = mock.addRun({ turns: [{ fault: "cut" }] });
    const res = await post(run.apiKey, { messages: [user("go")], tools: TOOLS, stream: true });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it("stalls: headers and message_start, then nothing until the client gives up", async () => {
    const run = mock.addRun({ turns: [{ fault: "stall" }] });
    const controller = new AbortController();
    const res = await fetch(`${mock.url}/v1/messages`, { method: "POST", headers: { "x-api-key": run.apiKey }, body: JSON.stringify({ messages: [user("go")], tools: TOOLS, stream: true }), signal: controller.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: message_start");
    const next = await Promise.race([reader.read().then(() => "data"), new Promise((r) => setTimeout(() => r("silence"), 300))]);
    expect(next).toBe("silence");
    controller.abort();
  });

  it("keeps concurrent runs apart by API key", async () => {
    const a = mock.addRun({ turns: [{ text: "A1" }, { text: "A2" }] });
    const b = mock.addRun({ turns: [{ text: "B1" }] });
    const answers = await Promise.all([a, b, a].map(async (run) => (await streamed(await post(run.apiKey, { messages: [user(run === a ? "alpha" : "beta")], tools: TOOLS, stream: true }))).blocks[0].text));
    expect(answers.sort()).toEqual(["A1", "A2", "B1"]);
    expect(a.requests.every((r) => r.messages.includes("alpha"))).toBe(true);
    expect(b.requests.map((r) => r.messages)).toEqual([expect.stringContaining("beta")]);
  });

  it("validates a script when a run is added, and stops serving a removed run", async () => {
    expect(() => mock.addRun({ turns: [{ tools: [{ name: "" }] }] } as never)).toThrow(/turns\[0\]\.tools\[0\]\.name/);
    const run = mock.addRun({ turns: [{ text: "x" }] });
    run.remove();
    expect((await post(run.apiKey, { messages: [user("go")], tools: TOOLS })).status).toBe(401);
    expect(raw.some((r) => r.method === "HEAD")).toBe(true);
    expect(answered.find((a) => a.status === 401)).toMatchObject({ method: "POST", url: "/v1/messages?beta=true" });
    expect(answered.every((a) => a.ms >= 0)).toBe(true);
  });
});
