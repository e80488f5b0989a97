/**
 * The reader's view of a command a PreToolUse hook rewrote: the lines as claude 2.1.197 and
 * 2.1.332 write them (a `system/hook_response` whose stdout carries `updatedInput`), parallel calls
 * to one tool told apart by the command the rewrite carries, and a refusal by the confinement.
 */
import { describe, expect, it } from "vitest";
import { parseClaudeStream } from "../../src/trace/readers/claude.js";

const line = (o: unknown) => JSON.stringify(o);
const toolUse = (id: string, command: string) => line({ type: "assistant", message: { id: "m1", model: "mock", content: [{ type: "tool_use", id, name: "Bash", input: { command } }] }, parent_tool_use_id: null });
const started = (hook: string) => line({ type: "system", subtype: "hook_started", hook_id: hook, hook_name: "PreToolUse:Bash", hook_event: "PreToolUse" });
const answered = (hook: string, rewrite: string) => {
  const stdout = `${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "ok", updatedInput: { command: rewrite } } })}\n`;
  return line({ type: "system", subtype: "hook_response", hook_id: hook, hook_name: "PreToolUse:Bash", hook_event: "PreToolUse", output: stdout, stdout, stderr: "", exit_code: 0, outcome: "success" });
};
const result = (id: string, content: string, isError = false) => line({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] }, parent_tool_use_id: null });
const end = line({ type: "result", subtype: "success", is_error: false, result: "Done.", num_turns: 2 });
const wrap = (c: string) => `bwrap --ro-bind / / -- /bin/bash -c '${c.replace(/'/g, `'\\''`)}'`;

describe("commands a hook rewrote", () => {
  it("keeps the model's command on the call and the one that ran in `ran`", () => {
    const trace = parseClaudeStream([toolUse("a", "ls"), started("h1"), answered("h1", wrap("ls")), result("a", "x"), end].join("\n"));
    expect(trace.toolCalls[0]).toMatchObject({ input: { command: "ls" }, status: "success", ran: { command: wrap("ls"), by: "hook" } });
    expect(trace.errors).toEqual([]);
  });

  it("ties each rewrite to the call whose command it carries, even when the hooks answer out of order", () => {
    const text = [toolUse("a", "cat it's"), toolUse("b", "ls"), started("h1"), started("h2"), answered("h2", wrap("ls")), answered("h1", wrap("cat it's")), result("a", "1"), result("b", "2"), end].join("\n");
    const trace = parseClaudeStream(text);
    expect(trace.toolCalls.map((c) => c.ran?.command)).toEqual([wrap("cat it's"), wrap("ls")]);
  });

  it("records a write the confinement refused: denied by the sandbox, and a problem saying the classifier was wrong", () => {
    const command = "sed -e 'w PWNED' --version";
    const trace = parseClaudeStream([toolUse("a", command), started("h1"), answered("h1", wrap(command)), result("a", "Exit code 4\nsed: couldn't open file PWNED: Read-only file system", true), end].join("\n"));
    expect(trace.toolCalls[0]).toMatchObject({ status: "denied", deniedBy: "sandbox", ran: { by: "hook", refused: "Read-only file system" } });
    expect(trace.errors.map((e) => e.kind)).toEqual(["confinement-refused"]);
  });

  it("leaves calls without a rewrite, and a hook that only allowed, as they were", () => {
    const stdout = `${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } })}\n`;
    const allowOnly = line({ type: "system", subtype: "hook_response", hook_id: "h1", hook_name: "PreToolUse:Bash", hook_event: "PreToolUse", output: stdout, stdout, stderr: "", exit_code: 0, outcome: "success" });
    const trace = parseClaudeStream([toolUse("a", "ls"), started("h1"), allowOnly, result("a", "Read-only file system", true), end].join("\n"));
    expect(trace.toolCalls[0]?.ran).toBeUndefined();
    expect(trace.toolCalls[0]?.status).toBe("failure");
  });
});
