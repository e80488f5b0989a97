/** No check passes without evidence: who denied a call, names that cannot exist, empty references, wrong inputs. */
import { describe, expect as vexpect, it } from "vitest";
import {
  blocked, checkFromJSON, denied, expect, isProctorError, notTool, onlyTools, parseTranscript, tool, toolCount, toolWith, trajectory,
  validateTrace, type Check, type Trace,
} from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const OFFERED = ["Task", "Bash", "Edit", "Read", "Write", "Skill"];
const offered = (calls: Parameters<typeof makeTrace>[0] extends infer O ? (O extends { calls?: infer C } ? C : never) : never = []) =>
  makeTrace({ source: { kind: "harness", tools: OFFERED }, calls });

function refusal(fn: () => unknown): { code?: string | undefined; message: string } {
  try {
    fn();
  } catch (error) {
    return { code: isProctorError(error) ? error.code : undefined, message: (error as Error).message };
  }
  return { message: "(did not throw)" };
}

describe("names are evidence", () => {
  const trace = offered([{ name: "Bash", input: { command: "ls" } }]);

  it.each<[string, Check<Trace>]>([
    ["notTool", notTool("Bassh")],
    ["tool", tool("Bassh")],
    ["toolWith", toolWith("Bassh", { command: "ls" })],
    ["onlyTools", onlyTools(["Bash", "Raed"])],
    ["toolCount", toolCount("Bassh", { max: 0 })],
    ["denied", denied("Bassh")],
    ["trajectory", trajectory(["Bash", "Bassh"], { mode: "superset" })],
  ])("%s with a misspelt tool fails, suggesting the real one", (_, check) => {
    const r = check.eval(trace);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toMatch(/did you mean (Bash|Read)\?/);
  });

  it("a name of the agent, an mcp__ name or a called name is not refused", () => {
    for (const check of [notTool("Glob"), notTool("mcp__github__create_issue"), notTool("mcp__github__*"), toolCount("*", { max: 1 })]) vexpect(check.eval(trace).pass).toBe(true);
    const withOdd = offered([{ name: "Frobnicate", status: "invalid" }]);
    vexpect(tool("Frobnicate").eval(withOdd).pass).toBe(true);
  });

  it("far-off names list what was offered instead", () => {
    vexpect(notTool("CompletelyDifferent").eval(trace).message).toMatch(/offered: Task, Bash, Edit/);
  });

  it("a trace with no record of offered tools keeps today's behaviour", () => {
    vexpect(notTool("Bassh").eval(makeTrace({ calls: [{ name: "Bash" }] })).pass).toBe(true);
  });
});

describe("trajectories", () => {
  it("refuse an empty reference where it would assert nothing, when built and from JSON", () => {
    vexpect(refusal(() => trajectory([], { mode: "superset" }))).toMatchObject({ code: "INVALID_CHECK", message: vexpect.stringContaining("must not be empty in superset mode") });
    vexpect(refusal(() => checkFromJSON({ kind: "trajectory", expected: [], mode: "superset" })).message).toMatch(/checks?\.expected: .*must not be empty/);
    vexpect(refusal(() => trajectory([], { mode: "ordered" })).code).toBe("INVALID_CHECK");
    vexpect(refusal(() => trajectory([], { mode: "subset" })).code).toBe("INVALID_CHECK");
    // An empty strict reference is a real claim: no calls at all.
    vexpect(trajectory([]).eval(makeTrace()).pass).toBe(true);
  });

  it("ordered: the reference in order, other calls between, and says which step is missing", () => {
    const trace = makeTrace({ calls: [{ name: "Read" }, { name: "Grep" }, { name: "Edit" }, { name: "Bash" }] });
    vexpect(trajectory(["Read", "Edit", "Bash"], { mode: "ordered" }).eval(trace).pass).toBe(true);
    const r = trajectory(["Read", "Bash", "Edit"], { mode: "ordered" }).eval(trace);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toMatch(/step 3 \(Edit\) never happened in order after Read → Bash/);
  });

  it("strict does not order calls issued in one turn", () => {
    const parallel = makeTrace({ calls: [{ name: "Read", turn: 1 }, { name: "Grep", turn: 1 }, { name: "Edit", turn: 2 }] });
    vexpect(trajectory(["Grep", "Read", "Edit"]).eval(parallel).pass).toBe(true);
    const r = trajectory(["Edit", "Read", "Grep"]).eval(parallel);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toMatch(/steps 1–2 \(one turn of 2 parallel calls\)/);
  });
});

describe("denied() means a hook unless widened", () => {
  const rm = { name: "Bash", input: { command: "rm -rf ./*" }, status: "denied" as const };

  it("a built-in guard's denial fails denied(), asking whether the hook is installed", () => {
    const trace = makeTrace({ calls: [{ ...rm, deniedBy: "builtin", result: "Dangerous rm operation detected: '/w/*'" }] });
    const r = denied("Bash", { command: /rm -rf/ }).eval(trace);
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toMatch(/denied, but by the agent's built-in guard/);
    vexpect(r.message).toMatch(/is the hook installed/);
    vexpect(r.message).toMatch(/\{ by: "builtin" \}/);
    expect(trace, [denied("Bash", { command: /rm -rf/ }, { by: "any" }), denied("Bash", undefined, { by: ["builtin", "permission"] })]);
  });

  it("an unattributed denial is not a hook's", () => {
    const r = denied("Bash").eval(makeTrace({ calls: [{ ...rm, deniedBy: "unknown" }] }));
    vexpect(r.pass).toBe(false);
    vexpect(r.message).toMatch(/something the run did not name/);
  });

  it("a hook's denial passes and names the hook event", () => {
    const trace = makeTrace({
      calls: [{ ...rm, id: "t1", deniedBy: "hook", denyingHook: 0 }],
      hooks: [{ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: true, decision: "deny", output: "", callId: "t1", at: 0 }],
    });
    vexpect(denied("Bash").eval(trace).message).toMatch(/denied by a hook \(PreToolUse:Bash\)/);
  });

  it("round-trips by, and refuses a bad one", () => {
    const check = denied("Bash", { command: /rm/ }, { by: "permission" });
    vexpect(check.toJSON()).toEqual({ kind: "denied", name: "Bash", args: { command: { $regex: "rm" } }, by: "permission" });
    vexpect(checkFromJSON(JSON.parse(JSON.stringify(check))).label).toBe(check.label);
    vexpect(refusal(() => denied("Bash", undefined, { by: "hooks" as never })).message).toMatch(/denied: by must be "any", one of hook, permission, builtin, sandbox, unknown/);
  });
});

describe("who denied a call, read from the transcript's own evidence", () => {
  const line = (o: object) => JSON.stringify(o);
  const init = line({ type: "system", subtype: "init", tools: OFFERED, cwd: "/w" });
  const call = (msg: string, id: string, command: string) => line({ type: "assistant", message: { id: msg, content: [{ type: "tool_use", id, name: "Bash", input: { command } }] }, parent_tool_use_id: null });
  const result = (id: string, content: string, isError = true) => line({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] }, parent_tool_use_id: null });
  const hook = (id: string, sub: string, extra: object = {}) => line({ type: "system", subtype: sub, hook_id: id, hook_name: "PreToolUse:Bash", hook_event: "PreToolUse", ...extra });
  const deny = (reason: string) => ({ exit_code: 0, outcome: "success", stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }), stderr: "" });
  const end = (ids: string[]) => line({ type: "result", subtype: "success", is_error: false, result: "ok", num_turns: 2, permission_denials: ids.map((id) => ({ tool_name: "Bash", tool_use_id: id })) });

  it("ties a hook's denial to the parallel call it refused, not the latest one", () => {
    const trace = parseTranscript(
      [
        init,
        call("m1", "a", "rm -rf ./*"),
        call("m1", "b", "echo hi"),
        hook("h1", "hook_started"),
        hook("h1", "hook_response", deny("Blocked: recursive force-removal")),
        hook("h2", "hook_started"),
        result("a", "Blocked: recursive force-removal"),
        hook("h2", "hook_response", { exit_code: 0, outcome: "success", stdout: "", stderr: "" }),
        result("b", "hi", false),
        end(["a"]),
      ].join("\n"),
    );
    validateTrace(trace);
    vexpect(trace.toolCalls.map((c) => [c.id, c.status, c.deniedBy, c.denyingHook, c.turn])).toEqual([
      ["a", "denied", "hook", 0, 1],
      ["b", "success", undefined, undefined, 1],
    ]);
    vexpect(trace.hooks[0].callId).toBe("a");
  });

  it("says builtin, permission, hook (from the CLI's own words) or unknown — never guesses", () => {
    const trace = parseTranscript(
      [
        init,
        call("m1", "a", "rm -rf ./*"),
        result("a", "Dangerous rm operation detected: '/w/*'\n\nThis command would remove a workspace directory. This requires explicit approval and cannot be auto-allowed by permission rules."),
        call("m2", "b", "env"),
        result("b", "This command requires approval"),
        call("m3", "c", "rm x"),
        result("c", "PreToolUse:Bash hook error: [guard]: no"),
        call("m4", "d", "rm y"),
        result("d", "refused"),
        end(["a", "b", "c", "d"]),
      ].join("\n"),
    );
    vexpect(trace.toolCalls.map((c) => [c.deniedBy, c.turn])).toEqual([
      ["builtin", 1],
      ["permission", 2],
      ["hook", 3],
      ["unknown", 4],
    ]);
  });
});

describe("inputs are refused, not judged", () => {
  it("expect({}, checks) throws a ProctorError naming the first wrong field", () => {
    const r = refusal(() => expect({} as Trace, [notTool("Bash")]));
    vexpect(r.code).toBe("INVALID_TRACE");
    vexpect(r.message).toMatch(/^notTool\(Bash\) checks a Trace, and this is not one: trace: missing required field "version"/);
    vexpect(r.message).toMatch(/readTranscript/);
  });

  it("a hook-result check against a Trace says which kind it needs", () => {
    const r = refusal(() => blocked().eval(makeTrace() as never));
    vexpect(r.code).toBe("INVALID_INPUT");
    vexpect(r.message).toMatch(/blocked\(\) checks a hook run result \(from runHook\), and this is a Trace/);
  });

  it("a JSON Trace's denier must fit its call: a denied call, a hook that exists", () => {
    vexpect(refusal(() => validateTrace(makeTrace({ calls: [{ name: "Read", deniedBy: "hook" }] }))).message).toMatch(/toolCalls\[0\]\.deniedBy: only a denied call has a denier/);
    vexpect(refusal(() => validateTrace(makeTrace({ calls: [{ name: "Read", status: "denied", deniedBy: "hook", denyingHook: 0 }] }))).message).toMatch(
      /toolCalls\[0\]\.denyingHook: 0 is not an index of trace\.hooks \(0 hooks\)/,
    );
  });

  it("failure messages read as they should", () => {
    const trace = offered([{ name: "Bash", input: { command: "rm -rf ./*" }, status: "denied", deniedBy: "builtin", result: "Dangerous rm operation detected: '/w/*'" }, { name: "Read" }]);
    vexpect(
      [notTool("Bassh"), denied("Bash", { command: /rm -rf/ }), trajectory(["Read", "Bash"], { mode: "ordered" })].map((c) => `${c.label}\n${c.eval(trace).message}`).join("\n\n"),
    ).toMatchSnapshot();
    vexpect(refusal(() => expect({ version: 1 } as never, [tool("Bash")])).message).toMatchSnapshot();
  });

  it("turn is part of the JSON Trace: a positive integer, absent meaning its own turn", () => {
    vexpect(() => validateTrace(makeTrace({ calls: [{ name: "Read", turn: 1 }] }))).not.toThrow();
    vexpect(refusal(() => validateTrace(makeTrace({ calls: [{ name: "Read", turn: 0 }] }))).message).toMatch(/toolCalls\[0\]\.turn/);
  });
});
