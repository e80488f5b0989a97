/**
 * The gate never fails open: a pathological `$regex` answers at once, a stalled hook input runs
 * into the gate's own deadline and is denied, and a broken `when` predicate denies with its reason.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { claudeCodeDialect, decideGate, evaluatePermissionDecision, parsePolicy, type PolicyFile } from "../../src/safety.js";
import { isProctorError } from "../../src/index.js";
import { CLI, proctor } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-gate-deadline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const payload = (tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({ session_id: "s", transcript_path: "/t", cwd: dir, hook_event_name: "PreToolUse", permission_mode: "default", tool_name, tool_input, tool_use_id: "toolu_1" });

describe("the gate's deadline", () => {
  it("(a+)+$ in a policy file decides at once instead of hanging the hook", async () => {
    const policy = join(dir, "redos.json");
    writeFileSync(policy, JSON.stringify({ rules: [{ tool: "Bash", effect: "deny", reason: "no a-runs", args: { command: { $regex: "(a+)+$" } } }] }));
    const started = Date.now();
    const miss = await proctor(["gate", "--policy", policy], { input: payload("Bash", { command: `${"a".repeat(40)}!` }) });
    expect(miss).toMatchObject({ exitCode: 0, stdout: "" });
    const hit = await proctor(["gate", "--policy", policy], { input: payload("Bash", { command: "aaaa" }) });
    expect(JSON.parse(hit.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringContaining("no a-runs") });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("denies when its input stalls past the deadline, well before a hook timeout would let the call through", async () => {
    const child = execa("node", [CLI, "gate", "--purity", "bounded", "--deadline-ms", "400"], { reject: false });
    child.stdin!.write('{"hook_event_name":"PreToolUse",'); // …and never finishes
    const r = await child;
    child.stdin?.destroy();
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "proctor gate: no decision within 400 ms, so the call is denied (a gate that runs out of time must not let it through)",
    });
  });

  it("refuses a bad --deadline-ms", async () => {
    const r = await proctor(["gate", "--purity", "bounded", "--deadline-ms", "soon"], { input: payload("Read", {}) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--deadline-ms must be a positive whole number/);
  });
});

describe("a when predicate must answer true or false", () => {
  const broken = { rules: [{ tool: "Bash", effect: "deny" as const, reason: "no deletes", when: (() => "yes") as never }], defaultDenySensitive: false };

  it("a truthy non-boolean is an error naming the rule, not a silent non-match", () => {
    let error: unknown;
    try {
      evaluatePermissionDecision(broken, { toolName: "Bash", args: { command: "rm -rf x" }, sideEffectClass: "side-effecting" } as never);
    } catch (e) {
      error = e;
    }
    expect(isProctorError(error) && error.code).toBe("POLICY_INVALID");
    expect((error as Error).message).toMatch(/^policy rules\[0\] \(deny Bash\): when returned "yes" \(string\), not a boolean/);
  });

  it("the gate denies with that reason", () => {
    const file = parsePolicy({ rules: [] }, "team.json");
    const policy: PolicyFile = { ...file, policy: broken };
    const answer = decideGate("Bash", { command: "ls" }, { dialect: claudeCodeDialect, policy });
    expect(answer.decision).toBe("deny");
    expect(answer.reason).toMatch(/\[policy team\.json\] the policy could not be applied, so the call is denied: policy rules\[0\] \(deny Bash\): when returned "yes"/);
  });
});
