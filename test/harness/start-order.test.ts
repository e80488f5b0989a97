/**
 * What a run does around the CLI's start: an inline script is checked once the CLI is started
 * (the check is most of a fresh process's work before the start), so a bad one must still end
 * the run with nothing left — no process, no temp dir, kept or not — and still wins over a
 * missing binary; and the shared mock is warmed while the CLI boots, on its own key, unseen by
 * the run.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { warmUp } from "../../mock-model/server/warm.js";
import { startMockModel } from "../../mock-model/index.js";
import { isProctorError } from "../../src/index.js";
import { processGone } from "./helpers.js";

const dir = mkdtempSync(path.join(tmpdir(), "proctor-start-order-test-"));
/** The runs' temp roots go here (TMPDIR), so the test sees exactly what they leave. */
const runsTmp = path.join(dir, "tmp");
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  mkdirSync(runsTmp);
  process.env.TMPDIR = runsTmp;
});
afterAll(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(dir, { recursive: true, force: true });
});

/** A stand-in claude that records its pid, then waits: it never exits by itself. */
function waitingClaude(): { binary: string; pidFile: string } {
  const pidFile = path.join(dir, `claude-${Math.random().toString(36).slice(2)}.pid`);
  const binary = path.join(dir, `claude-${Math.random().toString(36).slice(2)}`);
  writeFileSync(binary, `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 300\n`);
  chmodSync(binary, 0o755);
  return { binary, pidFile };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isProctorError(error) ? error.code : `not a ProctorError: ${String(error)}`;
  }
  return undefined;
}

describe("an inline script checked once the CLI is started", () => {
  it.each([false, true])("a bad one (keep: %s) is SCRIPT_INVALID, at once, and leaves no process and no temp dir", async (keep) => {
    const { binary, pidFile } = waitingClaude();
    const started = performance.now();
    const code = await codeOf(runHarness({ prompt: "go", script: { turns: [{}] } as never, claudePath: binary, keep, timeoutMs: 20_000 }));
    expect(code).toBe("SCRIPT_INVALID");
    // Killed at once, not at the timeout.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(readdirSync(runsTmp)).toEqual([]);
    let pid: number | undefined;
    try {
      pid = Number(readFileSync(pidFile, "utf8"));
    } catch {
      pid = undefined; // killed before its first line ran
    }
    if (pid !== undefined) expect(await processGone(pid)).toBe(true);
  });

  it("names the problem with its path, as the check before the start did", async () => {
    await expect(runHarness({ prompt: "go", script: { turns: [{ text: "hi" }, { tools: [{}] }] } as never, claudePath: waitingClaude().binary })).rejects.toThrow(
      /turns\[1\]\.tools\[0\]: missing required field "name"/,
    );
    expect(readdirSync(runsTmp)).toEqual([]);
  });

  it("a bad one still fails first when the binary is missing too", async () => {
    expect(await codeOf(runHarness({ prompt: "go", script: { turns: [{}] } as never, claudePath: path.join(dir, "no-such-claude") }))).toBe("SCRIPT_INVALID");
    expect(await codeOf(runHarness({ prompt: "go", script: { turns: [{ text: "hi" }] }, claudePath: path.join(dir, "no-such-claude") }))).toBe("BINARY_MISSING");
  });
});

describe("warmUp", () => {
  it("answers the CLI's first two requests for real (a health check, a streamed tool call), then drops its run", async () => {
    const answers: { method: string; url: string; status: number }[] = [];
    const mock = await startMockModel({ onAnswer: (a) => answers.push({ method: a.method, url: a.url, status: a.status }) });
    try {
      await warmUp(mock);
      expect(answers).toEqual([
        { method: "HEAD", url: "/", status: 200 },
        { method: "POST", url: "/v1/messages?beta=true", status: 200 },
      ]);
      const health = (await (await fetch(`${mock.url}/health`)).json()) as { runs: number };
      expect(health.runs).toBe(0);
    } finally {
      await mock.close();
    }
  });

  it("never rejects, even when the server is gone", async () => {
    const mock = await startMockModel();
    await mock.close();
    await expect(warmUp(mock)).resolves.toBeUndefined();
  });
});
