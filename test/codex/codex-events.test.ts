/** readCodexJsonl on a recorded real run and on hand-written event lines; merging the mock's calls; command unwrapping; output statuses. */
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { describe, expect as vexpect, it } from "vitest";
import { readCodexJsonl } from "../../harness/index.js";
import { unwrapShellCommand, splitShellWords } from "../../src/trace/readers/codex-command.js";
import { parseCodexEvents } from "../../harness/codex/events.js";
import { mergeModelCalls, patchChanges } from "../../harness/codex/merge.js";
import { buildCodexTrace } from "../../harness/codex/trace.js";
import { outputStatus } from "../../mock-model/responses/output-status.js";
import type { EmittedItem } from "../../mock-model/index.js";
import { expect, mcp, notTool, onlyTools, output, toolWith, validateTrace, wrote } from "../../src/index.js";
import { purity } from "../../src/safety.js";

const RUN = fileURLToPath(new URL("./fixtures/codex-run.jsonl", import.meta.url));
const CODE_MODE = readFileSync(new URL("./fixtures/codex-code-mode.jsonl", import.meta.url), "utf8");
const lines = (...events: object[]) => `${events.map((e) => JSON.stringify(e)).join("\n")}\n`;
const PATCH = "*** Begin Patch\n*** Add File: SUMMARY.md\n+# Summary\n*** Update File: notes.txt\n@@\n-draft\n+final\n*** End Patch\n";

describe("readCodexJsonl on a recorded codex exec --json run", () => {
  const trace = readCodexJsonl(RUN, { cwd: "/work" });

  it("maps commands, patches and MCP calls to tool calls the checks understand", () => {
    validateTrace(trace);
    vexpect(trace.source).toMatchObject({ kind: "codex", sessionId: "01a23748-d205-7063-b3aa-12dde292ae9d", cwd: "/work" });
    vexpect(trace.toolCalls).toEqual([
      { id: "item_2", agent: "main", name: "exec_command", input: { command: "cat notes.txt" }, result: "draft\n", status: "success", turn: 1 },
      {
        id: "item_3",
        agent: "main",
        name: "apply_patch",
        input: { changes: [{ path: "SUMMARY.md", kind: "add" }, { path: "notes.txt", kind: "update" }] },
        result: "A SUMMARY.md\nM notes.txt",
        status: "success",
        turn: 2,
      },
      { id: "item_4", agent: "main", name: "mcp__echo__echo", input: { text: "ping" }, result: "echo: ping", status: "success", turn: 3 },
    ]);
    expect(trace, [
      toolWith("exec_command", { command: "cat notes.txt" }),
      notTool("exec_command", { command: /rm -rf/ }),
      onlyTools(["exec_command", "apply_patch", "mcp__echo__*"]),
      mcp("echo", "echo"),
      wrote("SUMMARY.md"),
      output("Done: SUMMARY.md written."),
    ]);
    // Codex's dialect judges the run: a patch is a write.
    vexpect(purity("bounded").eval(trace).pass).toBe(false);
  });

  it("counts only turn-ending messages as replies, and reads usage from turn.completed", () => {
    vexpect(trace.replies).toEqual([{ text: "Done: SUMMARY.md written.", at: 3 }]);
    vexpect(trace.complete).toBe(true);
    vexpect(trace.outcome).toEqual({ subtype: "success", isError: false });
    vexpect(trace.usage).toEqual({ inputTokens: 160, outputTokens: 50, cacheCreationTokens: 5, cacheReadTokens: 40 }); // no cost, no duration: Codex reports neither
    vexpect(trace.files).toEqual({ source: "tool-calls", changes: [{ path: "SUMMARY.md", change: "created" }, { path: "notes.txt", change: "modified" }] });
    vexpect(trace.turns).toBeUndefined();
    vexpect(trace.errors).toEqual([]);
  });

  it("leaves out what the stream leaves out: the rejected rm -rf is not in it", () => {
    // The mock saw the model call `rm -rf notes.txt` between the patch and the MCP call; Codex refused it and reported nothing.
    vexpect(trace.toolCalls.some((c) => /rm/.test(String(c.input.command)))).toBe(false);
  });

  it("reads a file path or the text itself, and names a missing file", () => {
    vexpect(readCodexJsonl(readFileSync(RUN, "utf8"), { cwd: "/work" })).toEqual(trace);
    vexpect(() => readCodexJsonl("/nonexistent/run.jsonl")).toThrow(/cannot read Codex events \/nonexistent\/run\.jsonl: ENOENT/);
  });
});

describe("readCodexJsonl on every item kind", () => {
  it("todo lists, web searches, declined commands, MCP approval failures, warnings and retries", () => {
    const trace = readCodexJsonl(
      lines(
        { type: "thread.started", thread_id: "t1" },
        { type: "turn.started" },
        { type: "item.started", item: { id: "item_0", type: "todo_list", items: [{ text: "look", completed: false }] } },
        { type: "item.completed", item: { id: "item_1", type: "web_search", query: "vitest 4 docs" } },
        { type: "item.completed", item: { id: "item_2", type: "command_execution", command: "bash -lc 'git push'", aggregated_output: "", exit_code: null, status: "declined" } },
        { type: "item.completed", item: { id: "item_3", type: "mcp_tool_call", server: "db", tool: "drop", arguments: {}, result: null, error: { message: "MCP tool call requires approval, but approval policy is never" }, status: "failed" } },
        { type: "item.completed", item: { id: "item_4", type: "command_execution", command: "/bin/bash -lc 'npm test'", aggregated_output: "1 failing", exit_code: 1, status: "failed" } },
        { type: "item.updated", item: { id: "item_0", type: "todo_list", items: [{ text: "look", completed: true }] } },
        { type: "item.completed", item: { id: "item_5", type: "error", message: "Model metadata for `x` not found." } },
        { type: "error", message: "Reconnecting... 1/2 (stream disconnected before completion)" },
        { type: "item.completed", item: { id: "item_6", type: "agent_message", text: "Tests fail." } },
        { type: "turn.completed", usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 2 } },
      ),
    );
    validateTrace(trace);
    vexpect(trace.toolCalls.map((c) => [c.name, c.status, c.input])).toEqual([
      ["update_plan", "success", { items: [{ text: "look", completed: true }] }],
      ["web_search", "success", { query: "vitest 4 docs" }],
      ["exec_command", "denied", { command: "git push" }],
      ["mcp__db__drop", "denied", {}],
      ["exec_command", "failure", { command: "npm test" }],
    ]);
    vexpect(trace.errors).toEqual([
      { kind: "codex-warning", message: "Model metadata for `x` not found." },
      { kind: "api-retry", message: "Reconnecting... 1/2 (stream disconnected before completion)" },
    ]);
    vexpect(trace.replies).toEqual([{ text: "Tests fail.", at: 5 }]);
  });

  it("a failed turn is complete but an error, with the status it quoted", () => {
    const trace = readCodexJsonl(lines({ type: "turn.started" }, { type: "error", message: "exceeded retry limit, last status: 429 Too Many Requests" }, { type: "turn.failed", error: { message: "exceeded retry limit, last status: 429 Too Many Requests" } }));
    vexpect(trace.complete).toBe(true);
    vexpect(trace.outcome).toEqual({ subtype: "turn_failed", isError: true, apiErrorStatus: 429 });
    vexpect(trace.errors).toEqual([{ kind: "api-error", message: "exceeded retry limit, last status: 429 Too Many Requests" }]);
    vexpect(trace.output).toBeUndefined();
    vexpect(output("x").eval(trace).pass).toBe(false);
  });

  it("a stream cut off mid-run is incomplete: a running command is pending, a malformed line is reported", () => {
    const trace = readCodexJsonl(
      `${lines({ type: "turn.started" }, { type: "item.started", item: { id: "item_0", type: "command_execution", command: "sleep 60", aggregated_output: "", exit_code: null, status: "in_progress" } })}{not json\n`,
    );
    vexpect(trace.complete).toBe(false);
    vexpect(trace.toolCalls).toMatchObject([{ name: "exec_command", status: "pending", input: { command: "sleep 60" } }]);
    vexpect(trace.toolCalls[0].result).toBeUndefined();
    vexpect(trace.errors.map((e) => e.kind)).toEqual(["malformed-line", "incomplete"]);
    // Negative checks fail closed on an incomplete trace.
    vexpect(notTool("exec_command", { command: /rm/ }).eval(trace).pass).toBe(false);
  });

  it("names command executions after the shell tool it is told", () => {
    const trace = readCodexJsonl(lines({ type: "item.completed", item: { id: "i", type: "command_execution", command: "ls", aggregated_output: "", exit_code: 0, status: "completed" } }), { shellTool: "shell" });
    vexpect(trace.toolCalls[0].name).toBe("shell");
  });

  it("a reported command the sandbox stopped writing is denied, not a plain failure", () => {
    const item = (output: string) => ({ type: "item.completed", item: { id: "i", type: "command_execution", command: "touch /etc/x", aggregated_output: output, exit_code: 1, status: "failed" } });
    vexpect(readCodexJsonl(lines(item("touch: cannot touch '/etc/x': Read-only file system\n"))).toolCalls[0]).toMatchObject({ status: "denied", deniedBy: "sandbox" });
    vexpect(readCodexJsonl(lines(item("1 failing\n"))).toolCalls[0].status).toBe("failure");
  });
});

describe("mergeModelCalls: every call the model made, in its order", () => {
  const events = parseCodexEvents(readFileSync(RUN, "utf8"), { cwd: "/work" });
  const answered: EmittedItem[][] = [
    [
      { type: "reasoning", text: "Look first." },
      { type: "text", text: "Let me look." },
      { type: "call", id: "call_1", name: "exec_command", input: { cmd: "cat notes.txt" }, freeform: false },
    ],
    [{ type: "call", id: "call_2", name: "apply_patch", input: { input: PATCH }, freeform: true }],
    [{ type: "call", id: "call_3", name: "exec_command", input: { cmd: "rm -rf notes.txt" }, freeform: false }],
    [{ type: "call", id: "call_4", name: "mcp__echo__echo", input: { text: "ping" }, freeform: false }],
    [{ type: "text", text: "Done: SUMMARY.md written." }],
  ];
  const outputs: Record<string, string> = {
    call_1: "Process exited with code 0\nOutput:\ndraft\n",
    call_2: "Exit code: 0\nOutput:\nSuccess.",
    call_3: "exec_command failed: CreateProcess { message: \"Rejected(\\\"`/bin/bash -lc 'rm -rf notes.txt'` rejected: rm -f style commands are not permitted.\\\")\" }",
    call_4: "Wall time: 0.0031 seconds\nOutput:\necho: ping",
  };

  it("adds the call Codex refused without reporting it, and gives reported calls the model's ids and arguments", () => {
    const trace = buildCodexTrace(events, mergeModelCalls(events.entries, answered, (id) => outputs[id], "/work"));
    validateTrace(trace);
    vexpect(trace.toolCalls.map((c) => [c.id, c.name, c.status, c.input])).toEqual([
      ["call_1", "exec_command", "success", { cmd: "cat notes.txt", command: "cat notes.txt" }],
      ["call_2", "apply_patch", "success", { patch: PATCH, changes: [{ path: "SUMMARY.md", kind: "add" }, { path: "notes.txt", kind: "update" }] }],
      ["call_3", "exec_command", "denied", { cmd: "rm -rf notes.txt", command: "rm -rf notes.txt" }],
      ["call_4", "mcp__echo__echo", "success", { text: "ping" }],
    ]);
    vexpect(trace.toolCalls[2].deniedBy).toBe("permission");
    vexpect(trace.toolCalls[0].result).toBe("draft\n");
    vexpect(trace.replies).toEqual([{ text: "Done: SUMMARY.md written.", at: 4 }]);
    // A denied call still counts: the agent decided to make it.
    vexpect(notTool("exec_command", { command: /rm -rf/ }).eval(trace)).toMatchObject({ pass: false, callIndex: 2 });
  });

  it("a write the sandbox refused is denied by the sandbox, whether or not the stream reported it", () => {
    const reported = parseCodexEvents(
      lines(
        { type: "turn.started" },
        { type: "item.completed", item: { id: "item_0", type: "command_execution", command: "/bin/bash -lc 'touch /etc/x'", aggregated_output: "touch: cannot touch '/etc/x': Read-only file system\n", exit_code: 1, status: "failed" } },
        { type: "turn.completed", usage: {} },
      ),
    );
    const silent = parseCodexEvents(lines({ type: "turn.started" }, { type: "turn.completed", usage: {} }));
    const answered: EmittedItem[][] = [[{ type: "call", id: "w", name: "exec_command", input: { cmd: "touch /etc/x" }, freeform: false }]];
    const told = () => "Process exited with code 1\nOutput:\ntouch: cannot touch '/etc/x': Read-only file system\n";
    for (const run of [reported, silent]) {
      const [call] = buildCodexTrace(run, mergeModelCalls(run.entries, answered, told)).toolCalls;
      vexpect([call.status, call.deniedBy, call.turn]).toEqual(["denied", "sandbox", 1]);
    }
  });

  it("a command refused first and allowed later: the refusal is not matched to the later run", () => {
    const run = parseCodexEvents(lines({ type: "turn.started" }, { type: "item.completed", item: { id: "item_0", type: "command_execution", command: "/bin/bash -lc 'git push'", aggregated_output: "ok", exit_code: 0, status: "completed" } }, { type: "turn.completed", usage: {} }));
    const merged = mergeModelCalls(
      run.entries,
      [[{ type: "call", id: "a", name: "exec_command", input: { cmd: "git push" }, freeform: false }], [{ type: "call", id: "b", name: "exec_command", input: { cmd: "git push" }, freeform: false }]],
      (id) => (id === "a" ? "exec_command failed: CreateProcess { message: \"Rejected(...)\" }" : "Process exited with code 0\nOutput:\nok"),
    );
    vexpect(buildCodexTrace(run, merged).toolCalls.map((c) => [c.id, c.status])).toEqual([
      ["a", "denied"],
      ["b", "success"],
    ]);
  });

  it("keeps commands run inside a code-mode exec after the exec call; a call with no answer yet is pending", () => {
    const run = parseCodexEvents(CODE_MODE);
    const merged = mergeModelCalls(run.entries, [[{ type: "call", id: "x", name: "exec", input: { input: "await tools.exec_command({cmd: 'echo hi'})" }, freeform: true }], [{ type: "text", text: "It said hi." }]], () => undefined);
    const trace = buildCodexTrace(run, merged);
    vexpect(trace.toolCalls.map((c) => [c.name, c.status, c.input.command])).toEqual([
      ["exec", "pending", undefined],
      ["exec_command", "success", "echo hi"],
    ]);
    vexpect(trace.replies).toEqual([{ text: "It said hi.", at: 2 }]);
  });

  it("reads the files a patch names", () => {
    vexpect(patchChanges(PATCH)).toEqual([{ path: "SUMMARY.md", kind: "add" }, { path: "notes.txt", kind: "update" }]);
    vexpect(patchChanges("*** Begin Patch\n*** Delete File: /work/old.txt\n*** End Patch", "/work")).toEqual([{ path: "old.txt", kind: "delete" }]);
  });
});

describe("unwrapShellCommand", () => {
  it.each([
    ["/bin/bash -lc 'cat notes.txt'", "cat notes.txt"],
    [`/bin/bash -lc "echo 'a b' \\"c'd\\" "'$HOME'`, `echo 'a b' "c'd" $HOME`],
    ["/usr/bin/sh -c ls", "ls"],
    ["bash -lc 'git status'", "git status"],
    ["zsh -lc 'rm -rf build'", "rm -rf build"],
    ["npm test", "npm test"],
    ["/bin/bash -lc 'unterminated", "/bin/bash -lc 'unterminated"],
    ["/bin/bash -lc 'a' extra", "/bin/bash -lc 'a' extra"],
  ])("%s → %s", (raw, want) => {
    vexpect(unwrapShellCommand(raw)).toBe(want);
  });

  it("splits words the way a POSIX shell does", () => {
    vexpect(splitShellWords(`a 'b c' "d \\"e\\"" f\\ g`)).toEqual(["a", "b c", 'd "e"', "f g"]);
    vexpect(splitShellWords(`"open`)).toBeUndefined();
  });
});

describe("outputStatus: a call's fate from what the CLI told the model", () => {
  it.each([
    ["Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\nok", "success"],
    ["Process exited with code 2\nOutput:\nboom", "failure"],
    ["Process exited with code 1\nOutput:\ntouch: cannot touch '/etc/x': Read-only file system", "denied"],
    ["exec_command failed: CreateProcess { message: \"Rejected(\\\"`rm -rf x` rejected: rm -f style commands are not permitted\\\")\" }", "denied"],
    ["patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings", "denied"],
    ["Wall time: 0.0 seconds\nOutput:\nMCP tool call requires approval, but approval policy is never", "denied"],
    ["unsupported call: nosuch_tool", "invalid"],
    ["Exit code: 0\nWall time: 0.3 seconds\nOutput:\nSuccess. Updated the following files:\nA b.txt", "success"],
    ["apply_patch verification failed: no such file", "failure"],
    ["Wall time: 0.0 seconds\nOutput:\necho: ping", "success"],
  ])("%s → %s", (text, status) => {
    vexpect(outputStatus(text).status).toBe(status);
  });
});
