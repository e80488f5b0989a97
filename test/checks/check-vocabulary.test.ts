/**
 * The checks people used to write by hand: what a tool answered (toolResult), the statuses of one
 * tool in order (toolStatuses), what a hook said (hookSaid), what a file holds (fileContains), a
 * tool kept from the model (notOffered). Each on hand-built traces, each failing closed.
 */
import { describe, expect as vexpect, it } from "vitest";
import { checkFromJSON, fileContains, hookFired, hookSaid, notOffered, notTool, readTranscript, subagent, tool, toolResult, toolStatuses, type HookEvent, type Trace } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const incomplete = { complete: false, errors: [{ kind: "killed", message: "the run was killed" }] } as const;

describe("toolResult", () => {
  const trace = makeTrace({
    calls: [
      { name: "mcp__db__query", result: "3 rows" },
      { name: "Bash", input: { command: "ls" }, result: "a.txt\nb.txt" },
      { name: "mcp__db__query", result: "0 rows" },
      { name: "mcp__db__query", status: "pending" },
    ],
  });

  it("passes when some call to the tool returned matching text, naming it", () => {
    vexpect(toolResult("mcp__db__query", /\b0 rows/).eval(trace)).toMatchObject({ pass: true, callIndex: 2, message: "#2 mcp__db__query returned text matching /\\b0 rows/" });
    vexpect(toolResult("*", "b.txt").eval(trace)).toMatchObject({ pass: true, callIndex: 1 });
  });

  it("fails listing what each call returned; a call without a result never matches", () => {
    const r = toolResult("mcp__db__query", "5 rows").eval(trace);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toBe(
      'expected a call to mcp__db__query to return text matching "5 rows"; none of its 3 call(s) did:\n' +
        '    #0 mcp__db__query → success: "3 rows"\n    #2 mcp__db__query → success: "0 rows"\n    #3 mcp__db__query → pending: no result came back',
    );
  });

  it("{ all: true } needs every call, names the ones that did not, and refuses a run that may have gone on", () => {
    const r = toolResult("mcp__db__query", /rows/, { all: true }).eval(trace);
    vexpect(r).toMatchObject({ pass: false, callIndex: 3 });
    vexpect(r.message).toMatch(/1 of 3 did not:\n {4}#3 mcp__db__query → pending: no result came back/);
    const done = makeTrace({ calls: [{ name: "Read", result: "ok 1" }, { name: "Read", result: "ok 2" }] });
    vexpect(toolResult("Read", "ok", { all: true }).eval(done).pass).toBe(true);
    vexpect(toolResult("Read", "ok", { all: true }).eval({ ...done, ...incomplete }).message).toMatch(/cannot confirm every call to Read .* the trace is incomplete/);
  });

  it("fails when the tool was never called, and on a misspelt name says so", () => {
    vexpect(toolResult("Write", "x").eval(trace).message).toMatch(/Write was never called \(the agent made mcp__db__query ×3, Bash/);
    const offered = makeTrace({ source: { kind: "synthetic", cwd: "/work", tools: ["Bash", "Read"] } });
    vexpect(toolResult("Bsh", "x").eval(offered).message).toMatch(/did you mean Bash\?/);
  });

  it("rejects bad parameters when built and round-trips through JSON", () => {
    vexpect(() => toolResult("Bash", "")).toThrow(/toolResult: matcher must be a non-empty string or a RegExp/);
    vexpect(() => toolResult("Bash", "x", { all: "yes" as never })).toThrow(/toolResult: options.all must be true or false/);
    vexpect(checkFromJSON(toolResult("Bash", /a+/i, { all: true }).toJSON()).toJSON()).toEqual({ kind: "toolResult", name: "Bash", matcher: { $regex: "a+", $flags: "i" }, all: true });
  });
});

describe("toolStatuses", () => {
  const trace = makeTrace({ calls: [{ name: "Bash", status: "denied" }, { name: "Read" }, { name: "Bash", status: "success" }] });

  it("passes when the statuses of the tool's calls are exactly the sequence", () => {
    vexpect(toolStatuses("Bash", ["denied", "success"]).eval(trace)).toMatchObject({ pass: true, message: "the 2 call(s) to Bash ended [denied, success]" });
    vexpect(toolStatuses("Write", []).eval(trace).pass).toBe(true);
  });

  it("says exactly which position differed", () => {
    vexpect(toolStatuses("Bash", ["success", "success"]).eval(trace)).toMatchObject({ pass: false, callIndex: 0 });
    vexpect(toolStatuses("Bash", ["success", "success"]).eval(trace).message).toMatch(/they ended \[denied, success\]: call 1 \(#0\) ended denied, expected success\n {4}#0 Bash/);
    vexpect(toolStatuses("Bash", ["denied"]).eval(trace).message).toMatch(/call 2 \(#2\) ended success after the 1 expected/);
    vexpect(toolStatuses("Bash", ["denied", "success", "success"]).eval(trace).message).toMatch(/there were only 2 call\(s\), so position 3 \(expected success\) never happened/);
  });

  it("refuses a run that may have gone on, and bad statuses when built", () => {
    vexpect(toolStatuses("Bash", ["denied", "success"]).eval({ ...trace, ...incomplete }).message).toMatch(/cannot confirm the calls to Bash ended \[denied, success\] and no more: the trace is incomplete/);
    vexpect(() => toolStatuses("Bash", ["denied", "ok" as never])).toThrow(/toolStatuses: statuses\[1\] must be one of success/);
    vexpect(checkFromJSON({ kind: "toolStatuses", name: "Bash", statuses: ["denied"] }).label).toBe('toolStatuses(Bash, ["denied"])');
  });
});

const hookEvent = (over: Partial<HookEvent>): HookEvent => ({ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: false, output: "", stdout: "", stderr: "", at: 0, ...over });
const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "force-push to main is blocked" }, systemMessage: "guard ran" });
const context = JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint: 2 warnings" } });

describe("hookSaid", () => {
  const trace = makeTrace({
    hooks: [
      hookEvent({ stdout: deny, output: deny, blocked: true, decision: "deny" }),
      hookEvent({ name: "PostToolUse:Edit", event: "PostToolUse", stdout: context, output: context }),
      hookEvent({ name: "PreToolUse:Write", exitCode: 2, outcome: "error", stderr: "lockfiles are generated\n", output: "lockfiles are generated\n", blocked: true }),
      hookEvent({ name: "UserPromptSubmit", event: "UserPromptSubmit", stdout: "today is Friday\n", output: "today is Friday\n" }),
    ],
  });

  it("finds the decision reason, the added context, the system message and plain output", () => {
    vexpect(hookSaid("PreToolUse:Bash", /force-push/, { in: "reason" }).eval(trace)).toMatchObject({ pass: true, message: 'hook 1 (PreToolUse:Bash) said /force-push/ in its reason: "force-push to main is blocked"' });
    vexpect(hookSaid("PostToolUse", "2 warnings", { in: "context" }).eval(trace).pass).toBe(true);
    vexpect(hookSaid("PreToolUse", "guard ran", { in: "message" }).eval(trace).pass).toBe(true);
    vexpect(hookSaid("PreToolUse", "lockfiles", { in: "reason" }).eval(trace).pass).toBe(true);
    vexpect(hookSaid("UserPromptSubmit", "Friday").eval(trace).pass).toBe(true);
  });

  it("a part it was not in does not count", () => {
    const r = hookSaid("PostToolUse", "2 warnings", { in: "reason" }).eval(trace);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toBe('expected a PostToolUse hook to say "2 warnings" in its reason; none of its 1 run(s) did:\n    hook 2 (PostToolUse:Edit, exit 0): said nothing in its reason');
  });

  it("fails listing what each hook said, and when no such hook fired", () => {
    vexpect(hookSaid("PreToolUse", /rm -rf/).eval(trace).message).toMatch(/none of its 2 run\(s\) did:\n {4}hook 1 \(PreToolUse:Bash, exit 0\): reason "force-push to main is blocked"; message "guard ran"; output/);
    vexpect(hookSaid("Stop", "x").eval(trace).message).toMatch(/no Stop hook fired \(hooks that fired: PreToolUse:Bash, PostToolUse:Edit, PreToolUse:Write, UserPromptSubmit;/);
    const pending = makeTrace({ hooks: [hookEvent({ exitCode: null, outcome: "pending" })] });
    vexpect(hookSaid("PreToolUse", "x").eval(pending).message).toMatch(/never answered \(the run ended under it\)/);
  });

  it("rejects bad parameters when built and round-trips through JSON", () => {
    vexpect(() => hookSaid("Stop", "x", { in: "stdout" as never })).toThrow(/hookSaid: options.in must be "any" or one of reason, context, message, output/);
    vexpect(checkFromJSON(hookSaid("Stop", "x", { in: "context" }).toJSON()).toJSON()).toEqual({ kind: "hookSaid", event: "Stop", matcher: "x", in: "context" });
  });
});

describe("fileContains", () => {
  const files = (changes: NonNullable<Trace["files"]>["changes"], source: "snapshot" | "tool-calls" = "snapshot") => makeTrace({ files: { source, changes } });

  it("matches the content the snapshot kept of a file the run changed (path, ./path, absolute, glob)", () => {
    const t = files([{ path: "src/a.ts", change: "modified", content: "export const a = 1;\n" }]);
    for (const p of ["src/a.ts", "./src/a.ts", "/work/src/a.ts", "src/*.ts"]) vexpect(fileContains(p, /const a = \d/).eval(t).pass, p).toBe(true);
    const r = fileContains("src/a.ts", "const b").eval(t);
    vexpect(r).toMatchObject({ pass: false, actual: "export const a = 1;\n" });
    vexpect(r.inconclusive).toBeUndefined();
  });

  it("fails closed, inconclusive, when the trace cannot know the content", () => {
    const cases: [Trace, RegExp][] = [
      [makeTrace(), /the trace has no file record/],
      [files([{ path: "a.txt", change: "modified" }], "tool-calls"), /the trace keeps no file contents: only Write\/Edit calls are known/],
      [files([{ path: "b.txt", change: "created", content: "x" }]), /the run did not change it, and the snapshot keeps the content of changed files only .*changed: created b.txt/],
      [files([{ path: "a.txt", change: "modified" }]), /a.txt was modified, but its content was not kept \(larger than 64 KiB, not UTF-8 text, or a link\)/],
    ];
    for (const [trace, why] of cases) {
      const r = fileContains("a.txt", "hello").eval(trace);
      vexpect(r, r.message).toMatchObject({ pass: false, inconclusive: true });
      vexpect(r.message).toMatch(why);
    }
  });

  it("a deleted file holds nothing: a plain failure", () => {
    const r = fileContains("a.txt", "hello").eval(files([{ path: "a.txt", change: "deleted" }]));
    vexpect(r).toMatchObject({ pass: false, message: 'expected a.txt to contain "hello"; a.txt was deleted by the run, so no file is there' });
    vexpect(r.inconclusive).toBeUndefined();
  });

  it("round-trips through JSON", () => {
    vexpect(checkFromJSON({ kind: "fileContains", path: "a.txt", matcher: { $regex: "^x" } }).toJSON()).toEqual({ kind: "fileContains", path: "a.txt", matcher: { $regex: "^x" } });
  });
});

describe("notOffered", () => {
  const requests = [
    { agent: "main", system: "", messages: "", tools: [{ name: "Bash", description: "" }, { name: "mcp__github__search", description: "" }] },
    { agent: "Explore", system: "", messages: "", tools: [{ name: "Read", description: "" }] },
  ];

  it("passes when no request offered the tool; fails naming the request that did", () => {
    vexpect(notOffered("WebFetch").eval(makeTrace({ modelRequests: requests }))).toMatchObject({ pass: true, message: "none of 2 request(s) offered WebFetch" });
    const r = notOffered("mcp__github__*").eval(makeTrace({ modelRequests: requests }));
    vexpect(r).toMatchObject({ pass: false, actual: ["mcp__github__search"] });
    vexpect(r.message).toMatch(/1 of 2 request\(s\) offered it, first request 1 \(main\): mcp__github__search/);
  });

  it("fails closed without model requests, on a run that may have gone on, and on a misspelt name", () => {
    vexpect(notOffered("Bash").eval(makeTrace())).toMatchObject({ pass: false, inconclusive: true, message: vexpect.stringMatching(/this trace has no recorded model requests/) });
    vexpect(notOffered("WebFetch").eval(makeTrace({ modelRequests: requests, ...incomplete })).message).toMatch(/cannot confirm WebFetch was never offered: the trace is incomplete/);
    const offered = makeTrace({ modelRequests: requests, source: { kind: "synthetic", cwd: "/work", tools: ["Bash", "Read"] } });
    vexpect(notOffered("WebFetc").eval(offered).message).toMatch(/did you mean WebFetch\?/);
  });
});

describe("subagent: a failing nested check says which check failed on which call", () => {
  const t = makeTrace({
    calls: [
      { id: "a1", name: "Agent", input: { subagent_type: "Explore", prompt: "one" } },
      { id: "r1", name: "Read", agent: "a1", agentType: "Explore" },
      { id: "a2", name: "Agent", input: { subagent_type: "Explore", prompt: "two" } },
      { id: "g2", name: "Grep", agent: "a2", agentType: "Explore" },
      { id: "b2", name: "Bash", input: { command: "rm -rf x" }, agent: "a2", agentType: "Explore" },
    ],
    subagents: [
      { id: "a1", type: "Explore", prompt: "one", calls: [1], output: "ok", status: "success" },
      { id: "a2", type: "Explore", prompt: "two", calls: [3, 4], output: "ok", status: "success" },
    ],
  });

  it("names the run, its dispatching call, the nested check and the call in the run's own numbering", () => {
    const r = subagent("Explore", [notTool("Bash"), tool("Read")]).eval(t);
    vexpect(r).toMatchObject({ pass: false, callIndex: 4, score: 0.5 });
    vexpect(r.actual).toEqual([
      { run: 2, subagentId: "a2", check: "notTool(Bash)", callIndex: 4, callId: "b2" },
      { run: 2, subagentId: "a2", check: "tool(Read)" },
    ]);
    vexpect(r.message).toMatchInlineSnapshot(`
      "subagent Explore ran 2 time(s); 2 nested check result(s) failed (#N inside a nested message counts the subagent's own calls):
          run 2 (two), dispatched by #2 Agent (id a2), at its call #1 (the run's #4, id b2): ✗ notTool(Bash) — expected no call to Bash; found 1:
                #1 Bash [Explore] {"command":"rm -rf x"} → success
          run 2 (two), dispatched by #2 Agent (id a2): ✗ tool(Read) — expected a call to Read; the agent made Grep, Bash (2 calls)"
    `);
  });
});

describe("hookSaid on recorded claude streams", () => {
  it("reads an exit-2 guard's reason from a 2.1.197 recording, and a silent hook of a 2.1.332 one as saying nothing", () => {
    const old = readTranscript("test/fixtures/transcripts/explore-subagent-lockfile-hook.jsonl");
    vexpect(hookSaid("PreToolUse:Write", "lockfiles are generated", { in: "reason" }).eval(old)).toMatchObject({ pass: true, message: vexpect.stringMatching(/said "lockfiles are generated" in its reason/) });
    const newer = readTranscript("test/fixtures/claude-versions/mon332.jsonl");
    vexpect(hookFired("PreToolUse:Monitor").eval(newer).pass).toBe(true);
    vexpect(hookSaid("PreToolUse:Monitor", /./).eval(newer).message).toMatch(/none of its 1 run\(s\) did:\n {4}hook 1 \(PreToolUse:Monitor, exit 0\): said nothing$/);
  });
});
