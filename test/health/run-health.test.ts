/**
 * Each run-health item on hand-built traces: what it fails on, its message and fix, how it is
 * switched off; and the gate in the test-runner matchers (an unhealthy run fails `toPass` and
 * `.not.toPass` alike).
 */
import { describe, expect as vexpect, it } from "vitest";
import "../../src/plugins/vitest.js";
import { assertAll, checkEach } from "../../src/plugins/node-test.js";
import { assessHealth, defineEval, measure, notTool, skill, subagent, tool, trialHealth, type HealthItemName, type Trace } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const failed = (trace: Trace, expected = {}, switches = {}) =>
  assessHealth(trace, expected, switches)
    .items.filter((i) => i.status === "failed")
    .map((i) => [i.name, i.message]);

describe("run-health items", () => {
  it("a healthy trace fails nothing", () => {
    vexpect(failed(makeTrace({ outcome: { subtype: "success", isError: false } }))).toEqual([]);
  });

  const cases: [HealthItemName, Trace, object, RegExp][] = [
    ["claude-ran", makeTrace({ complete: false, errors: [{ kind: "incomplete", message: "the transcript has no final result line" }] }), {}, /claude did not start and end normally: the transcript has no final result line/],
    ["plugins-loaded", makeTrace({ errors: [{ kind: "plugin-not-loaded", message: "claude did not load the plugin at /p" }] }), {}, /claude did not load the plugin at \/p/],
    ["mcp-servers-connected", makeTrace({ source: { kind: "harness", mcpServers: [{ name: "memory", status: "failed" }] } }), {}, /MCP server "memory" is failed/],
    ["mcp-servers-connected", makeTrace({ source: { kind: "harness", mcpServers: [] } }), { mcpServers: ["fs"] }, /"fs" is not in claude's init line/],
    ["skills-loaded", makeTrace({ source: { kind: "harness", skills: ["a:tidy"] } }), { skills: ["tdy"] }, /the skill "tdy" the eval names was not loaded \(init lists a:tidy\)/],
    ["agents-loaded", makeTrace({ source: { kind: "harness", agents: ["Explore"] } }), { agents: ["reviewer"] }, /the agent "reviewer" the eval names was not loaded/],
    ["model-asked", makeTrace({ errors: [{ kind: "no-model-request", message: "no request" }] }), {}, /the model was never asked/],
    ["model-asked", makeTrace({ modelRequests: [] }), {}, /the mock model received no request/],
    ["script-consumed", makeTrace(), { unusedTurns: [{ agent: "main", remaining: 2 }, { agent: "reviewer", remaining: 1 }] }, /the main agent: 2 scripted turns never asked for; subagent reviewer: 1 scripted turn/],
    ["hooks-ok", makeTrace({ hooks: [{ name: "Stop", event: "Stop", exitCode: 1, outcome: "cancelled", blocked: false, output: "", at: 0 }] }), {}, /Stop timed out \(claude cancelled it\)/],
    ["within-limits", makeTrace({ outcome: { subtype: "error_max_turns", isError: true } }), { limits: { maxTurns: 3 } }, /ran out of turns \(maxTurns 3\)/],
    ["within-limits", makeTrace({ errors: [{ kind: "timeout", message: "killed" }] }), { limits: { timeoutMs: 5000 } }, /killed at its time limit \(timeoutMs 5000\)/],
  ];
  it.each(cases)("%s fails with a message that names the problem", (name, trace, expected, message) => {
    const items = failed(trace, expected);
    vexpect(items.map(([n]) => n)).toContain(name);
    vexpect(items.find(([n]) => n === name)?.[1]).toMatch(message);
    const fix = assessHealth(trace, expected).items.find((i) => i.name === name)?.fix;
    vexpect(fix).toContain(`health: { "${name}": "why" }`);
    // Switched off with a reason, the item no longer fails; the reason is kept.
    const off = assessHealth(trace, expected, { [name]: "on purpose" }).items.find((i) => i.name === name);
    vexpect(off).toEqual({ name, status: "off", reason: "on purpose" });
  });

  it("a hook that blocks on purpose (exit 2) is not a crash", () => {
    vexpect(failed(makeTrace({ hooks: [{ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 2, outcome: "error", blocked: true, output: "no", at: 0 }] }))).toEqual([]);
  });

  it("a plugin skill or agent answers to its bare name", () => {
    vexpect(failed(makeTrace({ source: { kind: "harness", skills: ["hygiene:tidy"], agents: ["hygiene:reviewer"] } }), { skills: ["tidy"], agents: ["reviewer"] })).toEqual([]);
  });

  it("the gate adds the skills and agents the checks name to what the harness recorded", () => {
    const trace = makeTrace({ source: { kind: "harness", skills: ["tidy"], agents: ["Explore"] }, health: { ok: true, items: [], expected: { skills: ["tidy"] } } });
    const health = trialHealth(trace, { checks: [skill("tidy"), subagent("reviewr", [tool("Read")])] });
    vexpect(health?.items.filter((i) => i.status === "failed").map((i) => i.name)).toEqual(["agents-loaded"]);
    vexpect(trialHealth({ blocked: true }, {})).toBeUndefined();
  });

  it("switches recorded on the trace (the run spec's) are kept by the gate", () => {
    const trace = makeTrace({ complete: false, health: { ok: true, items: [{ name: "claude-ran", status: "off", reason: "killed on purpose" }] } });
    vexpect(trialHealth(trace)?.ok).toBe(true);
  });

  it("defineEval and measure refuse a switch without a reason, or an unknown item", async () => {
    const base = { name: "e", run: () => makeTrace(), checks: [notTool("Bash")] };
    vexpect(() => defineEval({ ...base, health: { "script-consumed": "" } })).toThrow(/health.script-consumed needs a reason/);
    vexpect(() => defineEval({ ...base, health: { "script-consumd": "x" } as never })).toThrow(/not a health item \(items: claude-ran, plugins-loaded/);
    await vexpect(measure({ run: () => makeTrace(), checks: [notTool("Bash")], trials: 1, progress: false, health: { "hooks-ok": 3 as never } })).rejects.toThrow(/needs a reason/);
  });
});

describe("what the run shows loaded", () => {
  it("a subagent that answered, or a skill that launched, was loaded even with no init line listing it; one that failed was not", () => {
    const agentRan = (status: "success" | "error") => makeTrace({ subagents: [{ id: "a1", type: "helper", prompt: "p", calls: [], status }] as never });
    vexpect(failed(agentRan("success"), { agents: ["helper"] })).toEqual([]);
    vexpect(failed(agentRan("error"), { agents: ["helper"] })).toEqual([["agents-loaded", vexpect.stringMatching(/"helper" the eval names was not loaded/)]]);
    const skillRan = (status: "success" | "error") => makeTrace({ skills: [{ name: "a:tidy", callIndex: 0, agent: "main", status }] as never });
    vexpect(failed(skillRan("success"), { skills: ["tidy"] })).toEqual([]);
    vexpect(failed(skillRan("error"), { skills: ["tidy"] })).toEqual([["skills-loaded", vexpect.stringMatching(/"tidy" the eval names was not loaded \(the run recorded no init line/)]]);
  });
});

describe("the gate in the matchers: an unhealthy run is neither a pass nor a negated one", () => {
  const sick = makeTrace({ errors: [{ kind: "no-model-request", message: "the model was never asked" }] });
  it("vitest: toPass and .not.toPass both fail, naming the item", () => {
    vexpect(() => vexpect(sick).toPass(notTool("Bash"))).toThrow(/did not happen as designed \(model-asked\)[\s\S]*fix:/);
    vexpect(() => vexpect(sick).not.toPass(tool("Bash"))).toThrow(/model-asked/);
    vexpect(() => vexpect(sick).toPassAll([notTool("Bash")])).toThrow(/model-asked/);
    vexpect(makeTrace()).toPass(notTool("Bash"));
  });
  it("expect/assertChecks throw RUN_UNHEALTHY before any check runs; a healthy run is checked as before", async () => {
    const { expect: strict, assertChecks } = await import("../../src/index.js");
    vexpect(() => strict(sick, [notTool("Bash")])).toThrow(vexpect.objectContaining({ code: "RUN_UNHEALTHY", message: vexpect.stringMatching(/model-asked/) }));
    vexpect(() => assertChecks(sick, [tool("Bash")])).toThrow(vexpect.objectContaining({ code: "RUN_UNHEALTHY" }));
    vexpect(strict(makeTrace(), [notTool("Bash")])).toHaveLength(1);
    vexpect(() => strict(makeTrace(), [tool("Bash")])).toThrow(vexpect.objectContaining({ code: "CHECKS_FAILED" }));
  });
  it("the promptfoo assertion fails an unhealthy run with its reason, whatever the checks say", async () => {
    const { gradeWithChecks } = await import("../../reporters/promptfoo/assertion.js");
    const graded = gradeWithChecks("", { config: { checks: [{ kind: "notTool", name: "Bash" }] }, metadata: { trace: sick } } as never);
    vexpect(graded).toMatchObject({ pass: false, score: 0, reason: vexpect.stringMatching(/^proctor: .*model-asked/s) });
    vexpect(gradeWithChecks("", { config: { checks: [{ kind: "notTool", name: "Bash" }] }, metadata: { trace: makeTrace() } } as never)).toMatchObject({ pass: true });
  });
  it("node:test: assertAll and checkEach throw RUN_UNHEALTHY", async () => {
    vexpect(() => assertAll(sick, [notTool("Bash")])).toThrow(vexpect.objectContaining({ code: "RUN_UNHEALTHY" }));
    await vexpect(checkEach({ test: async () => undefined }, sick, [notTool("Bash")])).rejects.toMatchObject({ code: "RUN_UNHEALTHY" });
  });
});

describe("optional: true on a script turn", () => {
  it("is accepted as a boolean and refused otherwise, naming the field", async () => {
    const { validateScript } = await import("../../mock-model/index.js");
    vexpect(() => validateScript({ turns: [{ text: "Done." }, { text: "More?", optional: true }] })).not.toThrow();
    vexpect(() => validateScript({ turns: [{ text: "More?", optional: "yes" }] })).toThrow(/turns\[0\]\.optional/);
  });
});

describe("MCP servers are waited for", () => {
  it("a run with MCP servers asks claude to connect them before the first turn; the spec's own setting wins; none, no change", async () => {
    const { withMcpWait } = await import("../../harness/claude/mcp-wait.js");
    vexpect(withMcpWait({ A: "1" }, ["fs"])).toEqual({ MCP_CONNECTION_NONBLOCKING: "0", A: "1" });
    vexpect(withMcpWait({ MCP_CONNECTION_NONBLOCKING: "1" }, ["fs"])).toEqual({ MCP_CONNECTION_NONBLOCKING: "1" });
    vexpect(withMcpWait(undefined, [])).toBeUndefined();
  });
});
