/**
 * runEval: everything that needs no key (key handling, refusals, arguments, environment, failure
 * reasons), then the real binary offline — the mock model standing in for the API as a gateway —
 * and, only when ANTHROPIC_API_KEY is set, a tiny eval against the real API.
 */
import { existsSync, rmSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { apiKeyMissing, buildEvalArgs, buildEvalEnv, runEval, validateEvalSpec, type RunEvalSpec } from "../../harness/index.js";
import { chooseEvalReason } from "../../harness/eval/run-eval.js";
import { startMockModel } from "../../mock-model/index.js";
import { measure, output, ProctorError, tool, type Trace } from "../../src/index.js";

const dirs = { root: "/tmp/r", workDir: "/tmp/r/work", home: "/tmp/r/home", configDir: "/tmp/r/home/.claude", tmpDir: "/tmp/r/tmp", mcpServers: [] };
const REAL_KEY = process.env.ANTHROPIC_API_KEY;

afterEach(() => vi.unstubAllEnvs());

describe("the API key", () => {
  it("is missing when unset or blank, with a message that says skipped — not passed — and why", () => {
    expect(apiKeyMissing({})).toBe("ANTHROPIC_API_KEY is not set: the real-API eval calls the Anthropic API (and costs money), so it was skipped — not passed");
    expect(apiKeyMissing({ ANTHROPIC_API_KEY: "  " })).toBeDefined();
    expect(apiKeyMissing({ ANTHROPIC_API_KEY: "sk-ant-x" })).toBeUndefined();
    expect(apiKeyMissing({}, "sk-ant-from-spec")).toBeUndefined();
  });
  it("explains that an OAuth token is not used", () => {
    expect(apiKeyMissing({ CLAUDE_CODE_OAUTH_TOKEN: "t" })).toContain("(CLAUDE_CODE_OAUTH_TOKEN is set, but evals use an API key only: the run's environment is scrubbed of every other credential)");
  });
  it("runEval refuses without one: NO_API_KEY, before anything spawns", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    const error = await runEval({ prompt: "hi", claudePath: "/nonexistent/claude" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProctorError);
    expect((error as ProctorError).code).toBe("NO_API_KEY");
    expect((error as ProctorError).message).toMatch(/^runEval: ANTHROPIC_API_KEY is not set: .* skipped — not passed\n {2}set ANTHROPIC_API_KEY \(or pass apiKey\) to run it, or use runHarness/);
  });
  it("makes measure report the eval as skipped, not failed and not passed", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    const report = await measure({ run: async () => (await runEval({ prompt: "hi" })).trace, checks: [tool("Bash")], trials: 3, progress: false });
    expect(report.skipped?.reason).toContain("ANTHROPIC_API_KEY is not set");
    expect(report.trials).toMatchObject({ ran: 0, errored: 0, skipped: 3 });
  });
  it("refuses a key with whitespace in it without echoing it", async () => {
    const error = (await runEval({ prompt: "hi", apiKey: "sk-ant-XYZZY\n" }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe("runEval: the API key contains whitespace (a stray newline from a secrets file?); strip it");
    expect(error.message).not.toContain("XYZZY");
  });
});

describe("validateEvalSpec", () => {
  it.each<[unknown, string]>([
    [{ prompt: "x", script: { turns: [] } }, "runEval: spec.script has no place in a real-API run: the real model answers (for a scripted, offline run use runHarness)"],
    [{ prompt: "x", mock: {} }, "runEval: spec.mock has no place in a real-API run"],
    [{ prompt: "x", env: { ANTHROPIC_API_KEY: "k" } }, "runEval: spec.env sets ANTHROPIC_API_KEY: the key goes in apiKey, the endpoint in baseUrl"],
    [{ prompt: "x", maxBudgetUsd: 0 }, "runEval: spec.maxBudgetUsd must be a positive number of dollars (the per-run cost cap); got 0"],
    [{ prompt: "x", baseUrl: "localhost:8080" }, 'runEval: spec.baseUrl must be an http(s) URL; got "localhost:8080"'],
    [{ prompt: "" }, "runEval: spec.prompt must be a non-empty string"],
    [{ prompt: "x", maxTurn: 3 }, 'runEval: spec.maxTurn is not a field of a harness spec'],
    ["x", "runEval: the spec must be an object like { prompt }"],
  ])("refuses %j", (spec, message) => {
    expect(() => validateEvalSpec(spec)).toThrow(message);
  });
  it("accepts a plain spec", () => {
    expect(() => validateEvalSpec({ prompt: "x", model: "haiku", maxTurns: 2, maxBudgetUsd: 0.1, apiKey: "k" })).not.toThrow();
  });
});

describe("buildEvalArgs / buildEvalEnv", () => {
  it("runs claude headless with stream-json and a per-run cost cap (default $1) before the user's own args", () => {
    const args = buildEvalArgs({ prompt: "x", model: "haiku", maxTurns: 4, args: ["--append-system-prompt", "be brief"] }, dirs, "/w");
    expect(args.slice(0, 4)).toEqual(["-p", "--output-format", "stream-json", "--verbose"]);
    expect(args).toEqual(expect.arrayContaining(["--model", "haiku", "--max-turns", "4"]));
    expect(args.slice(-4)).toEqual(["--max-budget-usd", "1", "--append-system-prompt", "be brief"]);
    expect(buildEvalArgs({ prompt: "x", maxBudgetUsd: 0.05 }, dirs, "/w").slice(-2)).toEqual(["--max-budget-usd", "0.05"]);
  });
  it("gives the run only its own key: every other credential and config pointer is scrubbed", () => {
    const parent = { PATH: "/bin", ANTHROPIC_API_KEY: "parent-key", ANTHROPIC_AUTH_TOKEN: "t", CLAUDE_CODE_OAUTH_TOKEN: "o", AWS_SECRET_ACCESS_KEY: "a", GITHUB_TOKEN: "g", HOME: "/root", ANTHROPIC_BASE_URL: "http://elsewhere" };
    const env = buildEvalEnv(parent, { prompt: "x", env: { MY_FLAG: "1" } } as RunEvalSpec, dirs, "the-key");
    expect(env).toMatchObject({ PATH: "/bin", MY_FLAG: "1", ANTHROPIC_API_KEY: "the-key", HOME: "/tmp/r/home", CLAUDE_CONFIG_DIR: "/tmp/r/home/.claude", CLAUDE_CODE_MAX_RETRIES: "4" });
    for (const gone of ["ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "ANTHROPIC_BASE_URL"]) expect(env).not.toHaveProperty(gone);
    expect(buildEvalEnv(parent, { prompt: "x", baseUrl: "https://gw.example" }, dirs, "k").ANTHROPIC_BASE_URL).toBe("https://gw.example");
  });
});

describe("chooseEvalReason", () => {
  const proc = { exitCode: 0, signal: null, stdout: "", stderr: "", timedOut: false, aborted: false, durationMs: 1 };
  const trace = { complete: true, errors: [] } as unknown as Trace;
  it.each([
    [{}, {}, undefined],
    [{ timedOut: true }, {}, "timed-out"],
    [{ aborted: true }, {}, "killed"],
    [{}, { outcome: { subtype: "success", isError: true, apiErrorStatus: 529 } }, "api-fault"],
    [{}, { complete: false }, "crashed"],
    [{}, { outcome: { subtype: "error_max_turns", isError: true } }, undefined], // the agent's own ending, for the checks to judge
  ])("%j %j → %s", (p, t, reason) => {
    expect(chooseEvalReason({ ...proc, ...p }, { ...trace, ...t } as Trace)).toBe(reason);
  });
});

describe("runEval through the real binary (offline: the mock model as the API gateway)", () => {
  const mock = startMockModel({ unref: true });
  afterAll(async () => (await mock).close?.());

  it("returns an eval-sourced Trace with usage and cost from the result line", async () => {
    const server = await mock;
    const run = server.addRun({ turns: [{ text: "pong", usage: { inputTokens: 120, outputTokens: 8 } }] });
    const result = await runEval({ prompt: "say pong", apiKey: run.apiKey, baseUrl: server.url, maxTurns: 2, maxBudgetUsd: 0.25, timeoutMs: 60_000 });
    try {
      expect(result.trace.source.kind).toBe("eval");
      expect(result.trace.output).toBe("pong");
      expect(result.trace.usage).toMatchObject({ inputTokens: 120, outputTokens: 8 });
      expect(result.trace.usage!.costUsd).toBeGreaterThan(0);
      expect(result.command).toEqual(expect.arrayContaining(["--max-budget-usd", "0.25"]));
      expect(result.command.join(" ")).not.toContain(run.apiKey);
    } finally {
      await result.cleanup();
      run.remove();
    }
  });

  it("runs unsandboxed by default; sandbox: { allowedDomains } turns claude's sandbox on, and a write outside the trial is denied by it", async () => {
    const server = await mock;
    const outside = `/tmp/proctor-eval-escape-${process.pid}`;
    const script = { turns: [{ tools: [{ name: "Bash", input: { command: `node -e 'require("fs").writeFileSync("${outside}", "x")'` } }] }, { text: "Done." }] };
    const off = server.addRun(script);
    const on = server.addRun(script);
    const plain = await runEval({ prompt: "go", apiKey: off.apiKey, baseUrl: server.url, allowedTools: ["Bash"], timeoutMs: 60_000 });
    const boxed = await runEval({ prompt: "go", apiKey: on.apiKey, baseUrl: server.url, allowedTools: ["Bash"], sandbox: { allowedDomains: ["registry.npmjs.org"] }, timeoutMs: 60_000 });
    try {
      expect(plain.trace.outsideWrites?.sandbox).toEqual({ on: false, reason: expect.stringMatching(/real tier runs unsandboxed/) });
      expect(plain.trace.toolCalls[0]?.status).toBe("success");
      expect(existsSync(outside)).toBe(true);
      rmSync(outside, { force: true });
      expect(boxed.trace.outsideWrites?.sandbox).toEqual({ on: true });
      expect(boxed.trace.toolCalls[0]).toMatchObject({ status: "denied", deniedBy: "sandbox" });
      expect(existsSync(outside)).toBe(false);
    } finally {
      rmSync(outside, { force: true });
      await plain.cleanup();
      await boxed.cleanup();
      off.remove();
      on.remove();
    }
  }, 180_000);

  it("names a refused key as the cause of a 401", async () => {
    const server = await mock;
    const run = server.addRun({ turns: [{ fault: { status: 401, type: "authentication_error", message: "invalid x-api-key" } }] });
    const error = (await runEval({ prompt: "hi", apiKey: run.apiKey, baseUrl: server.url, maxRetries: 0, timeoutMs: 60_000 }).catch((e: unknown) => e)) as ProctorError & { reason: string };
    run.remove();
    expect(error.reason).toBe("api-fault");
    expect(error.message).toMatch(/^claude run failed with an API error: .*Invalid API key.* — the API key was refused: check ANTHROPIC_API_KEY/);
  });
});

describe("runEval against the real API", () => {
  // The one honest skip: without a key there is no real API to measure. It shows as skipped.
  it.skipIf(!REAL_KEY)("runs a tiny eval and reports its real cost", async () => {
    const report = await measure({
      run: async (_i, ctx) => {
        const r = await runEval({ prompt: "Reply with exactly one word: pong", model: "haiku", maxTurns: 1, maxBudgetUsd: Math.min(0.05, ctx.budgetLeftUsd ?? 0.05), allowedTools: [], timeoutMs: 120_000 });
        await r.cleanup();
        return r.trace;
      },
      checks: [output(/pong/i)],
      trials: 1,
      budget: { maxUsd: 0.1 },
      progress: false,
    });
    expect(report.errors).toEqual([]);
    expect(report.usage.costUsd).toBeGreaterThan(0);
    expect(report.metadata.models.length).toBe(1);
    expect(report.checks[0].n).toBe(1);
  }, 180_000);
});
