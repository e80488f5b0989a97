/**
 * The exit code, the console, the JSON report and the JUnit file always agree on an eval's
 * verdict — ablated or not, whatever each arm's passes, failures, errors and unhealthy trials,
 * with or without an early stop, a budget cut or a skip. Generated evals run through runEvals
 * (the pipeline `proctor run` uses) with a tier that hands back traces by the generated plan; the
 * four renderings are read back and held to an independent oracle: a brute-force statement of
 * the rule over the reports' raw counts.
 *
 * Every trace of the arm without the plugin lacks the plugin's skill `tidy`, which a check names:
 * the oracle also holds that this never errors a trial (it is what ablation removes).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { defineEval, runEvals, skill, tool, validateCheckReport, type CheckReport, type EvalTiers, type Trace } from "../../src/index.js";
import { ConfigError } from "../../src/errors/proctor-error.js";
import { reportsVerdict } from "../../src/measure/ablation-verdict.js";
import { reportSuites } from "../../reporters/junit/from-reports.js";
import { buildJunitXml } from "../../reporters/junit/xml.js";
import { renderRunSummary } from "../../reporters/summary/run-summary.js";
import { runExitCode } from "../../cli/commands/run.js";
import { parseJunit } from "../reporters/helpers.js";
import { proctor } from "../helpers/cli.js";
import { makeTrace } from "../helpers/trace.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 150);
const dir = mkdtempSync(join(tmpdir(), "proctor-ablation-verdict-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const plugin = join(dir, "tidy-plugin");
mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
mkdirSync(join(plugin, "skills", "tidy"), { recursive: true });
writeFileSync(join(plugin, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "tidy-plugin" }));
writeFileSync(join(plugin, "skills", "tidy", "SKILL.md"), "---\nname: tidy\ndescription: Tidy up.\n---\nTidy.");

type Outcome = "pass" | "fail" | "error" | "unhealthy";
const COST = { costUsd: 0.02, durationMs: 10, inputTokens: 1, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0 };

/** One trial's Trace: with the plugin its skill resolves; without it claude lists no such skill and the Skill call fails. */
function trace(withPlugin: boolean, outcome: Outcome): Trace {
  if (outcome === "error") throw new Error("claude run timed out");
  if (outcome === "unhealthy") return makeTrace({ complete: false, usage: COST });
  const calls = [{ name: "Skill", input: { skill: "tidy" }, status: withPlugin ? ("success" as const) : ("failure" as const) }, { name: outcome === "pass" ? "Bash" : "Read", input: {} }];
  return makeTrace({
    calls,
    skills: [{ name: withPlugin ? "tidy-plugin:tidy" : "tidy", callIndex: 0, agent: "main", status: withPlugin ? "success" : "failure" }],
    source: { kind: "synthetic", cwd: "/work", skills: withPlugin ? ["tidy-plugin:tidy"] : ["other"] },
    usage: COST,
  });
}

const plan = fc.record({
  trials: fc.integer({ min: 1, max: 8 }),
  with: fc.array(fc.constantFrom<Outcome>("pass", "pass", "fail", "error", "unhealthy"), { minLength: 8, maxLength: 8 }),
  without: fc.array(fc.constantFrom<Outcome>("pass", "fail", "fail", "error", "unhealthy"), { minLength: 8, maxLength: 8 }),
  ablated: fc.boolean(),
  earlyStop: fc.boolean(),
  budget: fc.constantFrom(undefined, undefined, 0.03, 0.07),
  skipped: fc.constantFrom(false, false, false, false, true),
  min: fc.constantFrom(0.5, 1),
  maxErrored: fc.constantFrom(0, 0, 1, 3),
  concurrency: fc.integer({ min: 1, max: 3 }),
});

/** Trial indices a report ran, from its half-open ranges. */
const ran = (r: CheckReport) => r.trials.ranges.flatMap(([a, b]) => Array.from({ length: b - a }, (_, i) => a + i));
/** Cut short by something other than a decided early stop (budget, abort): trials it was meant to run never ran. */
const cut = (r: CheckReport) => r.stopped !== undefined && r.stopped.reason !== "early-stop" && r.trials.skipped > 0;

/** The rule, stated brute force over raw counts: every gated rate at its minimum, evidence in every arm, nothing cut short. */
function oracle(w: CheckReport, o: CheckReport | undefined, min: number, maxErrored: number): "passed" | "failed" | "incomplete" | "skipped" {
  if (w.skipped) return "skipped";
  let failed = w.trials.completed === 0 || w.trials.errored > maxErrored;
  for (const c of w.checks) if (c.n === 0 || c.passes / c.n < min) failed = true;
  if (o) failed ||= Boolean(o.skipped) || o.trials.completed === 0 || o.trials.errored > maxErrored;
  if (failed) return "failed";
  return cut(w) || (o !== undefined && cut(o)) ? "incomplete" : "passed";
}

describe("exit code, console, JSON and JUnit agree on every verdict", () => {
  it("over generated arms (pass / fail / error / unhealthy trials, early stop, budget cut, skip)", async () => {
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        const tiers: EvalTiers = {
          mock: {
            run: async (spec, context) => {
              if (p.skipped) throw new ConfigError("NO_API_KEY", "ANTHROPIC_API_KEY is not set");
              const withPlugin = (spec.plugins ?? []).length > 0;
              return trace(withPlugin, (withPlugin ? p.with : p.without)[context.trial] as Outcome);
            },
          },
        };
        const definition = defineEval({
          name: "tidy",
          mock: { prompt: "tidy up", plugins: [plugin], script: { turns: [] } },
          checks: [tool("Bash"), skill("tidy")],
          trials: p.trials,
          concurrency: p.concurrency,
          thresholds: { min: p.min, maxErrored: p.maxErrored },
          ...(p.ablated ? { ablate: "plugin:tidy-plugin" } : {}),
          ...(p.earlyStop ? { earlyStop: { minTrials: 1, confidence: 0.5 } } : {}),
          ...(p.budget !== undefined ? { budget: { maxUsd: p.budget } } : {}),
        });
        const [outcome] = await runEvals([definition], { tiers, progress: false });
        const o = outcome!;
        const w = o.report!;
        const reports = [w, ...(o.without ? [o.without] : [])];
        expect(Boolean(o.without)).toBe(p.ablated);
        const expected = oracle(w, o.without, p.min, p.maxErrored);

        // The arm without the plugin errs only where the plan says: its missing skill is expected.
        if (o.without && !o.without.skipped) {
          const planned = ran(o.without).filter((i) => p.without[i] === "error" || p.without[i] === "unhealthy").length;
          expect(o.without.trials.errored).toBe(planned);
          expect(o.without.health?.items["skills-loaded"]).toBeUndefined();
        }

        // 1. The outcome and the exit code.
        expect(o.status).toBe(expected);
        expect(runExitCode([o])).toBe(expected === "passed" ? 0 : 1);

        // 2. The console: the eval's mark and the tally.
        const summary = renderRunSummary([o], { colour: false });
        const mark = { passed: "✓", failed: "✗", incomplete: "◌", skipped: "⊘" }[expected];
        expect(summary.startsWith(`${mark} tidy`)).toBe(true);
        expect(summary).toContain(`1 eval: ${expected === "passed" ? "1 passed" : `0 passed, 1 ${expected}`}`);
        if (o.without && !w.skipped) {
          // Each arm's evidence is on the console, with its health and errors.
          expect(summary).toMatch(new RegExp(`with +${w.trials.completed}/${w.trials.ran} trials evaluated`));
          expect(summary).toMatch(new RegExp(`without +${o.without.trials.completed}/${o.without.trials.ran} trials evaluated · (run health ok|run health: ${o.without.health?.unhealthy} unhealthy)`));
        }

        // 3. The JSON file, read back on its own.
        const json = (JSON.parse(JSON.stringify(reports)) as unknown[]).map((r, i) => validateCheckReport(r, `reports[${i}]`));
        const fromJson = reportsVerdict(json);
        expect(fromJson.map((v) => v.status)).toEqual([expected]);

        // 4. The JUnit file: failures and errors exactly when the verdict is a failure or incomplete; a skip is skipped.
        const { root } = parseJunit(buildJunitXml(reportSuites(json), "proctor run"));
        const failures = Number(root["@failures"] ?? 0);
        const errors = Number(root["@errors"] ?? 0);
        const skipped = Number(root["@skipped"] ?? 0);
        if (expected === "passed") expect([failures, errors, skipped]).toEqual([0, 0, 0]);
        else if (expected === "skipped") expect([failures + errors, skipped > 0]).toEqual([0, true]);
        else expect(failures + errors).toBeGreaterThan(0);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it("the issue's case: every trial of the arm without the plugin lacks its skill — a failed check there, no error, and all four say passed", async () => {
    const tiers: EvalTiers = { mock: { run: async (spec) => trace((spec.plugins ?? []).length > 0, "pass") } };
    const definition = defineEval({ name: "tidy", mock: { prompt: "tidy up", plugins: [plugin], script: { turns: [] } }, checks: [tool("Bash"), skill("tidy")], trials: 3, ablate: "plugin:tidy-plugin" });
    const [o] = await runEvals([definition], { tiers, progress: false });
    expect(o!.without!.trials).toMatchObject({ completed: 3, errored: 0 });
    const check = o!.report!.ablation!.checks.find((c) => c.label === "skill(tidy)")!;
    expect(check).toMatchObject({ with: { passes: 3, n: 3 }, without: { passes: 0, n: 3 }, namesRemoved: ["skill tidy"] });
    expect(o!.report!.ablation!.removed).toEqual({ skills: ["tidy", "tidy-plugin:tidy"], agents: [], hooks: [], mcpServers: [] });
    const summary = renderRunSummary([o!], { colour: false });
    expect(summary).toContain("without  3/3 trials evaluated · run health ok · not loaded there, as expected (removed with plugin:tidy-plugin): skill tidy");
    expect(summary).toContain("names skill tidy, removed with plugin:tidy-plugin: failing without it is the expected effect (a failed check there, not an error)");
    expect(runExitCode([o!])).toBe(0);
    const { root } = parseJunit(buildJunitXml(reportSuites([o!.report!, o!.without!]), "proctor run"));
    expect([root["@failures"], root["@errors"]].map(Number)).toEqual([0, 0]);
  });

  it("proctor merge --check reads the JSON file by the same rule: an arm without that errored fails it, a healthy one passes", { timeout: 120_000 }, async () => {
    const run = async (without: Outcome) => {
      const tiers: EvalTiers = { mock: { run: async (spec) => ((spec.plugins ?? []).length > 0 ? trace(true, "pass") : trace(false, without)) } };
      const definition = defineEval({ name: "tidy", mock: { prompt: "tidy up", plugins: [plugin], script: { turns: [] } }, checks: [tool("Bash"), skill("tidy")], trials: 2, ablate: "plugin:tidy-plugin" });
      const [o] = await runEvals([definition], { tiers, progress: false });
      const file = join(dir, `run-${without}.json`);
      writeFileSync(file, JSON.stringify([o!.report, o!.without]));
      return { outcome: o!, merged: await proctor(["merge", file, "--check", "-o", join(dir, `merged-${without}.json`)]) };
    };
    const healthy = await run("pass");
    expect([healthy.outcome.status, healthy.merged.exitCode]).toEqual(["passed", 0]);
    const broken = await run("error");
    expect([broken.outcome.status, broken.merged.exitCode]).toEqual(["failed", 1]);
    expect(broken.merged.stderr).toContain("the arm without plugin:tidy-plugin: 2 trials errored (tolerated: 0)");
  });
});
