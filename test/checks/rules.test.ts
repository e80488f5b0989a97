/** The documented rules each check must honour — fail-closed cases above all. */
import { describe, expect as vexpect, it } from "vitest";
import {
  cost, custom, denied, latency, tokens, deleted, didNotWrite, eachReply, judged, notTool, onlyTools, received, replyCount, skill, subagent,
  tool, toolCount, toolWith, trajectory, turns, wrote, wroteOnly, type Trace,
} from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const incomplete = (t: Trace): Trace => ({ ...t, complete: false, errors: [{ kind: "timeout", message: "the run timed out after 30 s" }] });

describe("onlyTools", () => {
  it("fails closed on an empty trace", () => {
    const r = onlyTools(["Read"]).eval(makeTrace());
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("fails closed");
  });
  it("matches a Bash(git:*) declaration by its base name", () => {
    vexpect(onlyTools(["Bash(git:*)", "Read"]).eval(makeTrace({ calls: [{ name: "Bash", input: { command: "git log" } }] })).pass).toBe(true);
  });
  it("accepts trailing-* globs for MCP servers", () => {
    const t = makeTrace({ calls: [{ name: "mcp__github__list" }, { name: "mcp__github__get" }] });
    vexpect(onlyTools(["mcp__github__*"]).eval(t).pass).toBe(true);
    vexpect(onlyTools(["mcp__gitlab__*"]).eval(t).pass).toBe(false);
  });
  it("spans subagent calls too", () => {
    const t = makeTrace({ calls: [{ name: "Read" }, { name: "Bash", agent: "toolu_x", agentType: "Explore" }] });
    const r = onlyTools(["Read"]).eval(t);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("Bash [Explore]");
  });
  it("cannot vouch for a run that ended without a result", () => {
    vexpect(onlyTools(["Read"]).eval(incomplete(makeTrace({ calls: [{ name: "Read" }] }))).pass).toBe(false);
  });
});

describe("notTool", () => {
  it("with args forbids only matching calls", () => {
    const t = makeTrace({ calls: [{ name: "Bash", input: { command: "git push origin feature" } }] });
    vexpect(notTool("Bash", { command: /push origin main/ }).eval(t).pass).toBe(true);
    vexpect(notTool("Bash").eval(t).pass).toBe(false);
  });
  it("counts a denied call as used, and says how to assert the denial instead", () => {
    const r = notTool("Write").eval(makeTrace({ calls: [{ name: "Write", status: "denied", deniedBy: "hook" }] }));
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("assert denied(...)");
  });
  it("fails closed on an incomplete trace with no offending call", () => {
    const r = notTool("Bash").eval(incomplete(makeTrace()));
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("timed out");
  });
  it("passes on a complete trace that never called it", () => {
    vexpect(notTool("Bash").eval(makeTrace({ calls: [{ name: "Read" }] })).pass).toBe(true);
  });
});

describe("positive checks accept evidence from an incomplete run", () => {
  it("tool", () => vexpect(tool("Read").eval(incomplete(makeTrace({ calls: [{ name: "Read" }] }))).pass).toBe(true));
});

describe("replies", () => {
  it("eachReply fails when no replies were recorded", () => {
    vexpect(eachReply("x").eval(makeTrace()).message).toContain("no replies were recorded");
  });
  it("replyCount fails when no replies were recorded, even with min 0", () => {
    vexpect(replyCount("x", { min: 0 }).eval(makeTrace()).pass).toBe(false);
  });
});

describe("received", () => {
  it("fails when the trace has no model requests", () => {
    const r = received("hello").eval(makeTrace());
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("runHarness");
  });
});

describe("resource checks fail closed without usage", () => {
  it.each([cost({ maxUsd: 1 }), turns({ max: 10 })])("$label", (check) => {
    vexpect(check.eval(makeTrace()).pass).toBe(false);
  });
});

describe("usage a source does not report", () => {
  it("cost and latency fail closed when the usage has tokens but no dollars or duration (Codex)", () => {
    const tokensOnly = makeTrace({ usage: { inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0 } });
    const r = cost({ maxUsd: 1 }).eval(tokensOnly);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("does not record cost");
    vexpect(latency({ maxMs: 1000 }).eval(tokensOnly).pass).toBe(false);
    vexpect(tokens({ max: 100 }).eval(tokensOnly).pass).toBe(true);
  });
});

describe("files", () => {
  const fromCalls = makeTrace({ files: { source: "tool-calls", changes: [{ path: "out.txt", change: "created" }] } });
  it("didNotWrite fails closed on a record built from tool calls (Bash could have written it)", () => {
    const r = didNotWrite("secrets.env").eval(fromCalls);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("snapshots the work dir");
  });
  it("didNotWrite fails closed without any file record", () => {
    vexpect(didNotWrite("x").eval(makeTrace()).pass).toBe(false);
  });
  it("wrote accepts positive evidence from tool calls", () => {
    vexpect(wrote("out.txt").eval(fromCalls).pass).toBe(true);
  });
  it("normalises ./x and absolute paths inside the work dir", () => {
    const t = makeTrace({ files: { source: "snapshot", changes: [{ path: "src/a.ts", change: "modified" }] } });
    vexpect(wrote("./src/a.ts").eval(t).pass).toBe(true);
    vexpect(wrote("/work/src/a.ts").eval(t).pass).toBe(true);
    vexpect(didNotWrite("/work/src/a.ts").eval(t).pass).toBe(false);
  });
  it("a deletion is a change: didNotWrite fails, wrote and deleted hold (one of the pair always holds)", () => {
    const t = makeTrace({ files: { source: "snapshot", changes: [{ path: "keep.txt", change: "deleted" }] } });
    vexpect(didNotWrite("keep.txt").eval(t).pass).toBe(false);
    vexpect(wrote("keep.txt").eval(t).pass).toBe(true);
    vexpect(deleted("keep.txt").eval(t).pass).toBe(true);
  });
  it("wroteOnly needs a snapshot even when every known change is inside", () => {
    vexpect(wroteOnly(["out.txt"]).eval(fromCalls).pass).toBe(false);
  });
});

describe("received: what reached the model from outside", () => {
  const request = {
    agent: "main",
    system: "sys",
    messages: '[user] clean up\n[assistant] [tool_use Bash t1] {"command":"echo SECRET-TOKEN"}\n[user] [tool_result t1] done',
    inbound: "sys\n[user] clean up\n[user] [tool_result t1] done",
    tools: [],
  };
  it("matches what reached the model from outside, not what the model itself wrote in an earlier call", () => {
    const t = makeTrace({ modelRequests: [request] });
    vexpect(received("[tool_result t1] done").eval(t).pass).toBe(true);
    vexpect(received("SECRET-TOKEN").eval(t).pass).toBe(false);
    vexpect(received("SECRET-TOKEN", { from: "anywhere" }).eval(t).pass).toBe(true);
  });
  it("fails closed on requests recorded without the outside text, and says how to search anywhere", () => {
    const { inbound: _, ...old } = request;
    const r = received("done").eval(makeTrace({ modelRequests: [old] }));
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toMatch(/from: "anywhere"/);
    vexpect(received("done", { from: "anywhere" }).eval(makeTrace({ modelRequests: [old] })).pass).toBe(true);
  });
});

describe("subagent", () => {
  const t = makeTrace({
    calls: [
      { id: "a1", name: "Agent", input: { subagent_type: "Explore", prompt: "one" } },
      { name: "Read", agent: "a1", agentType: "Explore" },
      { id: "a2", name: "Agent", input: { subagent_type: "Explore", prompt: "two" } },
      { name: "Bash", input: { command: "rm -rf x" }, agent: "a2", agentType: "Explore" },
    ],
    subagents: [
      { id: "a1", type: "Explore", prompt: "one", calls: [1], output: "ok", status: "success" },
      { id: "a2", type: "Explore", prompt: "two", calls: [3], output: "ok", status: "success" },
    ],
  });
  it("requires every run of the subagent to pass (a safety check must hold for each dispatch)", () => {
    const r = subagent("Explore", [notTool("Bash")]).eval(t);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("run 2 (two)");
    vexpect(r.score).toBe(0.5);
  });
  it("scopes nested checks to the subagent's own calls", () => {
    vexpect(subagent("Explore", [notTool("Agent")]).eval(t).pass).toBe(true);
    vexpect(subagent("Explore", [tool("Read")]).eval(t).pass).toBe(false); // run 2 never read
  });
  it("a bare name matches a plugin's subagent as skill() does; two plugins' same name are ambiguous, not guessed", () => {
    const one = (type: string, id: string) => ({ id, type, prompt: "p", calls: [], output: "ok", status: "success" as const });
    const qualified = makeTrace({ calls: [{ id: "q1", name: "Agent", input: { subagent_type: "feature-dev:code-explorer", prompt: "p" } }], subagents: [one("feature-dev:code-explorer", "q1")] });
    vexpect(subagent("code-explorer", [notTool("Bash")]).eval(qualified).pass).toBe(true);
    vexpect(subagent("feature-dev:code-explorer", [notTool("Bash")]).eval(qualified).pass).toBe(true);
    vexpect(subagent("other:code-explorer", [notTool("Bash")]).eval(qualified).pass).toBe(false);
    vexpect(subagent("explorer", [notTool("Bash")]).eval(qualified).pass).toBe(false);
    const two = makeTrace({
      calls: [
        { id: "q1", name: "Agent", input: { subagent_type: "a:rev", prompt: "p" } },
        { id: "q2", name: "Agent", input: { subagent_type: "b:rev", prompt: "p" } },
      ],
      subagents: [one("a:rev", "q1"), one("b:rev", "q2")],
    });
    const r = subagent("rev", [notTool("Bash")]).eval(two);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toBe("subagent rev is ambiguous: the run had a:rev and b:rev; name the one you mean");
    vexpect(subagent("a:rev", [notTool("Bash")]).eval(two).pass).toBe(true);
  });
});

describe("skill", () => {
  it("a bare name matches a plugin-qualified skill; a failed activation does not count", () => {
    const t = makeTrace({
      calls: [{ name: "Skill", input: { skill: "docs:notes" }, status: "failure", result: "Unknown skill" }],
      skills: [{ name: "docs:notes", callIndex: 0, agent: "main", status: "failure" }],
    });
    const r = skill("notes").eval(t);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toContain("did not resolve");
  });
});

describe("toolCount and denied", () => {
  it("toolCount('*', { max: 0 }) asserts a tool-free run", () => {
    vexpect(toolCount("*", { max: 0 }).eval(makeTrace()).pass).toBe(true);
    vexpect(toolCount("*", { max: 0 }).eval(makeTrace({ calls: [{ name: "Read" }] })).pass).toBe(false);
  });
  it("denied fails when the tool was never attempted", () => {
    vexpect(denied("Bash").eval(makeTrace()).message).toContain("never attempted");
  });
});

describe("trajectory modes", () => {
  const t = makeTrace({ calls: [{ name: "Read", input: { file_path: "a" } }, { name: "Grep", input: { pattern: "x" } }, { name: "Edit", input: { file_path: "a" } }] });
  it.each([
    ["strict", ["Read", "Grep", "Edit"], true],
    ["strict", ["Grep", "Read", "Edit"], false],
    ["unordered", ["Edit", "Read", "Grep"], true],
    ["unordered", ["Edit", "Read"], false],
    ["superset", ["Edit", "Read"], true],
    ["superset", ["Edit", "Write"], false],
    ["subset", ["Read", "Grep", "Edit", "Write"], true],
    ["subset", ["Read", "Edit"], false],
  ] as const)("%s %j → %s", (mode, expected, pass) => {
    vexpect(trajectory(expected, { mode }).eval(t).pass).toBe(pass);
  });
  it.each([
    ["exact", { file_path: "a" }, true],
    ["exact", { file_path: "a", limit: 1 }, false],
    ["superset", {}, true],
    ["subset", { file_path: "a", offset: 3 }, true],
    ["subset", { offset: 3 }, false],
    ["ignore", { file_path: "zzz" }, true],
  ] as const)("args %s %j → %s", (args, expectedArgs, pass) => {
    vexpect(trajectory([{ name: "Read", args: expectedArgs }, "Grep", "Edit"], { mode: "strict", args }).eval(t).pass).toBe(pass);
  });
  it("a per-tool argument mode overrides the default", () => {
    const check = trajectory([{ name: "Read", args: { file_path: "b" } }, "Grep", { name: "Edit", args: { file_path: "a" } }], { args: "exact", toolArgs: { Read: "ignore" } });
    vexpect(check.eval(t).pass).toBe(true);
  });
  it("subset fails closed on an empty trace", () => {
    vexpect(trajectory(["Read"], { mode: "subset" }).eval(makeTrace()).pass).toBe(false);
  });
});

describe("judged and custom", () => {
  it("judged without a judge fails, saying how to configure one", () => {
    vexpect(judged("is polite").eval(makeTrace({ output: "hi" })).message).toContain("no judge configured");
  });
  it("a custom check that throws fails with the exception, never passes", () => {
    const r = custom("boom", () => {
      throw new Error("kaput");
    }).eval(makeTrace());
    vexpect(r).toMatchObject({ pass: false, score: 0 });
    vexpect(r.message).toContain("kaput");
  });
  it("a custom check returning a bad shape fails", () => {
    vexpect(custom("odd", () => "yes" as never).eval(makeTrace()).pass).toBe(false);
  });
});

describe("build-time validation quotes the bad value", () => {
  it.each([
    [() => tool(""), 'tool: name must be a non-empty string; got "" (string)'],
    [() => toolWith("Bash", "rm" as never), 'toolWith: args must be an object of key → expected value; got "rm" (string)'],
    [() => toolWith("Bash", { command: (() => 1) as never }), "toolWith: args.command must be a string, number, boolean, null, RegExp, array or object"],
    [() => turns({}), "turns: min/max needs at least one of min or max"],
    [() => turns({ min: 3, max: 1 }), "turns: min must not exceed max (1)"],
    [() => toolCount("Read", { max: -1 }), "toolCount: max must be a non-negative integer; got -1 (number)"],
    [() => cost({ maxUsd: "1" as never }), 'cost: maxUsd must be a non-negative number; got "1" (string)'],
    [() => trajectory(["Read"], { mode: "fuzzy" as never }), "trajectory: mode must be one of strict, ordered, unordered, subset, superset"],
  ])("%#", (build, message) => {
    vexpect(build).toThrow(message);
  });
});
