/** runCodex against the real codex binary: the trace, refused calls, MCP, failures, the process tree, isolation, the WebSocket fallback. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect as vexpect, it } from "vitest";
import { HarnessError, readCodexJsonl, resolveCodexBinary, runCodex, type CodexResult } from "../../harness/index.js";
import { buildCodexEnv } from "../../harness/codex/env.js";
import { runProcess } from "../../harness/process/run-process.js";
import { startTrap } from "../harness/helpers.js";
import { startMockModel, type RawRequest } from "../../mock-model/index.js";
import { advertised, denied, didNotWrite, evalChecks, expect, isProctorError, mcp, notTool, onlyTools, output, received, toolWith, validateTrace, wroteOnly } from "../../src/index.js";
import { purity } from "../../src/safety.js";

/** Pids of live processes whose argv is exactly `argv` (Codex runs commands in their own PID namespace, so `$!` is no host pid). */
function processesRunning(argv: string[]): number[] {
  const want = `${argv.join("\0")}\0`;
  return readdirSync("/proc").filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    try {
      const stat = readFileSync(`/proc/${n}/stat`, "utf8");
      return readFileSync(`/proc/${n}/cmdline`, "utf8") === want && !stat.split(") ")[1]?.startsWith("Z") ? [Number(n)] : [];
    } catch {
      return [];
    }
  });
}

async function gone(argv: string[]): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (processesRunning(argv).length === 0) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

const ECHO_MCP = fileURLToPath(new URL("../harness/fixtures/echo-mcp.mjs", import.meta.url));
const PATCH = "*** Begin Patch\n*** Add File: SUMMARY.md\n+# Summary\n*** Update File: notes.txt\n@@\n-draft\n+final\n*** End Patch\n";

async function rejection(promise: Promise<unknown>): Promise<HarnessError<CodexResult>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("expected the run to fail");
}

describe("runCodex (real codex binary)", () => {
  it("runs codex exec offline: commands, a patch, a refused rm -rf, a sandboxed write, exact files and model requests", async () => {
    const result = await runCodex({
      prompt: "tidy the notes",
      files: { "notes.txt": "draft\n" },
      script: {
        turns: [
          { thinking: "Look first.", text: "Let me look.", tools: [{ name: "exec_command", input: { cmd: "cat notes.txt" } }] },
          { tools: [{ name: "apply_patch", input: { input: PATCH } }] },
          { tools: [{ name: "exec_command", input: { cmd: "rm -rf notes.txt" } }] },
          { tools: [{ name: "exec_command", input: { cmd: "touch /etc/proctor-codex-probe" } }] },
          { text: "Done: SUMMARY.md written.", usage: { inputTokens: 120, outputTokens: 30, cacheReadTokens: 40 } },
        ],
      },
    });
    const { trace } = result;
    await result.cleanup();
    validateTrace(trace);
    vexpect(trace.source).toMatchObject({ kind: "codex", model: "gpt-5.5", permissionMode: "workspace-write", cwd: result.workDir, agentVersion: "0.171.0" });
    vexpect(trace.source.tools).toEqual(vexpect.arrayContaining(["exec_command", "apply_patch"]));
    const outputs = trace.toolCalls.map((c) => `${c.name} → ${c.status}: ${c.result?.slice(0, 300)}`).join("\n");
    vexpect(trace.toolCalls.map((c) => [c.name, c.status, c.input.command ?? c.input.changes]), `what Codex told the model:\n${outputs}`).toEqual([
      ["exec_command", "success", "cat notes.txt"],
      ["apply_patch", "success", [{ path: "SUMMARY.md", kind: "add" }, { path: "notes.txt", kind: "update" }]],
      // Codex's own policy refuses rm -rf, and its JSON stream says nothing about it; the mock saw the call.
      ["exec_command", "denied", "rm -rf notes.txt"],
      // The workspace-write sandbox refuses a write outside the work dir; the stream is silent about this one too.
      ["exec_command", "denied", "touch /etc/proctor-codex-probe"],
    ]);
    // Who refused them: Codex's command policy, then its sandbox (whether or not the stream reported the write).
    vexpect(trace.toolCalls.slice(2).map((c) => c.deniedBy)).toEqual(["permission", "sandbox"]);
    vexpect(trace.toolCalls.map((c) => c.turn)).toEqual([1, 2, 3, 4]);
    vexpect(trace.files).toEqual({
      source: "snapshot",
      changes: [
        { path: "SUMMARY.md", change: "created", content: "# Summary\n" },
        { path: "notes.txt", change: "modified", content: "final\n" },
      ],
    });
    vexpect(existsSync("/etc/proctor-codex-probe")).toBe(false);
    expect(trace, [
      toolWith("exec_command", { command: "cat notes.txt" }),
      denied("exec_command", { command: /^rm -rf/ }, { by: "permission" }),
      onlyTools(["exec_command", "apply_patch"]),
      wroteOnly(["SUMMARY.md", "notes.txt"]),
      advertised("apply_patch"),
      received("tidy the notes"),
      received("Process exited with code 0"),
      output("Done: SUMMARY.md written."),
    ]);
    vexpect(notTool("exec_command", { command: /rm -rf/ }).eval(trace)).toMatchObject({ pass: false, callIndex: 2 });
    vexpect(purity("bounded").eval(trace).pass).toBe(false);
    vexpect(trace.replies).toEqual([{ text: "Done: SUMMARY.md written.", at: 4 }]);
    vexpect(trace.turns).toBe(5);
    vexpect(trace.usage).toMatchObject({ inputTokens: 160, outputTokens: 50, cacheReadTokens: 40 });
    vexpect(trace.usage?.costUsd).toBeUndefined();
    vexpect(trace.usage!.durationMs).toBeGreaterThan(0);
    vexpect(trace.modelRequests).toHaveLength(5);
    // The stream alone: the policy-refused rm is missing. Whether Codex reports the sandboxed write
    // varies from run to run (as a failed command, or not at all); either way the merge says denied.
    const streamed = readCodexJsonl(result.stdout, { cwd: result.workDir }).toolCalls;
    vexpect(streamed.slice(0, 2).map((c) => c.name)).toEqual(["exec_command", "apply_patch"]);
    vexpect(streamed.filter((c) => /rm -rf/.test(String(c.input.command)))).toEqual([]);
    vexpect(streamed.length).toBeLessThan(trace.toolCalls.length);
  });

  it("keeps two parallel runs on one server apart; an MCP server's tools are called through its namespace", async () => {
    const mock = await startMockModel();
    try {
      const [withMcp, plain] = await Promise.all([
        runCodex({
          mock,
          prompt: "echo ping through the server",
          mcpConfig: { mcpServers: { echo: { command: "node", args: [ECHO_MCP] } } },
          script: { turns: [{ tools: [{ name: "mcp__echo__echo", input: { text: "ping" } }] }, { text: "The server said: echo: ping" }] },
        }),
        runCodex({ mock, prompt: "write b", script: { turns: [{ tools: [{ name: "exec_command", input: { cmd: "echo b > b.txt" } }] }, { text: "finished b" }] } }),
      ]);
      await Promise.all([withMcp.cleanup(), plain.cleanup()]);
      expect(withMcp.trace, [mcp("echo", "echo"), advertised("mcp__echo"), output("The server said: echo: ping")]);
      vexpect(withMcp.trace.toolCalls).toMatchObject([{ name: "mcp__echo__echo", status: "success", result: "echo: ping", input: { text: "ping" } }]);
      vexpect(withMcp.trace.source.mcpServers).toEqual([{ name: "echo", status: "connected" }]);
      vexpect(withMcp.trace.files?.changes).toEqual([]);
      expect(plain.trace, [toolWith("exec_command", { command: "echo b > b.txt" }), wroteOnly(["b.txt"]), didNotWrite("a.txt"), output("finished b")]);
      vexpect(plain.trace.modelRequests?.[0].messages).toContain("write b");
      vexpect(plain.trace.modelRequests?.[0].messages).not.toContain("echo ping");
    } finally {
      await mock.close();
    }
  });

  it("fails an overrun, naming the turn, and keeps the trace on the error", async () => {
    const error = await rejection(runCodex({ prompt: "go", script: { turns: [{ tools: [{ name: "exec_command", input: { cmd: "echo one" } }] }] } }));
    vexpect(isProctorError(error) && error.code).toBe("SCRIPT_OVERRUN");
    vexpect(error.reason).toBe("script-overrun");
    vexpect(error.shortMessage).toMatch(/^codex run failed: script overrun: main asked for turn 2 but its script has 1 turn; the last thing it received was \[tool_result call_mock_\w+\] .*one/);
    vexpect(error.message).toContain("the mock's last request: main asked for turn 2");
    const trace = error.result!.trace;
    vexpect(trace.toolCalls).toMatchObject([{ name: "exec_command", status: "success", result: "one\n" }]);
    vexpect(trace.errors.map((e) => e.kind)).toEqual(["api-error", "script-overrun"]);
    vexpect(existsSync(error.workDir!)).toBe(false);
  });

  it("fails a call to a tool Codex did not offer, naming the ones it did", async () => {
    const error = await rejection(runCodex({ prompt: "go", script: { turns: [{ tools: [{ name: "Bash", input: { command: "ls" } }] }] } }));
    vexpect(error.shortMessage).toMatch(/^codex run failed: turn 1 calls Bash, but the CLI did not offer a tool named Bash\. It offered: exec_command, .*apply_patch/);
    vexpect(error.result!.mockRun.errors[0].kind).toBe("tool-not-offered");
  });

  it("lets Codex retry a scripted API fault; the run recovers and does not fail", async () => {
    const { trace, cleanup, mockRun } = await runCodex({ prompt: "go", maxRetries: 1, script: { turns: [{ fault: "overloaded" }, { text: "recovered" }] } });
    await cleanup();
    vexpect(mockRun.faultsServed).toBe(1);
    // Codex retries a failed request silently (only a broken stream prints "Reconnecting…").
    vexpect(trace.errors).toEqual([]);
    vexpect(mockRun.requests).toHaveLength(2);
    expect(trace, [output("recovered")]);
  });

  it("kills the whole tree on timeout, leaves no process or temp dir, and returns what it saw as an incomplete trace", async () => {
    const roots = () => readdirSync(tmpdir()).filter((n) => n.startsWith("proctor-run-")).sort();
    let runningMidRun: number[] = [];
    const error = await rejection(
      runCodex({
        prompt: "go",
        timeoutMs: 4_000,
        script: {
          turns: [
            // exec_command hands back a session after yield_time_ms and leaves the command running.
            { tools: [{ name: "exec_command", input: { cmd: "sleep 297", yield_time_ms: 250 } }] },
            () => {
              runningMidRun = processesRunning(["sleep", "297"]);
              return { fault: "stall" };
            },
          ],
        },
      }),
    );
    vexpect(isProctorError(error) && error.code).toBe("TIMEOUT");
    vexpect(error.shortMessage).toMatch(/^codex run timed out after 4000 ms \(the process tree was killed\)/);
    const trace = error.result!.trace;
    vexpect(trace.complete).toBe(false);
    vexpect(trace.errors.map((e) => e.kind)).toEqual(["incomplete", "timeout"]);
    // An unhealthy run is judged by no one (expect throws RUN_UNHEALTHY); its checks still read what it recorded.
    vexpect(() => expect(trace, [toolWith("exec_command", { command: /^sleep 297/ })])).toThrow(vexpect.objectContaining({ code: "RUN_UNHEALTHY" }));
    vexpect(evalChecks(trace, [toolWith("exec_command", { command: /^sleep 297/ })]).map((r) => r.pass)).toEqual([toolWith("exec_command", { command: /^sleep 297/ })].map(() => true));
    // The sleep was still running while the model was asked for turn 2, and went with the tree.
    vexpect(runningMidRun).toHaveLength(1);
    vexpect(await gone(["sleep", "297"])).toBe(true);
    vexpect(existsSync(path.dirname(error.workDir!))).toBe(false);
    vexpect(roots()).not.toContain(path.basename(path.dirname(error.workDir!)));
  });

  it("never lets a parent credential or endpoint reach the child, the mock or a proxy", async () => {
    const CANARY = "canary-codex-4b1d";
    const trap = await startTrap();
    const { trapped, url: trapUrl } = trap;
    const raw: RawRequest[] = [];
    const mock = await startMockModel({ onRequest: (r) => raw.push(r) });
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: `sk-${CANARY}`, CODEX_API_KEY: CANARY, OPENAI_BASE_URL: trapUrl, CODEX_HOME: `/tmp/${CANARY}`, GITHUB_TOKEN: CANARY, HTTPS_PROXY: trapUrl, HTTP_PROXY: trapUrl });
    try {
      const { trace, workDir, cleanup } = await runCodex({
        mock,
        prompt: "show me your environment",
        script: { turns: [{ tools: [{ name: "exec_command", input: { cmd: "env > env.txt; ls -a ~ > home.txt" } }] }, { text: "Done." }] },
      });
      await cleanup();
      const env = trace.files?.changes.find((c) => c.path === "env.txt")?.content ?? "";
      vexpect(env).toMatch(new RegExp(`^HOME=${workDir.replace(/\/work$/, "/home")}$`, "m"));
      vexpect(env).not.toContain(CANARY);
      vexpect(trace.files?.changes.find((c) => c.path === "home.txt")?.content?.split("\n")).toContain(".codex");
      vexpect(raw.length).toBeGreaterThan(1);
      for (const r of raw) vexpect(JSON.stringify(r.headers) + r.body).not.toContain(CANARY);
      vexpect(trapped).toEqual([]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      await mock.close();
      trap.close();
    }
  });

  it("builds the child env from a scrubbed parent: no credential, no Codex setting, the mock's key under its own name", () => {
    const env = buildCodexEnv(
      { PATH: "/bin", OPENAI_API_KEY: "x", CODEX_HOME: "/elsewhere", CODEX_SANDBOX: "seatbelt", AWS_SECRET_ACCESS_KEY: "x", LANG: "C" },
      { MY_FLAG: "1" },
      { home: "/run/home", tmp: "/run/tmp", codexHome: "/run/home/.codex", apiKey: "sk-proctor-mock-1" },
    );
    vexpect(env).toMatchObject({ PATH: "/bin", LANG: "C", MY_FLAG: "1", HOME: "/run/home", CODEX_HOME: "/run/home/.codex", PROCTOR_MOCK_API_KEY: "sk-proctor-mock-1" });
    vexpect(Object.keys(env).filter((k) => /OPENAI|AWS|CODEX_SANDBOX/.test(k))).toEqual([]);
  });

  it("refuses a spec that would reach another endpoint, and a missing binary, before anything runs", async () => {
    await vexpect(runCodex({ prompt: "go", script: { turns: [{ text: "x" }] }, env: { OPENAI_BASE_URL: "https://example.com" } })).rejects.toThrow(/spec\.env sets OPENAI_BASE_URL, which the harness owns/);
    await vexpect(runCodex({ prompt: "go", script: { turns: [{ text: "x" }] }, sandbox: "yolo" as never })).rejects.toThrow(/spec\.sandbox must be one of read-only, workspace-write, danger-full-access; got "yolo"/);
    const error = await rejection(runCodex({ prompt: "go", script: { turns: [{ text: "x" }] }, codexPath: "/nonexistent/codex" }));
    vexpect(error).toMatchObject({ reason: "binary-missing", code: "BINARY_MISSING" });
    vexpect(error.message).toContain("the codex binary codexPath names is not an executable file: /nonexistent/codex");
  });

  it("answers Codex's WebSocket attempt with 426, so the built-in provider falls back to HTTP without retrying", async () => {
    // The built-in OpenAI provider pointed at the mock (what `openai_base_url` users do) tries a WebSocket first.
    const mock = await startMockModel();
    const run = mock.addResponsesRun({ turns: [{ text: "over HTTP" }] });
    try {
      const home = mkdtempSync(path.join(tmpdir(), "proctor-codex-ws-"));
      const env = buildCodexEnv(process.env, { CODEX_API_KEY: run.apiKey }, { home, tmp: home, codexHome: home, apiKey: run.apiKey });
      const proc = await runProcess(
        resolveCodexBinary(),
        ["exec", "--json", "--skip-git-repo-check", "--ephemeral", "--disable", "plugins", "--disable", "apps", "-m", "gpt-5.5", "-c", `openai_base_url="${mock.url}/v1"`, "-c", "analytics.enabled=false", "-"],
        { cwd: tmpdir(), env, input: "hi", timeoutMs: 30_000 },
      );
      const trace = readCodexJsonl(proc.stdout);
      expect(trace, [output("over HTTP")]);
      vexpect(proc.stdout).not.toContain("Reconnecting");
      vexpect(run.requests).toHaveLength(1);
      rmSync(home, { recursive: true, force: true });
    } finally {
      await mock.close();
    }
  });
});
