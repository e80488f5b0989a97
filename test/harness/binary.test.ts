/** Finding the binary, and the failures a broken binary produces (tiny fake executables stand in for claude). */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HarnessError, resolveClaudeBinary, runHarness } from "../../harness/index.js";
import { isProctorError } from "../../src/index.js";
import { processGone } from "./helpers.js";

const dir = mkdtempSync(path.join(tmpdir(), "proctor-binary-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function executable(file: string, body: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function failure(promise: Promise<unknown>): Promise<HarnessError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error("expected a HarnessError");
}

const script = { turns: [{ text: "hi" }] };

describe("resolveClaudeBinary", () => {
  it("prefers an explicit path, then PROCTOR_CLAUDE, then node_modules/.bin above the cwd, then PATH", () => {
    const explicit = executable(path.join(dir, "explicit", "claude"), "exit 0");
    const fromEnv = executable(path.join(dir, "env", "claude"), "exit 0");
    const project = path.join(dir, "project", "pkg");
    mkdirSync(project, { recursive: true });
    const local = executable(path.join(dir, "project", "node_modules", ".bin", "claude"), "exit 0");
    const onPath = executable(path.join(dir, "bin", "claude"), "exit 0");
    const nowhere = path.join(dir, "nowhere");
    mkdirSync(nowhere, { recursive: true });
    const env = { PROCTOR_CLAUDE: fromEnv, PATH: path.join(dir, "bin") };
    expect(resolveClaudeBinary({ claudePath: explicit, cwd: project, env, packageDir: nowhere })).toBe(explicit);
    expect(resolveClaudeBinary({ cwd: project, env, packageDir: nowhere })).toBe(fromEnv);
    expect(resolveClaudeBinary({ cwd: project, env: { PATH: env.PATH }, packageDir: nowhere })).toBe(local);
    expect(resolveClaudeBinary({ cwd: nowhere, env: { PATH: env.PATH }, packageDir: nowhere })).toBe(onPath);
  });

  it("finds the package's own node_modules/.bin/claude when the cwd has none", () => {
    const found = resolveClaudeBinary({ cwd: path.join(dir), env: { PATH: "" } });
    expect(found.endsWith(path.join("node_modules", ".bin", "claude"))).toBe(true);
  });

  it("says how to install it when there is none", () => {
    const nowhere = path.join(dir, "empty");
    mkdirSync(nowhere, { recursive: true });
    try {
      resolveClaudeBinary({ cwd: nowhere, env: { PATH: "" }, packageDir: nowhere });
      expect.unreachable();
    } catch (error) {
      expect(isProctorError(error) && error.code).toBe("BINARY_MISSING");
      expect((error as Error).message).toContain("npm i -D @anthropic-ai/claude-code");
      expect((error as Error).message).toContain("PROCTOR_CLAUDE=/path/to/claude");
    }
  });
});

describe("runHarness with a missing or broken binary", () => {
  it("fails with BINARY_MISSING naming the bad claudePath, before anything is created", async () => {
    const error = await failure(runHarness({ prompt: "go", script, claudePath: path.join(dir, "no-such-claude") }));
    expect(error.code).toBe("BINARY_MISSING");
    expect(error.reason).toBe("binary-missing");
    expect(error.message).toMatch(/the claude binary claudePath names is not an executable file: .*no-such-claude/);
    expect(error.message).toContain("npm i -D @anthropic-ai/claude-code");
  });

  it("names PROCTOR_CLAUDE when that is what points nowhere", async () => {
    const saved = process.env.PROCTOR_CLAUDE;
    process.env.PROCTOR_CLAUDE = path.join(dir, "gone", "claude");
    try {
      const error = await failure(runHarness({ prompt: "go", script }));
      expect(error.message).toMatch(/the claude binary PROCTOR_CLAUDE names is not an executable file/);
    } finally {
      if (saved === undefined) delete process.env.PROCTOR_CLAUDE;
      else process.env.PROCTOR_CLAUDE = saved;
    }
  });

  it("reports a crash: exit code, stderr tail, and an incomplete trace", async () => {
    const crash = executable(path.join(dir, "crash", "claude"), 'echo "fatal: out of cheese" >&2\nexit 3');
    const error = await failure(runHarness({ prompt: "go", script, claudePath: crash }));
    expect(error).toMatchObject({ reason: "crashed", code: "RUN_FAILED", exitCode: 3, timedOut: false });
    expect(error.shortMessage).toMatch(/^claude run ended without a result \(exit code 3\): .*crash\/claude -p --output-format stream-json/);
    expect(error.message).toContain("stderr (tail):\n    fatal: out of cheese");
    expect((error.result as { trace: { complete: boolean } }).trace.complete).toBe(false);
  });

  it("kills a hung binary and its children at the timeout, keeping what it printed", async () => {
    const pidFile = path.join(dir, "hung.pid");
    const line = JSON.stringify({ type: "assistant", message: { id: "m1", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] }, parent_tool_use_id: null });
    const hung = executable(path.join(dir, "hung", "claude"), `echo '${line}'\nsleep 300 &\necho $! > ${pidFile}\nwait`);
    // Unjailed: the pid file lies outside the trial, and the pid must be the host's.
    const error = await failure(runHarness({ prompt: "go", script, claudePath: hung, timeoutMs: 500, sandbox: { off: "the fake binary writes its child's host pid outside the trial" } }));
    expect(error).toMatchObject({ reason: "timed-out", code: "TIMEOUT", timedOut: true });
    const trace = (error.result as { trace: { complete: boolean; toolCalls: { name: string; status: string }[] } }).trace;
    expect(trace.complete).toBe(false);
    expect(trace.toolCalls).toEqual([expect.objectContaining({ name: "Bash", status: "pending" })]);
    const child = Number(readFileSync(pidFile, "utf8"));
    expect(await processGone(child)).toBe(true);
  });

  it("in the jail (the default) too: the hung binary's children are gone at the timeout", async () => {
    const marker = `proctor-hung-${process.pid}-${Date.now()}`;
    const line = JSON.stringify({ type: "assistant", message: { id: "m1", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] }, parent_tool_use_id: null });
    // The child's argv[0] is the marker: found (or not) in the host's /proc whatever its pid namespace.
    const hung = executable(path.join(dir, "hung-jailed", "claude"), `echo '${line}'\nbash -c 'exec -a ${marker} sleep 300' &\nwait`);
    const error = await failure(runHarness({ prompt: "go", script, claudePath: hung, timeoutMs: 3000 }));
    expect(error).toMatchObject({ reason: "timed-out", code: "TIMEOUT", timedOut: true });
    const alive = () =>
      readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, "utf8").startsWith(marker);
          } catch {
            return false;
          }
        });
    for (let i = 0; alive().length > 0 && i < 1000; i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive()).toEqual([]);
  });

  it("reports an aborted run as killed", async () => {
    const slow = executable(path.join(dir, "slow", "claude"), "sleep 300");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await failure(runHarness({ prompt: "go", script, claudePath: slow, signal: controller.signal }));
    expect(error.reason).toBe("killed");
    expect(error.shortMessage).toMatch(/^claude run was aborted/);
  });

  it("rejects a bad spec naming the field and the value", async () => {
    await expect(runHarness({ prompt: "", script } as never)).rejects.toThrow(/^runHarness: spec\.prompt must be a non-empty string; got "" \(string\)/);
    await expect(runHarness({ prompt: "go", script, timeout: 5 } as never)).rejects.toThrow(/spec\.timeout is not a field of a harness spec/);
    await expect(runHarness({ prompt: "go", script, files: { "../x": "" } })).rejects.toThrow(/must be a path inside the work dir/);
    await expect(runHarness({ prompt: "go", script: { turns: [{}] } })).rejects.toThrow(/turns\[0\]: a turn needs text/);
    await expect(runHarness({ prompt: "go", script, env: { ANTHROPIC_BASE_URL: "https://api.anthropic.com" } })).rejects.toThrow(/spec\.env sets ANTHROPIC_BASE_URL, which the harness owns/);
  });
});
