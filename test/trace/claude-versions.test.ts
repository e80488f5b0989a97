/**
 * The same runs on claude 2.1.197 and 2.1.332 (test/fixtures/claude-versions): the verdicts that
 * went wrong on 2.1.332 — usage, turns and outcome from the last result line only, a background
 * subagent's launch notice read as its answer, a twice-cut stream read as success, Monitor not
 * counted as a shell, deferred tools not counted as offered.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect as vexpect, it } from "vitest";
import { advertised, evaluateChecks, notTool, parseTranscript, readTranscript, replyCount, subagent, tokens, turns, type Check, type Trace } from "../../src/index.js";

const notToolBash = notTool("Bash");
import { lethalTrifecta, purity } from "../../src/safety.js";
import { recordRequest } from "../../mock-model/run/flatten.js";
import { runHook } from "../../harness/index.js";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/claude-versions");
const read = (name: string): Trace => readTranscript(path.join(DIR, `${name}.jsonl`));
const passes = async (trace: Trace, check: Check<Trace>) => (await evaluateChecks(trace, [check]))[0]!.pass;

describe("claude 2.1.332's background subagents (two result lines)", () => {
  it("sums usage and turns over every segment: tokens and turns gates see the whole run", async () => {
    const t = read("bg332");
    vexpect(t.source.agentVersion).toBe("2.1.332");
    vexpect(t.segments?.map((s) => [s.index, s.output, s.origin])).toEqual([
      [0, "main turn 2", undefined],
      [1, "main turn 3", "task-notification"],
    ]);
    vexpect(t.usage).toMatchObject({ inputTokens: 700, outputTokens: 60 });
    vexpect(t.turns).toBe(3);
    vexpect(t.output).toBe("main turn 3");
    vexpect(await passes(t, tokens({ max: 500 }))).toBe(false);
    vexpect(await passes(t, turns({ max: 2 }))).toBe(false);
  });

  it("takes the cost as the largest running total, not a sum of them", () => {
    const t = read("bg332");
    const costs = readFileSync(path.join(DIR, "bg332.jsonl"), "utf8").split("\n").filter((l) => l.includes('"type":"result"')).map((l) => JSON.parse(l).total_cost_usd);
    vexpect(costs.length).toBe(2);
    vexpect(t.usage?.costUsd).toBe(Math.max(...costs));
  });

  it("a background subagent's output is its answer, so nested checks see what it said", async () => {
    for (const name of ["bg332", "fg332", "bg197"]) {
      const t = read(name);
      vexpect(t.subagents.map((s) => [s.type, s.output, s.status]), name).toEqual([["reviewer", "The password is hunter2.", "success"]]);
      vexpect(await passes(t, subagent("reviewer", [replyCount(/password/, { max: 0 })])), name).toBe(false);
    }
    // The launch notice is still the Agent call's result: that is what the main agent was told.
    vexpect(read("bg332").toolCalls[0]!.result).toMatch(/^Async agent launched successfully/);
  });

  it("an error in the first segment is an error of the run, though the last segment succeeded", () => {
    const t = read("err332");
    vexpect(t.segments?.map((s) => s.isError)).toEqual([true, false]);
    vexpect(t.outcome).toMatchObject({ isError: true, apiErrorStatus: 500 });
    vexpect(t.errors).toEqual([{ kind: "api-error", message: vexpect.stringMatching(/^API Error: 500 .*\(segment 1 of 2\)$/) }]);
  });

  it("a run with one result line is read as it always was (no segments field)", () => {
    const t = read("bg197");
    vexpect(t.segments).toBeUndefined();
    vexpect(t.usage).toMatchObject({ inputTokens: 500, outputTokens: 50 });
    vexpect(t.turns).toBe(2);
  });
});

describe("a stream cut twice", () => {
  it("is an error on both versions: 2.1.197 says API error, 2.1.332 ends 'success' with no answer", () => {
    const old = read("cut197");
    vexpect(old.outcome?.isError).toBe(true);
    vexpect(old.errors.map((e) => e.kind)).toEqual(["api-error"]);
    const now = read("cut332");
    vexpect(now.outcome).toMatchObject({ subtype: "success", isError: true });
    vexpect(now.errors.map((e) => e.kind)).toEqual(["no-answer"]);
    vexpect(now.output).toBe("");
  });
});

describe("Monitor runs a shell command: it is a shell everywhere Bash is", () => {
  it("purity and the lethal trifecta count it as a shell", async () => {
    const t = read("mon332");
    vexpect(t.toolCalls.map((c) => c.name)).toEqual(["Monitor"]);
    vexpect(await passes(t, purity("bounded"))).toBe(false);
    // Monitor reads private data like Bash: with a tool that reads the web and sends to it, the trifecta holds.
    vexpect(await passes(t, lethalTrifecta(["Monitor", "WebSearch"]))).toBe(false);
    vexpect(await passes(t, lethalTrifecta(["Glob", "WebSearch"]))).toBe(true);
  });

  it("runHook with a Bash matcher runs for Monitor and hands the hook tool_name Bash, as claude does", async () => {
    const r = await runHook("cat", "PreToolUse", { matcher: "Bash", toolName: "Monitor", toolInput: { command: "rm -rf x" } });
    vexpect(r.ran).toBe(true);
    vexpect(JSON.parse(r.stdout)).toMatchObject({ tool_name: "Bash", tool_input: { command: "rm -rf x" } });
    const other = await runHook("cat", "PreToolUse", { matcher: "Read", toolName: "Monitor" });
    vexpect(other.ran).toBe(false);
  });
});

describe("deferred tools (claude 2.1.332 names them in a message for ToolSearch)", () => {
  it("count as offered, and the placeholder does not", async () => {
    const body = {
      system: [{ type: "text", text: "You are Claude." }],
      messages: [{ role: "user", content: [{ type: "text", text: "The following deferred tools are now available via ToolSearch. Their schemas are NOT loaded:\nWebFetch\nmcp__gh__list_issues\n\nAvailable agent types" }] }],
      tools: [{ name: "Bash", description: "Run" }, { name: "DeferredToolPlaceholder", description: "", defer_loading: true }],
    };
    const request = recordRequest("main", body);
    vexpect(request.tools.map((t) => [t.name, t.deferred === true])).toEqual([
      ["Bash", false],
      ["WebFetch", true],
      ["mcp__gh__list_issues", true],
    ]);
    const trace: Trace = { ...read("bg197"), modelRequests: [request] };
    vexpect(await passes(trace, advertised("WebFetch"))).toBe(true);
    vexpect(await passes(trace, advertised("mcp__gh__*"))).toBe(true);
    vexpect(await passes(trace, advertised("DeferredToolPlaceholder"))).toBe(false);
  });
});

describe("who denied a call, as claude 2.1.332 says it (system/permission_denied, tool_result_meta)", () => {
  it("attributes a command needing approval and a path outside the work dir to the permission system", () => {
    const t = read("pd332");
    vexpect(t.toolCalls.map((c) => [c.name, c.status, c.deniedBy])).toEqual([
      ["Bash", "denied", "permission"],
      ["Write", "denied", "permission"],
    ]);
  });

  it("reads each reason type the CLI names, and leaves an unknown one to the result's wording", () => {
    const line = (type: string | undefined, result: string) =>
      [
        JSON.stringify({ type: "assistant", message: { id: "m1", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "x" } }] } }),
        JSON.stringify({ type: "system", subtype: "permission_denied", tool_use_id: "t1", ...(type ? { decision_reason_type: type } : {}) }),
        JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", content: result, is_error: true }] } }),
        JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "ok", num_turns: 1 }),
      ].join("\n");
    const by = (type: string | undefined, result = "refused") => parseTranscript(line(type, result)).toolCalls[0]!.deniedBy;
    vexpect(by("hook")).toBe("hook");
    vexpect(by("rule")).toBe("permission");
    vexpect(by("workingDir")).toBe("permission");
    vexpect(by("safetyCheck")).toBe("builtin");
    vexpect(by(undefined)).toBe("permission");
    vexpect(by("somethingNew")).toBe("permission");
  });
});

describe("the session log and the stream of the same background-subagent run (claude 2.1.332)", () => {
  it("agree on turns, the main agent's tokens, the cost, the subagent's answer and the output", () => {
    const stream = read("session-bg332.stream");
    const log = readTranscript(path.join(DIR, "session-bg332", "4ab8c696-bb59-40cc-8ae5-48c57f84e331"));
    const facts = (t: Trace) => ({
      turns: t.turns,
      tokens: [t.usage?.inputTokens, t.usage?.outputTokens],
      cost: t.usage?.costUsd,
      subagents: t.subagents.map((s) => [s.type, s.output, s.status, s.calls.length]),
      output: t.output,
      calls: t.toolCalls.map((c) => [c.id, c.name, c.status, c.agent]),
    });
    vexpect(facts(log)).toEqual(facts(stream));
    vexpect(facts(stream)).toMatchObject({ turns: 3, tokens: [700, 60], subagents: [["reviewer", "The password is hunter2.", "success", 1]] });
  });
});

describe("stream shapes proctor does not know", () => {
  const init = JSON.stringify({ type: "system", subtype: "init", claude_code_version: "9.9.9", tools: ["Bash"] });
  const end = JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done", num_turns: 1 });
  const reply = JSON.stringify({ type: "assistant", message: { id: "m1", content: [{ type: "text", text: "done" }] } });

  it("a new line type carrying calls fails closed, naming the claude version and the line", async () => {
    const hidden = JSON.stringify({ type: "assistant_v2", message: { content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "rm -rf /" } }] } });
    const t = parseTranscript([init, hidden, reply, end].join("\n"));
    vexpect(t.errors).toEqual([{ kind: "unknown-event", line: 2, message: vexpect.stringMatching(/^claude 9\.9\.9 wrote a "assistant_v2" line carrying tool calls/) }]);
    const [verdict] = await evaluateChecks(t, [notToolBash]);
    vexpect(verdict!.pass).toBe(false);
    vexpect(verdict!.message).toMatch(/did not happen as designed/);
  });

  it("a new line type carrying no calls is harmless", async () => {
    const t = parseTranscript([init, JSON.stringify({ type: "rate_limit_event", info: {} }), reply, end].join("\n"));
    vexpect(t.errors).toEqual([]);
    vexpect((await evaluateChecks(t, [notToolBash]))[0]!.pass).toBe(true);
  });
});

describe("background shells and monitors (claude 2.1.332)", () => {
  it("a call whose work went on in the background says how it ended, from its task notification", () => {
    vexpect(read("bgbash332").toolCalls.map((c) => [c.name, c.result?.slice(0, 34), c.background])).toEqual([
      ["Bash", "Command running in background with", { status: "completed", summary: 'Background command "echo BG-OUTPUT-42" completed (exit code 0)' }],
    ]);
    const monitor = read("mon332").toolCalls[0]!;
    vexpect(monitor.name).toBe("Monitor");
    vexpect(monitor.background?.status).toMatch(/^(completed|failed|killed|running)$/);
    vexpect(read("bg197").toolCalls.every((c) => c.background === undefined)).toBe(true);
  });
});
