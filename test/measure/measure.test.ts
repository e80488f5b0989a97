/** measure: counts, statistics, errored trials, concurrency, budget, early stop, skips, trace logs. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { custom, measure, notTool, ProctorError, tool, validateCheckReport, wilsonInterval, type Trace } from "../../src/index.js";
import { makeTrace, usage } from "../helpers/trace.js";
import { bashSometimes, withoutClock } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-measure-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const withBash = makeTrace({ calls: [{ name: "Bash", input: { command: "ls" } }], usage });
const withRead = makeTrace({ calls: [{ name: "Read", input: { file_path: "a" } }], usage });
/** Trials whose index is in `bash` use Bash, the rest Read. */
const pattern = (bash: number[]) => (i: number) => (bash.includes(i) ? withBash : withRead);

describe("measure: the numbers", () => {
  it("counts passes per check and derives rate, SE, Wilson, pass@k, pass^k, flaky", async () => {
    const report = await measure({ run: pattern([0, 3, 5]), checks: [tool("Bash"), notTool("Bash"), tool("Read")], trials: 10, k: [1, 3], progress: false });
    const [bash, noBash, read] = report.checks;
    expect(bash).toMatchObject({ label: "tool(Bash)", kind: "tool", check: { kind: "tool", name: "Bash" }, n: 10, passes: 3, rate: 0.3, flaky: true, outcomes: "1001010000" });
    expect(bash.se).toBeCloseTo(Math.sqrt(0.3 * 0.7 / 10), 12);
    expect(bash.interval).toEqual(wilsonInterval(3, 10));
    expect(bash.passAtK["1"]).toBeCloseTo(0.3, 12);
    expect(bash.passAtK["3"]).toBeCloseTo(1 - (7 * 6 * 5) / (10 * 9 * 8), 12);
    expect(bash.passHatK["3"]).toBeCloseTo((3 * 2 * 1) / (10 * 9 * 8), 12);
    expect(bash.meanScore).toBeCloseTo(0.3, 12);
    expect(noBash).toMatchObject({ passes: 7, outcomes: "0110101111" });
    expect(noBash.failures.map((f) => f.trial)).toEqual([0, 3, 5]);
    expect(noBash.failures[0].message).toContain("Bash");
    expect(read).toMatchObject({ passes: 7, flaky: true });
    expect(report.trials).toEqual({ requested: 10, planned: 10, ran: 10, completed: 10, errored: 0, skipped: 0, ranges: [[0, 10]] });
    expect(report.usage).toEqual({ costUsd: 0.2, inputTokens: 10_000, outputTokens: 2000, cacheCreationTokens: 3000, cacheReadTokens: 40_000, trialsWithUsage: 10 });
    expect(report.timing.agentMs).toBe(15_000);
    expect(report.errors).toEqual([]);
    expect(report.stopped).toBeUndefined();
    validateCheckReport(report);
  });

  it("is not flaky at 0/n or n/n", async () => {
    const report = await measure({ run: () => withRead, checks: [tool("Read"), tool("Bash")], trials: 4, progress: false });
    expect(report.checks.map((c) => c.flaky)).toEqual([false, false]);
  });

  it("averages graded scores and keeps them exact for merging", async () => {
    const graded = custom("graded", (t: Trace) => ({ pass: t.toolCalls.length > 0, score: 0.1 }));
    const report = await measure({ run: () => withRead, checks: [graded], trials: 3, progress: false });
    expect(report.checks[0].scoreSum).toBe(0.3);
    expect(report.checks[0].meanScore).toBeCloseTo(0.1, 15);
  });

  it("records the versions and models the traces report, the seed, and proctor's version", async () => {
    const report = await measure({ run: bashSometimes(0.5), checks: [tool("Bash")], trials: 3, seed: 7, progress: false });
    expect(report.metadata).toMatchObject({ agentVersions: ["2.1.197"], models: ["claude-test"] });
    expect(report.metadata.proctorVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(report.seed).toBe(7);
    expect(Date.parse(report.timing.finishedAt)).toBeGreaterThanOrEqual(Date.parse(report.timing.startedAt));
  });

  it("gives duplicate labels a suffix so every check is addressable", async () => {
    const report = await measure({ run: () => withRead, checks: [tool("Read"), tool("Read")], trials: 1, progress: false });
    expect(report.checks.map((c) => c.label)).toEqual(["tool(Read)", "tool(Read) #2"]);
  });

  it("is exactly reproducible with the same seed, whatever the concurrency", async () => {
    const a = await measure({ run: bashSometimes(0.3), checks: [tool("Bash")], trials: 40, seed: "s1", concurrency: 1, progress: false });
    const b = await measure({ run: async (i, ctx) => {
      await new Promise((r) => setTimeout(r, (i * 7) % 5));
      return bashSometimes(0.3)(i, ctx);
    }, checks: [tool("Bash")], trials: 40, seed: "s1", concurrency: 6, progress: false });
    expect(withoutClock(b)).toEqual(withoutClock(a));
    const c = await measure({ run: bashSometimes(0.3), checks: [tool("Bash")], trials: 40, seed: "s2", progress: false });
    expect(c.checks[0].outcomes).not.toEqual(a.checks[0].outcomes);
  });
});

describe("measure: errored trials are counted and listed, never passes", () => {
  it("keeps a throwing run out of n, lists it with its error and code, and marks it E", async () => {
    const report = await measure({
      run: (i) => {
        if (i === 1) throw new ProctorError("TIMEOUT", "the run timed out after 60 s");
        if (i === 2) throw new Error("boom");
        return withBash;
      },
      checks: [tool("Bash"), notTool("Bash")],
      trials: 4,
      progress: false,
    });
    expect(report.trials).toMatchObject({ ran: 4, completed: 2, errored: 2, skipped: 0 });
    expect(report.errors).toEqual([
      { trial: 1, message: "the run timed out after 60 s", code: "TIMEOUT" },
      { trial: 2, message: "boom" },
    ]);
    expect(report.checks[0]).toMatchObject({ n: 2, passes: 2, rate: 1, outcomes: "1EE1" });
    expect(report.checks[1]).toMatchObject({ n: 2, passes: 0, outcomes: "0EE0" });
    validateCheckReport(report);
  });

  it("treats a run that returns no Trace as errored, saying what it returned", async () => {
    const report = await measure({ run: () => undefined as unknown as Trace, checks: [tool("Bash")], trials: 2, progress: false });
    expect(report.errors[0].message).toBe("run(0) returned undefined; it must return a Trace (or throw)");
    expect(report.checks[0]).toMatchObject({ n: 0, rate: null, se: null, meanScore: null, interval: { low: 0, high: 1 } });
  });
});

describe("measure: concurrency and memory", () => {
  it("never runs more than `concurrency` trials at once, and does reach it", async () => {
    let active = 0;
    let peak = 0;
    const run = async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 2));
      active--;
      return withRead;
    };
    await measure({ run, checks: [tool("Read")], trials: 30, concurrency: 4, progress: false });
    expect(peak).toBe(4);
  });

  it("streams every Trace and error to keepTraces as JSONL", async () => {
    const file = join(dir, "nested", "traces.jsonl");
    await measure({ run: (i) => (i === 2 ? Promise.reject(new Error("nope")) : withBash), checks: [tool("Bash")], trials: 4, concurrency: 2, keepTraces: file, progress: false });
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.trial).sort()).toEqual([0, 1, 2, 3]);
    expect(lines.find((l) => l.trial === 2)).toEqual({ trial: 2, error: "nope" });
    expect(lines.find((l) => l.trial === 0).trace.toolCalls[0].name).toBe("Bash");
  });

  it("refuses an unwritable keepTraces path before running anything", async () => {
    let ran = 0;
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "");
    const path = join(blocker, "t.jsonl");
    await expect(measure({ run: () => {
      ran++;
      return withBash;
    }, checks: [tool("Bash")], trials: 2, keepTraces: path, progress: false })).rejects.toThrow(`keepTraces: cannot write ${path}: E`);
    expect(ran).toBe(0);
  });
});

describe("measure: budget and early stop", () => {
  it("stops scheduling at maxUsd and says it was cut short", async () => {
    // Each trial costs $0.02; the guard won't start one that would likely pass $0.10.
    const report = await measure({ run: () => withBash, checks: [tool("Bash")], trials: 50, budget: { maxUsd: 0.1 }, progress: false });
    expect(report.trials.ran).toBe(5);
    expect(report.trials.skipped).toBe(45);
    expect(report.usage.costUsd).toBeLessThanOrEqual(0.1);
    expect(report.stopped).toMatchObject({ reason: "budget", limit: "maxUsd" });
    expect(report.stopped!.message).toBe("cost budget $0.1000 reached after 5 trials (spent $0.1000)");
    validateCheckReport(report);
  });

  it("projects in-flight trials so concurrency does not blow through the cap", async () => {
    const run = async () => {
      await new Promise((r) => setTimeout(r, 3));
      return withBash;
    };
    const report = await measure({ run, checks: [tool("Bash")], trials: 100, concurrency: 4, budget: { maxUsd: 0.3 }, progress: false });
    // Only the first wave (4 trials, cost unknown yet) can start unguarded: at most 0.30 + 3 × 0.02.
    expect(report.usage.costUsd).toBeLessThanOrEqual(0.36);
    expect(report.trials.ran).toBeLessThan(100);
  });

  it("stops at maxMs", async () => {
    const run = async () => {
      await new Promise((r) => setTimeout(r, 20));
      return withBash;
    };
    const report = await measure({ run, checks: [tool("Bash")], trials: 1000, budget: { maxMs: 100 }, progress: false });
    expect(report.trials.ran).toBeLessThan(1000);
    expect(report.stopped).toMatchObject({ reason: "budget", limit: "maxMs" });
  });

  it("stops early once every gated interval is clear of its minimum, and says so", async () => {
    const report = await measure({ run: () => withBash, checks: [tool("Bash"), notTool("Bash")], trials: 200, thresholds: { per: { tool: 0.5, notTool: 0.5 } }, earlyStop: true, progress: false });
    // n passes of n show a rate above 0.5 (anytime-valid, 95%) from n = 7; the floor of 10 trials decides.
    expect(report.trials.ran).toBe(10);
    expect(report.stopped).toMatchObject({ reason: "early-stop" });
    expect(report.stopped!.message).toContain("tool(Bash) above 0.5; notTool(Bash) below 0.5");
  });

  it("a gate of 100% is refuted by the first failure and never confirmed: it stops on that failure, or runs every trial", async () => {
    const failsAt4 = await measure({ run: pattern([0, 1, 2, 3, 5, 6, 7]), checks: [tool("Bash")], trials: 40, thresholds: { min: 1 }, earlyStop: { minTrials: 1 }, progress: false });
    expect(failsAt4.trials.ran).toBe(5);
    expect(failsAt4.stopped!.message).toContain("tool(Bash) below 1");
    const never = await measure({ run: () => withBash, checks: [tool("Bash")], trials: 40, thresholds: { min: 1 }, earlyStop: true, progress: false });
    expect(never.trials.ran).toBe(40);
  });

  it("stops on the anytime-valid verdict, not on a fixed-n interval: 17 of 20 against 0.6 is clear to Wilson, not yet to the test", async () => {
    // Wilson 95% of 17/20 is 64.0–94.8%, above 0.6, so the old rule stopped at 20; the anytime-valid test needs more.
    const passes = new Set([0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 19]);
    const report = await measure({ run: (i) => (i >= 20 || passes.has(i) ? withBash : withRead), checks: [tool("Bash")], trials: 200, thresholds: { min: 0.6 }, earlyStop: { minTrials: 20 }, progress: false });
    expect(wilsonInterval(17, 20).low).toBeGreaterThan(0.6);
    expect(report.trials.ran).toBeGreaterThan(20);
    expect(report.stopped?.reason).toBe("early-stop");
  });

  it("does not stop early while a check is still undecided", async () => {
    const report = await measure({ run: bashSometimes(0.5), checks: [tool("Bash")], trials: 30, seed: 1, thresholds: { min: 0.5 }, earlyStop: { minTrials: 5 }, progress: false });
    expect(report.trials.ran).toBe(30);
    expect(report.stopped).toBeUndefined();
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    const report = await measure({ run: (i) => {
      if (i === 2) controller.abort();
      return withBash;
    }, checks: [tool("Bash")], trials: 10, signal: controller.signal, progress: false });
    expect(report.trials.ran).toBe(3);
    expect(report.stopped).toMatchObject({ reason: "aborted" });
  });
});

describe("measure: skipped, not passed", () => {
  it("marks the report skipped when a run cannot run here (no API key)", async () => {
    const report = await measure({
      run: () => {
        throw new ProctorError("NO_API_KEY", "ANTHROPIC_API_KEY is not set: the real-API eval was skipped");
      },
      checks: [tool("Bash")],
      trials: 5,
      progress: false,
    });
    expect(report.skipped).toEqual({ reason: "ANTHROPIC_API_KEY is not set: the real-API eval was skipped" });
    expect(report.trials).toMatchObject({ ran: 0, errored: 0, skipped: 5 });
    validateCheckReport(report);
  });
});

describe("measure: bad options say what to do", () => {
  const run = () => withBash;
  it.each([
    [{ run, checks: [], trials: 3 }, "measure: checks must be a non-empty array of checks"],
    [{ run, checks: [tool("Bash")], trials: 0 }, "measure: trials must be a positive integer (e.g. 20); got 0"],
    [{ run, checks: [tool("Bash")], trials: 3, concurrency: 1.5 }, "measure: concurrency must be a positive integer (e.g. 4); got 1.5"],
    [{ run: "x", checks: [tool("Bash")], trials: 3 }, "measure: run must be a function"],
    [{ run, checks: [{}], trials: 3 }, "measure: checks[0] is not a check"],
    [{ run, checks: [tool("Bash")], trials: 3, earlyStop: true }, "earlyStop needs thresholds"],
    [{ run, checks: [tool("Bash")], trials: 3, budget: { maxUsd: -1 } }, "budget.maxUsd must be a positive number; got -1"],
    [{ run, checks: [tool("Bash")], trials: 3, shard: "5/4" }, 'shard "5/4": the index must be within 1..4'],
    [{ run, checks: [tool("Bash")], trials: 3, thresholds: { per: { tol: 0.5 } } }, 'measure: thresholds.per["tol"] matches no check label or kind'],
    [{ run, checks: [tool("Bash")], trials: 3, confidence: 95 }, "measure: confidence must be within (0, 1), e.g. 0.95; got 95"],
    [{ run, checks: [tool("Bash")], trials: 3, k: [0] }, "measure: every k must be a positive integer (pass@k needs k ≥ 1); got 0"],
  ])("%#: %s", async (options, message) => {
    await expect(measure(options as never)).rejects.toThrow(message);
  });
});
