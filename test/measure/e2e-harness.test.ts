/**
 * measure end to end, offline: a seeded stochastic script (in ~30 % of trials the model reaches
 * for Bash) drives the real claude binary through the mock model for 12 trials. The measured
 * rate is consistent with 30 %, every trial did exactly what its seeded draw said, and a second
 * run with the same seed — this time as two shards, merged — reproduces the report exactly.
 */
import { describe, expect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { measure, mergeReports, notTool, tool, trialRandom, validateCheckReport, type MeasureOptions, type Trace, type TrialContext } from "../../src/index.js";
import { withoutClock } from "./helpers.js";
import { claudeVersion } from "../helpers/claude-version.js";

const SEED = "bash-30";
const P = 0.3;
const TRIALS = 12;

/** One trial: the model runs a Bash command with probability P (drawn from the trial's seeded stream), else reads a file. */
async function trial(_i: number, ctx: TrialContext): Promise<Trace> {
  const bash = ctx.random.chance(P);
  const result = await runHarness({
    prompt: "look at the project",
    files: { "README.md": "hello\n" },
    allowedTools: ["Bash", "Read"],
    script: {
      turns: [bash ? { tools: [{ name: "Bash", input: { command: "echo hi" } }] } : { tools: [{ name: "Read", input: { file_path: "README.md" } }] }, { text: "Done." }],
    },
  });
  await result.cleanup();
  return result.trace;
}

const options = (extra: Partial<MeasureOptions<Trace>> = {}): MeasureOptions<Trace> => ({
  run: trial,
  checks: [tool("Bash"), notTool("Bash"), tool("Read")],
  trials: TRIALS,
  concurrency: 2,
  seed: SEED,
  k: [3],
  progress: false,
  ...extra,
});

describe("measure over the real binary with a seeded stochastic mock script", () => {
  it("measures a rate consistent with 30% and reproduces the report exactly from the seed", async () => {
    const report = await measure(options());
    validateCheckReport(report);
    expect(report.errors).toEqual([]);
    expect(report.trials.completed).toBe(TRIALS);

    // Every trial did what its seeded draw decided: the binary, the mock and measure lose nothing.
    const expected = Array.from({ length: TRIALS }, (_, i) => (trialRandom(SEED, i).chance(P) ? "1" : "0")).join("");
    const bash = report.checks[0];
    expect(bash.outcomes).toBe(expected);
    expect(report.checks[1].outcomes).toBe(expected.replace(/[01]/g, (c) => (c === "1" ? "0" : "1")));
    expect(report.checks[2].passes).toBe(TRIALS - bash.passes);

    // Consistent with 30%: the true rate lies inside the 95% interval.
    expect(bash.interval.low).toBeLessThanOrEqual(P);
    expect(bash.interval.high).toBeGreaterThanOrEqual(P);

    // Usage came from the runs' result lines; the version from the binary.
    expect(report.usage.trialsWithUsage).toBe(TRIALS);
    expect(report.metadata.agentVersions).toEqual([claudeVersion()]);

    // Same seed again, split in two shards and merged: the same report, number for number.
    const shards = [await measure(options({ shard: "1/2" })), await measure(options({ shard: "2/2" }))];
    const { mergedFrom: _m, ...again } = withoutClock(mergeReports(shards));
    expect(again).toEqual(withoutClock(report));
  }, 360_000);
});
