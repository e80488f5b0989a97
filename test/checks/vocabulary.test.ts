/**
 * Every check, table-driven on hand-built traces: one passing trace and one failing trace each,
 * with the failure message snapshot-tested (messages are part of the product).
 */
import { describe, expect as vexpect, it } from "vitest";
import {
  allowed, blocked, cacheTokens, cost, custom, denied, deleted, didNotWrite, eachReply, hookFired, inputTokens, judged,
  latency, mcp, notTool, onlyTools, output, outputTokens, received, replyCount, skill, subagent, tokens, tool,
  toolCount, toolWith, trajectory, turns, wrote, wroteOnly, type Check, type HookRunResult, type Trace,
  toolResult, toolStatuses, hookSaid, fileContains, notOffered, withinAllowedTools, effects,
} from "../../src/index.js";
import { makeTrace, usage } from "../helpers/trace.js";

const bashRm = { name: "Bash", input: { command: "rm -rf build" } };
const read = { name: "Read", input: { file_path: "/work/src/a.ts" } };
const writeOut = { name: "Write", input: { file_path: "/work/out.txt", content: "x" } };

const withSub = makeTrace({
  calls: [
    { id: "toolu_A", name: "Agent", input: { subagent_type: "Explore", prompt: "find configs", description: "find" }, result: "found tsconfig.json" },
    { name: "Glob", input: { pattern: "**/*.json" }, agent: "toolu_A", agentType: "Explore" },
    { name: "Bash", input: { command: "ls" }, agent: "toolu_A", agentType: "Explore" },
  ],
  subagents: [{ id: "toolu_A", type: "Explore", description: "find", prompt: "find configs", calls: [1, 2], output: "found tsconfig.json", status: "success" }],
});

const hook = (over: Partial<HookRunResult>): HookRunResult => ({
  ran: true, event: "PreToolUse", command: "guard", exitCode: 0, stdout: "", stderr: "", timedOut: false, durationMs: 12,
  blocked: false, blockedBy: [], ...over,
});

interface Case {
  name: string;
  check: Check<any>;
  pass: unknown;
  fail: unknown;
}

const cases: Case[] = [
  { name: "tool", check: tool("Bash"), pass: makeTrace({ calls: [read, bashRm] }), fail: makeTrace({ calls: [read, read, writeOut] }) },
  {
    name: "toolWith",
    check: toolWith("Bash", { command: /^git (status|log)/ }),
    pass: makeTrace({ calls: [{ name: "Bash", input: { command: "git status" } }] }),
    fail: makeTrace({ calls: [bashRm, { name: "Bash", input: { command: "git push" } }] }),
  },
  { name: "notTool", check: notTool("Bash", { command: /rm -rf/ }), pass: makeTrace({ calls: [{ name: "Bash", input: { command: "ls" } }] }), fail: makeTrace({ calls: [read, bashRm] }) },
  { name: "onlyTools", check: onlyTools(["Read", "Bash(git:*)"]), pass: makeTrace({ calls: [read, { name: "Bash", input: { command: "git log" } }] }), fail: makeTrace({ calls: [read, writeOut] }) },
  { name: "toolCount", check: toolCount("Read", { min: 1, max: 2 }), pass: makeTrace({ calls: [read, read] }), fail: makeTrace({ calls: [read, read, read] }) },
  {
    name: "denied",
    check: denied("Bash", { command: /rm/ }),
    pass: makeTrace({ calls: [{ ...bashRm, status: "denied", deniedBy: "hook" }] }),
    fail: makeTrace({ calls: [bashRm] }),
  },
  {
    name: "mcp",
    check: mcp("github", "create_issue"),
    pass: makeTrace({ calls: [{ name: "mcp__github__create_issue", input: { title: "x" } }] }),
    fail: makeTrace({ calls: [{ name: "mcp__github__list_issues" }], source: { kind: "synthetic", mcpServers: [{ name: "github", status: "connected" }] } }),
  },
  {
    name: "skill",
    check: skill("docs:release-notes"),
    pass: makeTrace({ calls: [{ name: "Skill", input: { skill: "docs:release-notes" } }], skills: [{ name: "docs:release-notes", callIndex: 0, agent: "main", status: "success" }] }),
    fail: makeTrace({ calls: [{ name: "Skill", input: { skill: "docs:changelog" } }], skills: [{ name: "docs:changelog", callIndex: 0, agent: "main", status: "success" }] }),
  },
  { name: "output", check: output(/all tests pass/i), pass: makeTrace({ output: "Done. All tests pass." }), fail: makeTrace({ output: "I could not run the tests." }) },
  {
    name: "eachReply",
    check: eachReply(/^Status: /m),
    pass: makeTrace({ replies: [{ text: "Status: done", at: 0 }] }),
    fail: makeTrace({ replies: [{ text: "Status: done", at: 0 }, { text: "One more thing…", at: 0 }] }),
  },
  {
    name: "replyCount",
    check: replyCount("Status:", { max: 1 }),
    pass: makeTrace({ replies: [{ text: "Status: done", at: 0 }] }),
    fail: makeTrace({ replies: [{ text: "Status: done", at: 0 }, { text: "Status: done (again)", at: 0 }] }),
  },
  {
    name: "received",
    check: received("Base directory for this skill"),
    pass: makeTrace({ modelRequests: [{ agent: "main", system: "sys", messages: "user: Base directory for this skill: /x", inbound: "sys\nuser: Base directory for this skill: /x", tools: [] }] }),
    fail: makeTrace({ modelRequests: [{ agent: "main", system: "sys", messages: "user: hello", inbound: "sys\nuser: hello", tools: [] }] }),
  },
  { name: "hookFired", check: hookFired("Stop"), pass: makeTrace({ hooks: [{ name: "Stop", event: "Stop", exitCode: 0, outcome: "success", blocked: false, output: "", at: 0 }] }), fail: makeTrace({ hooks: [{ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: false, output: "", at: 0 }] }) },
  { name: "turns", check: turns({ min: 2 }), pass: makeTrace({ turns: 3 }), fail: makeTrace({ turns: 1 }) },
  {
    name: "wrote",
    check: wrote("out.txt"),
    pass: makeTrace({ files: { source: "snapshot", changes: [{ path: "out.txt", change: "created" }] } }),
    fail: makeTrace({ files: { source: "snapshot", changes: [{ path: "notes.md", change: "modified" }] } }),
  },
  {
    name: "deleted",
    check: deleted("old.txt"),
    pass: makeTrace({ files: { source: "snapshot", changes: [{ path: "old.txt", change: "deleted" }] } }),
    fail: makeTrace({ files: { source: "snapshot", changes: [{ path: "old.txt", change: "modified" }] } }),
  },
  {
    name: "didNotWrite",
    check: didNotWrite("secrets.env"),
    pass: makeTrace({ files: { source: "snapshot", changes: [{ path: "out.txt", change: "created" }] } }),
    fail: makeTrace({ files: { source: "snapshot", changes: [{ path: "secrets.env", change: "modified" }] } }),
  },
  {
    name: "wroteOnly",
    check: wroteOnly(["out.txt", "logs/**"]),
    pass: makeTrace({ files: { source: "snapshot", changes: [{ path: "out.txt", change: "created" }, { path: "logs/a/b.log", change: "created" }] } }),
    fail: makeTrace({ files: { source: "snapshot", changes: [{ path: "out.txt", change: "created" }, { path: "package.json", change: "modified" }] } }),
  },
  { name: "subagent", check: subagent("Explore", [onlyTools(["Glob", "Grep", "Read", "Bash"])]), pass: withSub, fail: makeTrace({ calls: [read] }) },
  { name: "cost", check: cost({ maxUsd: 0.05 }), pass: makeTrace({ usage }), fail: makeTrace({ usage: { ...usage, costUsd: 0.08 } }) },
  { name: "latency", check: latency({ maxMs: 2000 }), pass: makeTrace({ usage }), fail: makeTrace({ usage: { ...usage, durationMs: 3000 } }) },
  { name: "tokens", check: tokens({ max: 1500 }), pass: makeTrace({ usage }), fail: makeTrace({ usage: { ...usage, outputTokens: 900 } }) },
  { name: "inputTokens", check: inputTokens({ max: 1000 }), pass: makeTrace({ usage }), fail: makeTrace({ usage: { ...usage, inputTokens: 1001 } }) },
  { name: "outputTokens", check: outputTokens({ max: 500 }), pass: makeTrace({ usage }), fail: makeTrace({ usage: { ...usage, outputTokens: 501 } }) },
  { name: "cacheTokens", check: cacheTokens({ maxCreation: 500, maxRead: 5000 }), pass: makeTrace({ usage }), fail: makeTrace({ usage: { ...usage, cacheReadTokens: 9000 } }) },
  {
    name: "judged",
    check: judged("mentions the failing test", { min: 0.7, judge: ({ output }) => ({ score: output.includes("failing") ? 0.9 : 0.2, pass: true, reason: "checked for the word" }) }),
    pass: makeTrace({ output: "the failing test is foo" }),
    fail: makeTrace({ output: "all good" }),
  },
  {
    name: "trajectory",
    check: trajectory(["Read", { name: "Bash", args: { command: /^npm test/ } }], { mode: "strict", args: "superset" }),
    pass: makeTrace({ calls: [read, { name: "Bash", input: { command: "npm test -- --run" } }] }),
    fail: makeTrace({ calls: [read, { name: "Bash", input: { command: "npm run lint" } }] }),
  },
  { name: "custom", check: custom<Trace>("no-sudo", (t) => ({ pass: !t.toolCalls.some((c) => String(c.input.command).includes("sudo")), message: "sudo was used" })), pass: makeTrace({ calls: [read] }), fail: makeTrace({ calls: [{ name: "Bash", input: { command: "sudo rm x" } }] }) },
  { name: "blocked", check: blocked(), pass: hook({ exitCode: 2, stderr: "no rm -rf", blocked: true, blockedBy: ["exit-2"], reason: "no rm -rf" }), fail: hook({}) },
  { name: "allowed", check: allowed(), pass: hook({}), fail: hook({ exitCode: 0, blocked: true, blockedBy: ["permission-deny"], decision: "deny", reason: "nope" }) },
  { name: "toolResult", check: toolResult("Bash", /\d+ passed/), pass: makeTrace({ calls: [{ ...bashRm, result: "12 passed" }] }), fail: makeTrace({ calls: [{ ...bashRm, result: "3 failed" }] }) },
  { name: "toolStatuses", check: toolStatuses("Bash", ["denied", "success"]), pass: makeTrace({ calls: [{ ...bashRm, status: "denied" }, bashRm] }), fail: makeTrace({ calls: [bashRm, bashRm] }) },
  {
    name: "hookSaid",
    check: hookSaid("PreToolUse:Bash", /force-push/, { in: "reason" }),
    pass: makeTrace({ hooks: [{ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 2, outcome: "error", blocked: true, output: "no force-push\n", stderr: "no force-push\n", at: 0 }] }),
    fail: makeTrace({ hooks: [{ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: false, output: "", at: 0 }] }),
  },
  {
    name: "fileContains",
    check: fileContains("out.txt", /^version: 2$/m),
    pass: makeTrace({ files: { source: "snapshot", changes: [{ path: "out.txt", change: "created", content: "name: x\nversion: 2\n" }] } }),
    fail: makeTrace({ files: { source: "snapshot", changes: [{ path: "out.txt", change: "modified", content: "name: x\nversion: 1\n" }] } }),
  },
  {
    name: "notOffered",
    check: notOffered("WebFetch"),
    pass: makeTrace({ modelRequests: [{ agent: "main", system: "", messages: "", tools: [{ name: "Read", description: "" }] }] }),
    fail: makeTrace({ modelRequests: [{ agent: "main", system: "", messages: "", tools: [{ name: "Read", description: "" }, { name: "WebFetch", description: "" }] }] }),
  },
  {
    name: "effects",
    check: effects("Bash", { writes: [], exec: ["git"] }),
    pass: makeTrace({
      calls: [{ name: "Bash", input: { command: "git status" }, observed: [{ kind: "exec", syscall: "execve", path: "/usr/bin/git", argv: ["git", "status"], pid: 7 }] }],
      observation: { mechanism: "strace", others: [], unattributed: [], gaps: [] },
    }),
    fail: makeTrace({
      calls: [{ name: "Bash", input: { command: "git status" }, observed: [{ kind: "exec", syscall: "execve", path: "/usr/bin/less", argv: ["less"], pid: 8 }] }],
      observation: { mechanism: "strace", others: [], unattributed: [], gaps: [] },
    }),
  },
  {
    name: "withinAllowedTools",
    check: withinAllowedTools("test/fixtures/allowed-tools/commands/commit.md"),
    pass: makeTrace({
      calls: [{ name: "Skill", input: { skill: "commit" } }, { name: "Bash", input: { command: "git add a.txt && git commit -m x" } }],
      skills: [{ name: "commit", callIndex: 0, agent: "main", status: "success" }],
    }),
    fail: makeTrace({
      calls: [{ name: "Skill", input: { skill: "commit" } }, { name: "Bash", input: { command: "git add a.txt" } }, { name: "Bash", input: { command: "git push --force origin main" } }],
      skills: [{ name: "commit", callIndex: 0, agent: "main", status: "success" }],
    }),
  },
];

describe("every check: one passing and one failing trace", () => {
  it.each(cases)("$name passes on its passing trace", ({ check, pass }) => {
    const r = check.eval(pass);
    vexpect(r.message).toBeTypeOf("string");
    vexpect(r, r.message).toMatchObject({ pass: true, kind: check.kind });
    vexpect(r.score).toBeGreaterThan(0);
  });

  it.each(cases)("$name fails on its failing trace, with an actionable message", ({ check, fail }) => {
    const r = check.eval(fail);
    vexpect(r.pass, r.message).toBe(false);
    vexpect(r.score).toBeLessThan(1);
    vexpect(`${r.label}\n${r.message}`).toMatchSnapshot();
  });

  it("covers every serialisable kind the vocabulary has", async () => {
    const { knownCheckKinds } = await import("../../src/index.js");
    const covered = new Set(cases.map((c) => c.check.kind));
    const missing = knownCheckKinds().filter((k) => !covered.has(k) && !["advertised", "toolStatus", "purity", "lethalTrifecta", "skillTools", "skillPurity", "skillContract", "replayMatches"].includes(k));
    vexpect(missing).toEqual([]);
  });
});
