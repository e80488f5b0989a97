/**
 * The same `claude plugin eval` suite (test/fixtures/plugin-eval/greeter: six grader types, both
 * arms) run by proctor on the mock tier and by `claude plugin eval` itself, offline against
 * `proctor mock serve`: every case scores the same in both.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { resolveClaudeBinary } from "../../harness/claude/binary.js";
import { startMockServe } from "../../harness/plugin-eval/serve.js";
import { suiteTier } from "../../harness/plugin-eval/trial.js";
import { exportPluginEvalSuite } from "../../cli/commands/export-suite.js";
import { readPluginEvalSuite } from "../../src/plugin-eval/read.js";
import { runPluginEvalSuite } from "../../src/plugin-eval/run-suite.js";
import { atLeast } from "../helpers/claude-version.js";

const FIXTURE = new URL("../fixtures/plugin-eval/greeter", import.meta.url).pathname;
/** A plugin whose MCP server the suite mocks (fixed answers, an expect guard, a tool error, an agent-played server), plus baseline graders. */
const TRACKER = new URL("../fixtures/plugin-eval/tracker", import.meta.url).pathname;
const TRACKER_SCORES = {
  "file-bug": { score: 1, scoreWithout: 0, delta: 1 },
  "flaky-api": { score: 1, scoreWithout: 0, delta: 1 },
  report: { score: 0.5, scoreWithout: 0, delta: 0.5 },
  triage: { score: 1, scoreWithout: 0, delta: 1 },
  "wrong-project": { score: 0, scoreWithout: 1, delta: -1 },
};
const EXPORTED = new URL("../fixtures/plugin-eval/export/greet.eval.mjs", import.meta.url).pathname;
const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

type Aggregates = { score: number; scoreWithout?: number; delta?: number };

/** `claude plugin eval` on a plugin dir against a mock serve; its aggregate-result.json. */
async function claudePluginEval(pluginDir: string, baseUrl: string, extra: string[] = []): Promise<{ cases: { name: string; aggregates: Aggregates }[]; exitCode: number | undefined; output: string }> {
  const home = temp("proctor-cpe-home-");
  const out = join(temp("proctor-cpe-out-"), "results");
  const result = await execa(resolveClaudeBinary(), ["plugin", "eval", pluginDir, "--trust-plugin", "--no-publish", "--output-dir", out, ...extra], {
    cwd: pluginDir,
    env: { HOME: home, CLAUDE_CONFIG_DIR: join(home, ".claude"), PATH: process.env.PATH ?? "/usr/bin:/bin", ANTHROPIC_API_KEY: "mock", ANTHROPIC_BASE_URL: baseUrl, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", CLAUDE_CODE_MAX_RETRIES: "1" },
    extendEnv: false,
    reject: false,
    timeout: 480_000,
  });
  const output = `${result.stdout}\n${result.stderr}`;
  let parsed: { cases: { name: string; aggregates: Aggregates }[] };
  try {
    parsed = JSON.parse(readFileSync(join(out, "aggregate-result.json"), "utf8"));
  } catch {
    throw new Error(`claude plugin eval wrote no aggregate-result.json (exit ${result.exitCode}):\n${output.slice(-3000)}`);
  }
  return { cases: parsed.cases, exitCode: result.exitCode, output };
}

describe("claude plugin eval suites", () => {
  it("proctor runs a suite's case on the mock tier, both arms, on the claude under test (every version)", async () => {
    const suite = readPluginEvalSuite(join(FIXTURE, "evals"));
    const hello = { ...suite, cases: suite.cases.filter((c) => c.case.name === "hello") };
    const tier = suiteTier(hello, { tier: "mock" });
    const outcome = await runPluginEvalSuite(hello, { runTrial: tier.runTrial, judge: tier.judge, ablation: true, runs: 1 });
    // With the plugin the skill launches (the trace shows it); without, it cannot.
    expect(outcome.cases[0]?.aggregates).toEqual({ score: 1, passRate: 1, scoreWithout: 0.75, passRateWithout: 0, delta: 0.25 });
  }, 300_000);

  it.runIf(atLeast("2.1.332"))(
    "proctor run and claude plugin eval (offline on proctor mock serve) score every case the same, both arms (claude ≥ 2.1.332)",
    async () => {
      const pluginDir = join(temp("proctor-cpe-plugin-"), "greeter");
      cpSync(FIXTURE, pluginDir, { recursive: true });
      const suite = readPluginEvalSuite(join(pluginDir, "evals"));
      const server = await startMockServe({ suite });
      try {
        const tier = suiteTier(suite, { tier: "mock", allowTools: ["Write"] });
        const [ours, theirs] = await Promise.all([
          runPluginEvalSuite(suite, { runTrial: tier.runTrial, judge: tier.judge, ablation: true, runs: 1 }),
          claudePluginEval(pluginDir, server.url, ["--runs", "1", "--allow-tools", "Write"]),
        ]);
        const pick = (a: Aggregates) => ({ score: a.score, scoreWithout: a.scoreWithout, delta: a.delta });
        const proctorScores = Object.fromEntries(ours.cases.map((c) => [c.case.case.name, pick(c.aggregates)]));
        const claudeScores = Object.fromEntries(theirs.cases.map((c) => [c.name, pick(c.aggregates)]));
        expect(proctorScores, theirs.output.slice(-3000)).toEqual(claudeScores);
        // Not a vacuous agreement: the arms differ, and one case falls short of 1.
        expect(proctorScores.hello).toEqual({ score: 1, scoreWithout: 0.75, delta: 0.25 });
        expect(proctorScores.notes?.score).toBeCloseTo(3 / 3.5, 12);
        // Every session of the binary's runs got a case's script.
        expect([...server.sessions.values()].filter((c) => c.startsWith("("))).toEqual([]);
      } finally {
        await server.close();
      }
    },
    900_000,
  );

  it("proctor runs a suite with MCP mocks: stand-ins answer in the real server's place, an expect violation aborts the run (every version)", async () => {
    const suite = readPluginEvalSuite(join(TRACKER, "evals"));
    const tier = suiteTier(suite, { tier: "mock" });
    try {
      expect(tier.mocks).toMatchObject({ servers: ["tickets"], withheld: [] });
      const outcome = await runPluginEvalSuite(suite, { runTrial: tier.runTrial, judge: tier.judge, ablation: true, runs: 1 });
      const scores = Object.fromEntries(outcome.cases.map((c) => [c.case.case.name, { score: c.aggregates.score, scoreWithout: c.aggregates.scoreWithout, delta: c.aggregates.delta }]));
      expect(scores).toEqual(TRACKER_SCORES);
      const byName = (name: string) => outcome.cases.find((c) => c.case.case.name === name);
      expect(byName("wrong-project")?.arms.with[0]).toMatchObject({ score: 0, graders: [], aborted: { server: "tickets", tool: "create_issue", reason: `the model's call violates expect: project = "OPS" is not "WEB"` } });
      // The stand-in answered: the real server (which exits at once) would have failed the health gate.
      const fileBug = byName("file-bug")?.arms.with[0];
      expect(fileBug?.graders.map((g) => [g.name, g.passed, g.scored])).toEqual([
        ["answered-ok", true, false],
        ["filed", true, true],
        ["no-tool-errors", true, true],
        ["ticket-key", true, false],
      ]);
      expect(byName("file-bug")?.arms.without?.[0]?.graders.find((g) => g.name === "no-tool-errors")?.explanation).toMatch(/no mock stand-ins were active/);
      // A baseline grader: the judge compares the trace with the recording; an unreadable recording fails it.
      expect(byName("report")?.arms.with[0]?.graders.map((g) => [g.name, g.passed, g.explanation.split(":")[0]])).toEqual([
        ["as-good-as-before", true, "judge votes"],
        ["against-a-lost-recording", false, "failed to read baseline"],
      ]);
    } finally {
      tier.close();
    }
  }, 300_000);

  it.runIf(atLeast("2.1.332"))(
    "a suite with MCP mocks scores the same in proctor run and in claude plugin eval on proctor mock serve (claude ≥ 2.1.332)",
    async () => {
      const pluginDir = join(temp("proctor-cpe-mocks-"), "tracker");
      cpSync(TRACKER, pluginDir, { recursive: true });
      const suite = readPluginEvalSuite(join(pluginDir, "evals"));
      const server = await startMockServe({ suite });
      const tier = suiteTier(suite, { tier: "mock" });
      try {
        const [ours, theirs] = await Promise.all([runPluginEvalSuite(suite, { runTrial: tier.runTrial, judge: tier.judge, ablation: true, runs: 1 }), claudePluginEval(pluginDir, server.url, ["--runs", "1"])]);
        const pick = (a: Aggregates) => ({ score: a.score, scoreWithout: a.scoreWithout, delta: a.delta });
        const proctorScores = Object.fromEntries(ours.cases.map((c) => [c.case.case.name, pick(c.aggregates)]));
        const claudeScores = Object.fromEntries(theirs.cases.map((c) => [c.name, pick(c.aggregates)]));
        expect(claudeScores, theirs.output.slice(-3000)).toEqual(TRACKER_SCORES);
        expect(proctorScores).toEqual(claudeScores);
        // claude's own stand-in ended the same run for the same reason.
        expect(theirs.output).toContain(`aborted by mock tickets/create_issue: the model's call violates expect: project = "OPS" is not "WEB"`);
      } finally {
        tier.close();
        await server.close();
      }
    },
    900_000,
  );

  it.runIf(atLeast("2.1.332"))(
    "proctor export claude-plugin-eval writes a suite claude plugin eval accepts and runs offline, with the checks as graders (claude ≥ 2.1.332)",
    async () => {
      const pluginDir = join(temp("proctor-cpe-export-"), "greeter");
      cpSync(FIXTURE, pluginDir, { recursive: true, filter: (src) => !src.includes("/evals") });
      const evalDir = join(pluginDir, "evals");
      expect(await exportPluginEvalSuite([EXPORTED], evalDir)).toBe(0);
      const suite = readPluginEvalSuite(evalDir);
      expect(suite.cases.map((c) => c.case.graders.map((g) => `${g.type}:${g.name}`))).toEqual([["tool_used:skill-greet", "regex:output-hello-bea", "tool_used:nottool-bash", "tool_used:toolcount-skill-max-1"]]);
      const server = await startMockServe({ suite });
      try {
        const theirs = await claudePluginEval(pluginDir, server.url);
        expect(theirs.cases.map((c) => [c.name, c.aggregates.score, c.aggregates.scoreWithout]), theirs.output.slice(-3000)).toEqual([["greets Bea", 1, 1]]);
        expect(theirs.exitCode).toBe(0);
      } finally {
        await server.close();
      }
    },
    600_000,
  );
});
